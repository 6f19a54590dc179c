//! The check that reusing the split build's kept steps is safe: built again from what was
//! kept, the console is the same byte for byte; built with one style sheet changed, or with
//! one page's wording changed, exactly the files that change reaches differ.

use crate::reuse::digests;
use crate::served_page::Page;
use crate::shell::{empty_folder, root, step};
use crate::split;
use anyhow::{bail, Context, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The style sheet the check changes, as `index.html` links it.
const CHANGED_SHEET: &str = "style/machines.css";

/// The page whose wording the check changes, and a text only that page shows: the
/// Machines page's link to the rolling planner (`src/pages/machines/mod.rs`).
const REWORDED_PAGE: &str = "machines";
const REWORDED: &str = "Plan rolling maintenance…";

/// Builds the console three more times beside the current build (which must be up to
/// date) and compares each with it.
pub fn check() -> Result<()> {
    step("checking that the split build's kept steps rebuild it byte for byte");
    let built = digests(&split::dist_dir())?;
    let scratch = split::split_dir().join("reuse-check");
    empty_folder(&scratch)?;
    let wasm = split::compile()?;
    same_inputs(&built, &wasm, &scratch)?;
    one_style_sheet_changed(&built, &wasm, &scratch)?;
    one_page_reworded(&built, &wasm, &scratch)?;
    std::fs::remove_dir_all(&scratch)?;
    Ok(())
}

/// Built again from the same inputs: the same files, and no step run.
fn same_inputs(built: &Digests, wasm: &Path, scratch: &Path) -> Result<()> {
    let again = scratch.join("again");
    let counts = split::rebuild_into(&again, wasm, &Page::of_repository()?)?;
    let differing = differences(built, &digests(&again)?);
    if !differing.is_empty() {
        bail!("built again from the kept steps, these files differ: {differing:?}");
    }
    if counts.made > 0 {
        bail!("nothing changed, yet {} steps ran again", counts.made);
    }
    println!(
        "    the same inputs: the same {} files, all {} steps reused",
        built.len(),
        counts.reused
    );
    Ok(())
}

/// One style sheet changed: that sheet (its old and new names, each with two compressed
/// variants) and the page that links it differ, nothing else.
fn one_style_sheet_changed(built: &Digests, wasm: &Path, scratch: &Path) -> Result<()> {
    let restyled = scratch.join("restyled");
    let sheet = scratch.join(CHANGED_SHEET);
    std::fs::create_dir_all(sheet.parent().expect("a style sheet has a folder"))?;
    let mut css = std::fs::read_to_string(root().join(CHANGED_SHEET))?;
    css.push_str("\n.reuse-check { outline: 1px solid currentColor; }\n");
    std::fs::write(&sheet, css)?;
    let page = Page::with_replaced(&BTreeMap::from([(CHANGED_SHEET, sheet)]))?;
    let counts = split::rebuild_into(&restyled, wasm, &page)?;
    let differing = differences(built, &digests(&restyled)?);
    let expected =
        |name: &str| name.starts_with("machines-") && name.contains(".css") || is_index_page(name);
    let sheets = differing.iter().filter(|n| n.ends_with(".css")).count();
    if differing.iter().any(|name| !expected(name)) || sheets != 2 || differing.len() != 9 {
        bail!("with {CHANGED_SHEET} changed, these files differ: {differing:?}");
    }
    println!(
        "    {CHANGED_SHEET} changed: exactly its file and the page differ, {} steps run \
         ({differing:?})",
        counts.made
    );
    Ok(())
}

/// One page's wording changed (at the same length, in cargo's output as a source change
/// would put it): that text lives in the page's own chunk, so that chunk and the page's
/// pack differ, and the files that name them: the split loader, the main module and its
/// script, which share the loader's hash (renamed, the main module's bytes unchanged), and
/// the page. Every other chunk and pack, found by its bytes, keeps its optimised file.
///
/// A real source change goes through cargo (minutes) and usually moves the data of
/// everything after it, which changes most chunks too; this is the change the tools let
/// the build keep, and the check that keeping it is right.
fn one_page_reworded(built: &Digests, wasm: &Path, scratch: &Path) -> Result<()> {
    let reworded_wasm = scratch.join("reworded.wasm");
    let bytes = std::fs::read(wasm).with_context(|| format!("reading {}", wasm.display()))?;
    let (reworded, found) = reworded(&bytes, REWORDED)?;
    std::fs::write(&reworded_wasm, reworded)?;
    let dist = scratch.join("reworded");
    let counts = split::rebuild_into(&dist, &reworded_wasm, &Page::of_repository()?)?;
    let again = digests(&dist)?;
    let differing = differences(built, &again);
    let pages_own = |name: &str| name.contains(&format!("__{REWORDED_PAGE}_route_view_"));
    let unexpected: Vec<&String> = differing
        .iter()
        .filter(|name| !pages_own(name) && !is_main_module_file(name) && !is_index_page(name))
        .collect();
    let main_module = |digests: &Digests| -> Option<String> {
        digests
            .iter()
            .find(|(name, _)| name.ends_with("_bg.wasm") && is_main_module_file(name))
            .map(|(_, digest)| digest.clone())
    };
    // Old and new names, each with two variants: the page's chunk and pack, three files
    // sharing the main module's hash, and the page (which keeps its name).
    if !unexpected.is_empty() || differing.len() != 2 * 3 * 5 + 3 {
        bail!("with {REWORDED:?} reworded, these files differ: {differing:?}");
    }
    if main_module(built) != main_module(&again) {
        bail!("with {REWORDED:?} reworded, the main module's bytes changed");
    }
    println!(
        "    {REWORDED:?} reworded ({found} in the wasm): the {REWORDED_PAGE} page's chunk \
         and pack, the names pointing at them and the page differ, nothing else; {} steps \
         run, {} reused",
        counts.made, counts.reused
    );
    Ok(())
}

type Digests = BTreeMap<String, String>;

/// `wasm` with every occurrence of `text` given another first letter's case, and how many
/// there were; an error when there is none, as the check would then test nothing.
fn reworded(wasm: &[u8], text: &str) -> Result<(Vec<u8>, usize)> {
    let from = text.as_bytes();
    let mut to = from.to_vec();
    let Some(first) = to.first_mut().filter(|b| b.is_ascii_alphabetic()) else {
        bail!("{text:?} does not start with a letter whose case can change");
    };
    *first ^= 0x20;
    let mut out = wasm.to_vec();
    let mut found = 0;
    let mut at = 0;
    while let Some(offset) = out[at..].windows(from.len()).position(|w| w == from) {
        let start = at + offset;
        out[start..start + from.len()].copy_from_slice(&to);
        found += 1;
        at = start + from.len();
    }
    if found == 0 {
        bail!("{text:?} is not in the console's wasm");
    }
    Ok((out, found))
}

/// A published name with its compressed variant's ending taken off.
fn uncompressed(name: &str) -> &str {
    name.strip_suffix(".br")
        .or_else(|| name.strip_suffix(".gz"))
        .unwrap_or(name)
}

fn is_index_page(name: &str) -> bool {
    uncompressed(name) == "index.html"
}

/// The main module, its script and the split loader, which share one hash
/// (`gpudeck-<hash>_bg.wasm`, `gpudeck-<hash>.js`, `gpudeck-split-<hash>.js`).
fn is_main_module_file(name: &str) -> bool {
    let name = uncompressed(name);
    let rest = name
        .strip_prefix("gpudeck-split-")
        .unwrap_or(name.strip_prefix("gpudeck-").unwrap_or_default());
    let Some(hash) = rest
        .strip_suffix("_bg.wasm")
        .or_else(|| rest.strip_suffix(".js"))
    else {
        return false;
    };
    hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The names present in only one of `a` and `b`, or in both with other contents.
fn differences(a: &Digests, b: &Digests) -> BTreeSet<String> {
    a.keys()
        .chain(b.keys())
        .filter(|name| a.get(*name) != b.get(*name))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_changed_added_and_removed_files() {
        let files = |list: &[(&str, &str)]| -> BTreeMap<String, String> {
            list.iter()
                .map(|(name, digest)| (name.to_string(), digest.to_string()))
                .collect()
        };
        let a = files(&[("same", "1"), ("changed", "2"), ("removed", "3")]);
        let b = files(&[("same", "1"), ("changed", "9"), ("added", "4")]);
        assert_eq!(
            differences(&a, &b),
            BTreeSet::from(["added", "changed", "removed"].map(String::from))
        );
        assert!(differences(&a, &a).is_empty());
    }

    #[test]
    fn a_rewording_changes_every_occurrence_and_nothing_else() {
        let (out, found) = reworded(b"xxPlan a\0Plan ayPlan", "Plan a").unwrap();
        assert_eq!(out, b"xxplan a\0plan ayPlan");
        assert_eq!(found, 2);
        assert!(reworded(b"nothing here", "Plan a").is_err());
        assert!(reworded(b"1 plan", "1 plan").is_err());
    }

    #[test]
    fn the_main_module_files_are_told_from_chunks_packs_and_the_page() {
        for name in [
            "gpudeck-0123456789abcdef_bg.wasm",
            "gpudeck-0123456789abcdef_bg.wasm.br",
            "gpudeck-0123456789abcdef.js.gz",
            "gpudeck-split-0123456789abcdef.js",
        ] {
            assert!(is_main_module_file(name), "{name}");
        }
        for name in [
            "gpudeck-chunk_100-b556219a556c03c7.wasm",
            "gpudeck-split___templates_route_view_1-4aedeb8954050da8.wasm",
            "gpudeck-pack__templates_route_view_1-b15d7315e0956d36.bin",
            "index.html.br",
            "boot.js",
        ] {
            assert!(!is_main_module_file(name), "{name}");
        }
        assert!(is_index_page("index.html.gz"));
    }
}
