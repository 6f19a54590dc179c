//! First-load transfer: every file of `dist/`, raw, gzip and brotli.

use crate::report::{kb, Table};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

pub struct FileSize {
    pub name: String,
    pub raw: usize,
    pub gzip: usize,
    pub brotli: usize,
}

pub fn measure(dist: &Path) -> Result<Vec<FileSize>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dist).with_context(|| format!("reading {}", dist.display()))? {
        let path = entry?.path();
        // The build's precompressed copies are measured by compressing each file here.
        let is_copy = matches!(path.extension().and_then(|e| e.to_str()), Some("br" | "gz"));
        if !path.is_file() || is_copy {
            continue;
        }
        let bytes = std::fs::read(&path)?;
        files.push(FileSize {
            name: path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            raw: bytes.len(),
            gzip: gzip(&bytes)?,
            brotli: brotli(&bytes)?,
        });
    }
    files.sort_by_key(|f| std::cmp::Reverse(f.raw));
    Ok(files)
}

fn gzip(bytes: &[u8]) -> Result<usize> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?.len())
}

fn brotli(bytes: &[u8]) -> Result<usize> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params)?;
    Ok(out.len())
}

pub fn table(files: &[FileSize]) -> Table {
    let mut table = Table::new(&["file", "raw", "gzip", "brotli"]);
    for f in files {
        table.row(vec![f.name.clone(), kb(f.raw), kb(f.gzip), kb(f.brotli)]);
    }
    let total = |pick: fn(&FileSize) -> usize| files.iter().map(pick).sum::<usize>();
    table.row(vec![
        "**total, first visit**".into(),
        kb(total(|f| f.raw)),
        kb(total(|f| f.gzip)),
        kb(total(|f| f.brotli)),
    ]);
    table
}

/// Targets, gzip (issue 25): the first visit (sign-in), any page's first load, and all
/// of the split build's files together.
const FIRST_VISIT_TARGET: usize = 130 * 1024;
const PAGE_TARGET: usize = 250 * 1024;
const ALL_TARGET: usize = 800 * 1024;

/// What one load of the split build fetches, and its target.
pub struct Load {
    /// `sign_in` for the first visit, the page's name, or `None` for all files together.
    pub page: Option<String>,
    pub files: usize,
    pub raw: usize,
    pub gzip: usize,
    pub brotli: usize,
    pub target: usize,
}

impl Load {
    pub fn label(&self) -> String {
        match self.page.as_deref() {
            Some("sign_in") => "first visit (sign_in)".to_owned(),
            Some(page) => format!("first load of {page}"),
            None => "**all files together** (page packs aside)".to_owned(),
        }
    }
}

/// The build split by route (`target/split/dist`): what each page's first load fetches,
/// from `chunks.txt` (written by `cargo xtask split`), the first visit first and all the
/// files together last. A page opened first in its tab fetches its pack (`packs.txt`
/// beside `chunks.txt`, when there) instead of its chunks; the packs hold the same chunks
/// again, so "all files together" leaves them out.
pub fn split_loads(dist: &Path, chunk_list: &Path) -> Result<Vec<Load>> {
    let files = measure(dist)?;
    let list = std::fs::read_to_string(chunk_list)
        .with_context(|| format!("reading {}", chunk_list.display()))?;
    let pack_list = chunk_list.with_file_name("packs.txt");
    let pack_list = if pack_list.exists() {
        std::fs::read_to_string(&pack_list)
            .with_context(|| format!("reading {}", pack_list.display()))?
    } else {
        String::new()
    };
    let packs: std::collections::HashMap<String, &str> = pack_list
        .lines()
        .filter_map(|line| line.split_once(' '))
        .map(|(split, pack)| (page_name(split), pack))
        .collect();
    let splits: Vec<(&str, Vec<&str>)> = list
        .lines()
        .filter_map(|line| line.split_once(' '))
        .filter(|(split, _)| *split != "main")
        .map(|(split, chunks)| (split, chunks.split(' ').collect()))
        .collect();
    // Every split's chunks, pages' and lazy functions' (the Machines page's rehearsal,
    // loaded by sign-in), are left out of what every page loads.
    let every_chunk: Vec<&str> = splits.iter().flat_map(|(_, c)| c.clone()).collect();
    let mut pages: Vec<(String, Vec<&str>)> = splits
        .into_iter()
        .filter(|(split, _)| split.contains(ROUTE_SPLIT))
        .map(|(split, chunks)| (page_name(split), chunks))
        .collect();
    // Sign-in lives in the main module, so its first visit adds no chunk to the common
    // files; a build that makes it lazy again lists its chunks.
    if !pages.iter().any(|(page, _)| page == "sign_in") {
        pages.push(("sign_in".to_owned(), Vec::new()));
    }
    pages.sort_by_key(|(page, _)| (page != "sign_in", page.clone()));
    let is_pack = |f: &&FileSize| packs.values().any(|pack| *pack == f.name);
    // Everything but the chunks: the page, styles, icon, boot.js, main module and loader.
    let common: Vec<&FileSize> = files
        .iter()
        .filter(|f| !every_chunk.contains(&f.name.as_str()) && !is_pack(f))
        .collect();
    let load = |page: Option<String>, picked: Vec<&FileSize>, target: usize| {
        let sum = |pick: fn(&FileSize) -> usize| picked.iter().map(|f| pick(f)).sum::<usize>();
        Load {
            page,
            files: picked.len(),
            raw: sum(|f| f.raw),
            gzip: sum(|f| f.gzip),
            brotli: sum(|f| f.brotli),
            target,
        }
    };
    let mut loads = Vec::new();
    for (page, chunks) in pages {
        let mut picked = common.clone();
        match packs.get(&page) {
            Some(pack) => picked.extend(files.iter().filter(|f| f.name == *pack)),
            None => picked.extend(files.iter().filter(|f| chunks.contains(&f.name.as_str()))),
        }
        let target = if page == "sign_in" {
            FIRST_VISIT_TARGET
        } else {
            PAGE_TARGET
        };
        loads.push(load(Some(page), picked, target));
    }
    loads.push(load(
        None,
        files.iter().filter(|f| !is_pack(f)).collect(),
        ALL_TARGET,
    ));
    Ok(loads)
}

/// [`split_loads`] as a table, beside the targets.
pub fn split_table(loads: &[Load]) -> Table {
    let mut table = Table::new(&["load", "files", "raw", "gzip", "brotli", "target (gzip)"]);
    for load in loads {
        let verdict = if load.gzip <= load.target {
            "met"
        } else {
            "**missed**"
        };
        table.row(vec![
            load.label(),
            load.files.to_string(),
            kb(load.raw),
            kb(load.gzip),
            kb(load.brotli),
            format!("≤ {}: {verdict}", kb(load.target)),
        ]);
    }
    table
}

/// What the name of a page's split holds, after `page!`'s route type.
const ROUTE_SPLIT: &str = "_route_view_";

/// `__templates_route_view_<hash>` (the split wasm-split names after `page!`'s route
/// type) → `templates`.
fn page_name(split: &str) -> String {
    let name = split.trim_start_matches('_');
    name.split_once(ROUTE_SPLIT)
        .map_or(name, |(page, _hash)| page)
        .to_owned()
}

#[cfg(test)]
mod tests {
    /// Each load's page, file count and raw bytes.
    fn summary(loads: &[super::Load]) -> Vec<(Option<&str>, usize, usize)> {
        loads
            .iter()
            .map(|load| (load.page.as_deref(), load.files, load.raw))
            .collect()
    }

    #[test]
    fn a_split_is_named_after_its_route() {
        assert_eq!(
            super::page_name("__team_members_route_view_9880383388994685198"),
            "team_members"
        );
        assert_eq!(super::page_name("__sign_in_route_view_1"), "sign_in");
    }

    #[test]
    fn the_first_visit_is_the_common_files_when_sign_in_is_not_split() {
        let dist = std::env::temp_dir().join(format!("gpudeck-size-{}", std::process::id()));
        std::fs::create_dir_all(&dist).unwrap();
        for (name, len) in [("main.wasm", 300), ("page.wasm", 200), ("index.html", 100)] {
            std::fs::write(dist.join(name), vec![b'x'; len]).unwrap();
        }
        let list = dist.join("chunks.txt");
        std::fs::write(&list, "main main.wasm\n__volumes_route_view_1 page.wasm\n").unwrap();
        // chunks.txt is beside the served files here, so it counts as a common file too.
        let list_len = std::fs::metadata(&list).unwrap().len() as usize;

        let loads = super::split_loads(&dist, &list).unwrap();
        std::fs::remove_dir_all(&dist).unwrap();

        assert_eq!(
            summary(&loads),
            [
                (Some("sign_in"), 3, 400 + list_len),
                (Some("volumes"), 4, 600 + list_len),
                (None, 4, 600 + list_len),
            ]
        );
        assert_eq!(loads[0].target, super::FIRST_VISIT_TARGET);
        assert_eq!(loads[1].target, super::PAGE_TARGET);
    }

    #[test]
    fn a_page_with_a_pack_loads_its_pack_and_all_files_leave_packs_out() {
        // `rehearse_7` is a lazy function's split, not a page: its chunk is in no page's
        // load and not among the common files, only in all files together.
        let root = std::env::temp_dir().join(format!("gpudeck-packs-{}", std::process::id()));
        let dist = root.join("dist");
        std::fs::create_dir_all(&dist).unwrap();
        for (name, len) in [
            ("main.wasm", 300),
            ("a.wasm", 200),
            ("b.wasm", 50),
            ("r.wasm", 30),
            ("pack.bin", 240),
            ("index.html", 100),
        ] {
            std::fs::write(dist.join(name), vec![b'x'; len]).unwrap();
        }
        let list = root.join("chunks.txt");
        std::fs::write(
            &list,
            "main main.wasm\n__volumes_route_view_1 a.wasm b.wasm\n__defrag_route_view_1 b.wasm\nrehearse_7 b.wasm r.wasm\n",
        )
        .unwrap();
        std::fs::write(root.join("packs.txt"), "__volumes_route_view_1 pack.bin\n").unwrap();

        let loads = super::split_loads(&dist, &list).unwrap();
        std::fs::remove_dir_all(&root).unwrap();

        assert_eq!(
            summary(&loads),
            [
                (Some("sign_in"), 2, 400),
                (Some("defrag"), 3, 450),
                (Some("volumes"), 3, 640),
                (None, 5, 680),
            ]
        );
    }
}
