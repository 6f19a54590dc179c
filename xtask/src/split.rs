//! The release console split by route: every page a lazy route (the console's `split`
//! feature), cut by wasm-split into chunks that load when a page is first opened.
//!
//! Trunk 0.21 cannot split, so the wasm goes through the steps by hand:
//! cargo (`--emit-relocs`, so wasm-split can move code) → wasm-split → wasm-bindgen
//! (`--keep-lld-exports`, which the chunks link against) → `wasm-opt -Oz` on every module
//! → content-hashed names. The page itself (styles, icon, boot.js) is written from
//! `index.html` without its rust link (served_page.rs), so both builds share one page
//! description and this one needs no trunk.
//!
//! Every step after cargo keeps its output (see reuse.rs): a build with nothing changed
//! runs none of them, and a build after a change runs only the steps whose inputs changed.

use crate::optimiser::Optimiser;
use crate::packs::{self, Pack};
use crate::parallel::two_at_a_time;
use crate::reuse::{self, Key, Reuse, Stamp};
use crate::served_page::Page;
use crate::shell::{
    cargo, copy_folder, empty_folder, exec, exec_quiet, output_of, root, step, timed,
};
use crate::{compress, merge, minify, setup};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The bundle's name: the console's binary.
const NAME: &str = "gpudeck";
/// How the main module imports the split loader; renamed with its hash at the end.
const LOADER_LINK: &str = "./__wasm_split.js";

/// Everything of the split build lives under `target/split`, apart from the normal
/// build's cache (other RUSTFLAGS would otherwise rebuild it from scratch each time).
pub fn split_dir() -> PathBuf {
    root().join("target/split")
}

/// The served files of the split build.
pub fn dist_dir() -> PathBuf {
    split_dir().join("dist")
}

/// Builds the split console into [`dist_dir`] and writes `target/split/chunks.txt`,
/// which names the files each page needs (for `cargo xtask bench`). When nothing it is
/// built from changed since the last build, it only says so.
pub fn build_split_console() -> Result<()> {
    step("building the console split by route (release, wasm-split, wasm-opt -Oz)");
    let wasm = timed("cargo build (release wasm)", compile)?;
    let page = Page::of_repository()?;
    let reuse = Reuse::at(split_dir().join("reuse"), recipe()?);
    let key = reuse
        .key("split console")
        .file(&wasm)?
        .text(&page.key()?)
        .finish();
    let (dist, stamp) = (dist_dir(), Stamp::at(split_dir().join("dist.stamp")));
    if stamp.matches(&key, &dist)? {
        println!(
            "    reused the split console in {}: nothing it is built from has changed",
            dist.display()
        );
        return Ok(());
    }
    stamp.clear()?;
    let built = build(&wasm, &page, &dist, &reuse)?;
    write_chunk_list(&built.names, &built.prefetch)?;
    write_pack_list(&built.names.packs)?;
    reuse.forget_unused()?;
    stamp.record(&key, &dist)?;
    let counts = reuse.counts();
    println!(
        "    split console in {} ({} steps reused, {} run)",
        dist.display(),
        counts.reused,
        counts.made
    );
    Ok(())
}

/// The steps after cargo again, into `dist`, from `wasm` (cargo's output, or a changed
/// copy of it) and `page`, each step through the outputs the last build kept; the next
/// [`build_split_console`] forgets what this one adds. Returns how many steps it ran. For
/// the check that reuse is safe (reuse_check.rs).
pub fn rebuild_into(dist: &Path, wasm: &Path, page: &Page) -> Result<reuse::Counts> {
    let reuse = Reuse::at(split_dir().join("reuse"), recipe()?);
    build(wasm, page, dist, &reuse)?;
    Ok(reuse.counts())
}

/// What every step's key starts from: xtask itself, whose code and constants say how each
/// step runs (the binaryen and terser versions among them), and the tools it finds
/// installed rather than pins.
fn recipe() -> Result<String> {
    let xtask = std::env::current_exe().context("finding xtask's own executable")?;
    let version = |tool: &str| output_of(tool, &["--version"]).unwrap_or_default();
    Ok(Key::new("recipe")
        .file(&xtask)?
        .text(&version("wasm-bindgen"))
        .text(&version(&setup::lightningcss().to_string_lossy()))
        .text(&version("node"))
        .finish())
}

/// What [`build`] wrote, for the lists beside the dist folder.
struct Built {
    names: Names,
    prefetch: std::collections::HashMap<String, Vec<String>>,
}

/// The steps after cargo: `wasm` split, bound, optimised, published with `page`'s assets
/// into `dist` (emptied first) and precompressed, each step through `reuse`.
fn build(wasm: &Path, page: &Page, dist: &Path, reuse: &Reuse) -> Result<Built> {
    let stage = empty_folder(&split_dir().join("stage"))?;
    let split = timed("wasm-split", || split_wasm(wasm, &stage))?;
    timed("wasm-bindgen", || bindgen(&stage))?;
    // The main module first: the largest by far, it takes one core while the chunks share
    // the other, instead of running alone after them.
    let mut modules = vec![stage.join(format!("{NAME}_bg.wasm"))];
    modules.extend(split.split_modules.iter().cloned());
    timed("wasm-opt on every module", || optimise_all(&modules, reuse))?;
    let assets = timed("the served page and its styles", || {
        build_page_assets(page, reuse)
    })?;
    empty_folder(dist)?;
    copy_folder(&assets, dist)?;
    let names = timed("packs, hashed names, terser", || {
        publish(&stage, &split.prefetch_map, dist, reuse)
    })?;
    write_index(&names, dist)?;
    timed("precompression (gzip, brotli)", || {
        compress::precompress_console(dist, Some(reuse))
    })?;
    Ok(Built {
        names,
        prefetch: split.prefetch_map,
    })
}

/// Relocations kept, so wasm-split can move code.
const SPLIT_RUSTFLAGS: &str = "-C link-args=--emit-relocs";

/// `cargo build` of the console with its `split` feature, keeping relocations; returns the
/// wasm file (nothing is compiled when the sources are unchanged). Plain rustc, not
/// clippy-driver: clippy turns MIR optimisations off, which would change the bytes shipped;
/// the `lint` suite reads this feature in a debug build
/// ([`crate::test_builds::split_feature_diagnostics`]).
pub fn compile() -> Result<PathBuf> {
    let target_dir = split_dir();
    exec(
        cargo()
            .args(["build", "--locked", "--bin", NAME, "--features", "split"])
            .args([
                "--profile",
                "wasm-release",
                "--target",
                "wasm32-unknown-unknown",
            ])
            .arg("--target-dir")
            .arg(&target_dir)
            .env("RUSTFLAGS", SPLIT_RUSTFLAGS),
    )?;
    Ok(target_dir.join(format!("wasm32-unknown-unknown/wasm-release/{NAME}.wasm")))
}

/// wasm-split: the main module (for wasm-bindgen), one module per split point and shared
/// chunks, and the loader script the main module imports to fetch them.
fn split_wasm(wasm: &Path, stage: &Path) -> Result<wasm_split_cli_support::SplitWasm> {
    let input = std::fs::read(wasm).with_context(|| format!("reading {}", wasm.display()))?;
    let main_out = stage.join(format!("{NAME}_split.wasm"));
    let main_module = format!("./{NAME}.js");
    let mut options = wasm_split_cli_support::Options::new(&input);
    options.output_dir = stage;
    options.main_out_path = &main_out;
    // The loader imports `initSync` from the wasm-bindgen script, which sits beside it.
    options.main_module = &main_module;
    options.link_name = LOADER_LINK;
    wasm_split_cli_support::transform(options)
        .map_err(|error| anyhow::anyhow!("wasm-split: {error:?}"))
}

fn bindgen(stage: &Path) -> Result<()> {
    exec(
        Command::new("wasm-bindgen")
            .args(["--target", "web", "--keep-lld-exports", "--no-typescript"])
            .args(["--out-name", NAME])
            .arg("--out-dir")
            .arg(stage)
            .arg(stage.join(format!("{NAME}_split.wasm"))),
    )
}

/// Where the last build kept each module as wasm-split and wasm-bindgen made it, before
/// wasm-opt: with its function names (for twiggy), and for [`check_optimiser`].
pub fn unoptimised_dir() -> PathBuf {
    split_dir().join("unoptimised")
}

/// What [`optimise`] does, on every module, in place, by binaryen loaded once per lane
/// ([`Optimiser`]): wasm-split writes over four hundred modules, most of them small chunks,
/// and a chunk whose bytes did not change keeps the file wasm-opt made of it last time.
fn optimise_all(modules: &[PathBuf], reuse: &Reuse) -> Result<()> {
    let kept = empty_folder(&unoptimised_dir())?;
    for module in modules {
        let name = module.file_name().context("a module has a file name")?;
        std::fs::copy(module, kept.join(name))?;
    }
    let optimiser = Optimiser::new(&split_dir().join("optimiser"))?;
    // Each module still names its wasm features in its target_features section.
    two_at_a_time(modules, |module| {
        reuse.file_in_place("wasm-opt", module, |module| {
            optimiser.optimise(module)?;
            ensure_stripped(module)
        })
    })?;
    Ok(())
}

/// How many of the last build's modules [`check_optimiser`] optimises both ways.
const OPTIMISER_SAMPLE: usize = 8;

/// The optimiser against npm's `wasm-opt` command, on modules of the last build from the
/// smallest to the largest page (the main module aside: 8 s more of the command on every
/// run; compared by hand once, on 2026-11-28, the same bytes): the same bytes.
///
/// Both are binaryen on the same bytes with the same flags, so a comparison that passed
/// passes again while none of that changed: its key (the [`recipe`], which holds xtask
/// with its flags, script and binaryen version, and the sampled modules) is kept, and the
/// check with a kept key is not run again (19 s of a `test` with nothing changed).
pub fn check_optimiser() -> Result<()> {
    step("checking the optimiser against npm's wasm-opt command");
    let mut modules: Vec<(u64, PathBuf)> = std::fs::read_dir(unoptimised_dir())
        .context("no modules kept from a split build")?
        .map(|entry| {
            let path = entry?.path();
            Ok((std::fs::metadata(&path)?.len(), path))
        })
        .collect::<Result<_>>()?;
    modules.retain(|(_, path)| !path.ends_with(format!("{NAME}_bg.wasm")));
    modules.sort();
    let sample = spread_sample(&modules, OPTIMISER_SAMPLE);
    let kb = |(bytes, _): &(u64, PathBuf)| *bytes as f64 / 1024.0;
    let checked = format!(
        "{} modules of {:.1} to {:.1} KB: the same bytes from both",
        sample.len(),
        sample.first().map_or(0.0, kb),
        sample.last().map_or(0.0, kb),
    );
    let mut key = Key::new("optimiser check").text(&recipe()?);
    for (_, module) in &sample {
        key = key.file(module)?;
    }
    let key = key.finish();
    let passed = split_dir().join("optimiser-check-passed");
    if std::fs::read_to_string(&passed).ok().as_deref() == Some(key.as_str()) {
        println!("    {checked}, as the last check found with the same modules and tools");
        return Ok(());
    }
    let scratch = empty_folder(&split_dir().join("optimiser-check"))?;
    let optimiser = Optimiser::new(&scratch)?;
    for (_, module) in &sample {
        let name = module.file_name().context("a module has a file name")?;
        let by_command = scratch.join("command").join(name);
        let by_library = scratch.join("library").join(name);
        for copy in [&by_command, &by_library] {
            std::fs::create_dir_all(copy.parent().expect("a copy has a folder"))?;
            std::fs::copy(module, copy)?;
        }
        optimise(&by_command, &[])?;
        optimiser.optimise(&by_library)?;
        if std::fs::read(&by_command)? != std::fs::read(&by_library)? {
            bail!(
                "the optimiser and wasm-opt's command made different bytes of {}",
                module.display()
            );
        }
    }
    drop(optimiser);
    std::fs::remove_dir_all(&scratch)?;
    reuse::write_atomically(&passed, key.as_bytes())?;
    println!("    {checked}");
    Ok(())
}

/// `count` of `sorted` items, evenly spread from the first to the last.
fn spread_sample<T: Clone>(sorted: &[T], count: usize) -> Vec<T> {
    if sorted.len() <= count {
        return sorted.to_vec();
    }
    (0..count)
        .map(|i| sorted[i * (sorted.len() - 1) / (count - 1)].clone())
        .collect()
}

/// `wasm-opt -Oz` on `module` in place, with binaryen's feature flags `features` (none: the
/// module's target_features section names them). Every module would otherwise carry its
/// own producers and target-features sections, which browsers ignore.
fn optimise(module: &Path, features: &[String]) -> Result<()> {
    exec_quiet(
        Command::new(setup::wasm_opt_dir().join("wasm-opt"))
            .args(features)
            .args(["-Oz", "--strip-producers", "--strip-target-features"])
            .arg(module)
            .arg("-o")
            .arg(module),
    )?;
    ensure_stripped(module)
}

/// The custom sections `optimise_all` strips from every module.
const STRIPPED: [&str; 2] = ["producers", "target_features"];

/// Fails when `module` still has a section `optimise_all` strips.
fn ensure_stripped(module: &Path) -> Result<()> {
    let sections = custom_sections(&std::fs::read(module)?)
        .with_context(|| format!("reading {}", module.display()))?;
    if let Some(kept) = sections.iter().find(|s| STRIPPED.contains(&s.as_str())) {
        bail!("{} still has its {kept} section", module.display());
    }
    Ok(())
}

/// The names of a wasm module's custom sections, in order.
fn custom_sections(wasm: &[u8]) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        if let wasmparser::Payload::CustomSection(section) = payload? {
            names.push(section.name().to_owned());
        }
    }
    Ok(names)
}

/// The served page and its files ([`Page::write`]), kept for the next build when nothing
/// it is written from changed. Returns the folder they are in.
fn build_page_assets(page: &Page, reuse: &Reuse) -> Result<PathBuf> {
    let key = reuse.key("page").text(&page.key()?).finish();
    reuse.folder("page", key, |into| page.write(into, &setup::lightningcss()))
}

/// The published names of the bundle's files.
struct Names {
    js: String,
    wasm: String,
    loader: String,
    /// A chunk's name as wasm-split wrote it (no extension) → its published name.
    chunks: BTreeMap<String, String>,
    packs: Vec<Pack>,
}

/// Copies the stage's files into the dist folder under content-hashed names
/// (`name-<16 hex>.ext`, the pattern the server caches as immutable).
fn publish(
    stage: &Path,
    prefetch: &std::collections::HashMap<String, Vec<String>>,
    dist: &Path,
    reuse: &Reuse,
) -> Result<Names> {
    let mut chunks = BTreeMap::new();
    // Kept for the packs, which repeat the chunks several splits share.
    let mut contents = BTreeMap::new();
    let mut stems: Vec<&String> = prefetch.values().flatten().collect();
    stems.sort();
    stems.dedup();
    for stem in stems {
        let bytes = std::fs::read(stage.join(format!("{stem}.wasm")))?;
        let name = format!("{NAME}-{stem}-{}.wasm", hash(&[&bytes]));
        std::fs::write(dist.join(&name), &bytes)?;
        chunks.insert(stem.clone(), name);
        contents.insert(stem.clone(), bytes);
    }
    let packs = write_packs(stage, &chunks, &contents, prefetch, dist, reuse)?;
    // The loader names the chunks and packs; the main script and the loader import each
    // other, so the three share one hash over their contents and those names.
    let mut loader = std::fs::read_to_string(stage.join("__wasm_split.js"))?;
    for (stem, name) in &chunks {
        loader = loader.replace(&format!("\"./{stem}.wasm\""), &format!("\"./{name}\""));
    }
    let loader = packs::route_loader_through_packs(&loader, &packs)?;
    let js = std::fs::read_to_string(stage.join(format!("{NAME}.js")))?;
    let wasm = std::fs::read(stage.join(format!("{NAME}_bg.wasm")))?;
    let shared = hash(&[loader.as_bytes(), js.as_bytes(), &wasm]);
    let names = Names {
        js: format!("{NAME}-{shared}.js"),
        wasm: format!("{NAME}-{shared}_bg.wasm"),
        loader: format!("{NAME}-split-{shared}.js"),
        chunks,
        packs,
    };
    let loader = loader.replace(&format!("\"./{NAME}.js\""), &format!("\"./{}\"", names.js));
    // Only the import statement is renamed: the wasm's own import keeps the link name.
    let import_from = |quote: char| format!("from {quote}{LOADER_LINK}{quote}");
    let js = js
        .replace(&import_from('\''), &format!("from './{}'", names.loader))
        .replace(&import_from('"'), &format!("from \"./{}\"", names.loader));
    if !js.contains(&names.loader) || !loader.contains(&names.js) {
        bail!("the main script and the split loader no longer import each other as expected");
    }
    std::fs::write(dist.join(&names.js), js)?;
    std::fs::write(dist.join(&names.wasm), wasm)?;
    std::fs::write(dist.join(&names.loader), loader)?;
    for script in [&names.js, &names.loader] {
        reuse.file_in_place("terser", &dist.join(script), minify::module_in_place)?;
    }
    Ok(names)
}

/// One pack per page's split ([`packs::is_page_split`]): the published files it needs, in
/// wasm-split's order, merged into one module ([`merge`]), optimised like every module and
/// written beside them as
/// `gpudeck-pack<split>-<hash>.bin`. `chunks` and `contents` give each chunk's published
/// name and bytes by wasm-split's name; `stage` holds wasm-split's main module, which names
/// the wasm features the merge may use.
fn write_packs(
    stage: &Path,
    chunks: &BTreeMap<String, String>,
    contents: &BTreeMap<String, Vec<u8>>,
    prefetch: &std::collections::HashMap<String, Vec<String>>,
    dist: &Path,
    reuse: &Reuse,
) -> Result<Vec<Pack>> {
    let features =
        merge::binaryen_features(&std::fs::read(stage.join(format!("{NAME}_split.wasm")))?)?;
    let mut splits: Vec<_> = prefetch
        .iter()
        .filter(|(split, stems)| packs::is_page_split(split) && !stems.is_empty())
        .collect();
    splits.sort();
    two_at_a_time(&splits, |(split, stems)| {
        let files: Vec<(&str, &[u8])> = stems
            .iter()
            .map(|stem| (chunks[stem].as_str(), contents[stem].as_slice()))
            .collect();
        let key = files
            .iter()
            .fold(
                reuse.key("pack").text(&features.join(" ")),
                |key, (name, bytes)| key.text(name).bytes(bytes),
            )
            .finish();
        let module = reuse.bytes("pack", key, || merged_pack_module(split, &files, &features))?;
        let covered: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
        let bytes = packs::pack(&covered, &module)?;
        let file = format!("{NAME}-pack{split}-{}.bin", hash(&[&bytes]));
        std::fs::write(dist.join(&file), &bytes)?;
        Ok(Pack {
            split: (*split).clone(),
            file,
        })
    })
}

/// The chunks `files` of `split` merged into one module, optimised like every module.
fn merged_pack_module(
    split: &str,
    files: &[(&str, &[u8])],
    features: &[String],
) -> Result<Vec<u8>> {
    let scratch = empty_folder(&split_dir().join("merge").join(split))?;
    let merged = merge::merge(files, features, &setup::wasm_opt_dir(), &scratch)
        .with_context(|| format!("merging the pack of {split}"))?;
    optimise(&merged, features)?;
    let module = std::fs::read(&merged)?;
    std::fs::remove_dir_all(&scratch)?;
    Ok(module)
}

/// `target/split/packs.txt`: a line `<split> <pack>` per split (for the tests and bench).
fn write_pack_list(packs: &[Pack]) -> Result<()> {
    let list: String = packs
        .iter()
        .map(|pack| format!("{} {}\n", pack.split, pack.file))
        .collect();
    std::fs::write(split_dir().join("packs.txt"), list)?;
    Ok(())
}

/// The served page, plus the script that starts the bundle (as Trunk.toml's
/// `pattern_script` would write it) and preloads of the files every page needs. boot.js
/// also gets each route's pack, to fetch the opened page's beside the main module, and
/// each page's first API reads, to send them beside it too (`first_reads.js`).
fn write_index(names: &Names, dist: &Path) -> Result<()> {
    let route_packs = packs::route_packs(gpudeck_pages::PAGES, &names.packs)?;
    let path = dist.join("index.html");
    let page = std::fs::read_to_string(&path)?;
    let preloads = format!(
        r#"<link rel="modulepreload" href="/{js}"><link rel="modulepreload" href="/{loader}"><link rel="preload" href="/{wasm}" as="fetch" type="application/wasm" crossorigin=""></head>"#,
        js = names.js,
        wasm = names.wasm,
        loader = names.loader,
    );
    let boot = format!(
        r#"<script type="module" src="/boot.js" data-js="/{js}" data-wasm="/{wasm}" data-packs='{packs}' data-reads='{reads}'></script>"#,
        js = names.js,
        wasm = names.wasm,
        packs = packs::route_packs_json(&route_packs),
        reads = quoted_attribute(&gpudeck_pages::first_reads_json(
            gpudeck_pages::SHELL_READS,
            gpudeck_pages::PAGES
        )),
    );
    if !page.contains("</head>") {
        bail!("the served index.html has no </head>");
    }
    // Right after first_reads.js, which index.html puts before the styles: the browser
    // asks for the two small scripts that start the page's pack and data first, on the
    // six connections it opens to one server, and for the large files after them.
    let Some(after_first_reads) = page.find("first_reads.js").and_then(|at| {
        page[at..]
            .find("</script>")
            .map(|end| at + end + "</script>".len())
    }) else {
        bail!("the served index.html has no first_reads.js script");
    };
    let mut written = page;
    written.insert_str(after_first_reads, &boot);
    std::fs::write(&path, written.replacen("</head>", &preloads, 1))?;
    Ok(())
}

/// `text` as the value of an attribute in single quotes.
fn quoted_attribute(text: &str) -> String {
    text.replace('&', "&amp;").replace('\'', "&#39;")
}

/// `target/split/chunks.txt`: a line `main <files>` with what every page loads, then
/// a line `<split> <files>` per lazy route with the chunks it adds.
fn write_chunk_list(
    names: &Names,
    prefetch: &std::collections::HashMap<String, Vec<String>>,
) -> Result<()> {
    let mut list = format!("main {} {} {}\n", names.js, names.wasm, names.loader);
    let mut splits: Vec<_> = prefetch.iter().collect();
    splits.sort();
    for (split, stems) in splits {
        let files: Vec<&str> = stems.iter().map(|s| names.chunks[s].as_str()).collect();
        list.push_str(&format!("{split} {}\n", files.join(" ")));
    }
    std::fs::write(split_dir().join("chunks.txt"), list)?;
    Ok(())
}

/// 16 hex digits over `parts` (SipHash; stable for a given toolchain, which is all a
/// cache-busting name needs).
pub fn hash(parts: &[&[u8]]) -> String {
    let mut hasher = DefaultHasher::new();
    for part in parts {
        hasher.write(part);
    }
    format!("{:016x}", hasher.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_spreads_from_the_first_to_the_last() {
        let items: Vec<u32> = (0..100).collect();
        assert_eq!(spread_sample(&items, 4), [0, 33, 66, 99]);
        assert_eq!(spread_sample(&items[..3], 8), [0, 1, 2]);
        assert_eq!(spread_sample(&items[..9], 2), [0, 8]);
    }

    /// A custom section: id 0, its size, then its name with its length, then the payload.
    fn custom(name: &str, payload: &[u8]) -> Vec<u8> {
        let mut body = vec![name.len() as u8];
        body.extend(name.as_bytes());
        body.extend(payload);
        let mut section = vec![0, body.len() as u8];
        section.extend(body);
        section
    }

    #[test]
    fn custom_sections_are_listed_by_name() {
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        assert!(custom_sections(&wasm).unwrap().is_empty());
        wasm.extend(custom("name", b"\x00"));
        wasm.extend(custom("producers", b"\x00"));
        assert_eq!(custom_sections(&wasm).unwrap(), ["name", "producers"]);
        assert!(custom_sections(b"not wasm").is_err());

        let file =
            std::env::temp_dir().join(format!("gpudeck-stripped-{}.wasm", std::process::id()));
        std::fs::write(&file, &wasm).unwrap();
        let kept = ensure_stripped(&file).unwrap_err().to_string();
        std::fs::write(&file, b"\0asm\x01\0\0\0").unwrap();
        let stripped = ensure_stripped(&file);
        std::fs::remove_file(&file).unwrap();
        assert!(kept.ends_with("still has its producers section"), "{kept}");
        stripped.unwrap();
    }
}
