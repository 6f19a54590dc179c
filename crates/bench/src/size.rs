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
        if !path.is_file() {
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

/// Issue 16's targets, gzip: the first visit (sign-in), any page's first load, and all
/// of the split build's files together.
const FIRST_VISIT_TARGET: usize = 150 * 1024;
const PAGE_TARGET: usize = 250 * 1024;
const ALL_TARGET: usize = 500 * 1024;

/// The build split by route (`target/split/dist`): what each page's first load fetches,
/// from `chunks.txt` (written by `cargo xtask split`), beside the targets.
pub fn split_table(dist: &Path, chunk_list: &Path) -> Result<Table> {
    let files = measure(dist)?;
    let list = std::fs::read_to_string(chunk_list)
        .with_context(|| format!("reading {}", chunk_list.display()))?;
    let mut pages: Vec<(String, Vec<&str>)> = list
        .lines()
        .filter_map(|line| line.split_once(' '))
        .filter(|(split, _)| *split != "main")
        .map(|(split, chunks)| (page_name(split), chunks.split(' ').collect()))
        .collect();
    pages.sort_by_key(|(page, _)| (page != "sign_in", page.clone()));
    let every_chunk: Vec<&str> = pages.iter().flat_map(|(_, c)| c.clone()).collect();
    // Everything but the chunks: the page, styles, icon, boot.js, main module and loader.
    let common: Vec<&FileSize> = files
        .iter()
        .filter(|f| !every_chunk.contains(&f.name.as_str()))
        .collect();
    let mut table = Table::new(&["load", "files", "raw", "gzip", "brotli", "target (gzip)"]);
    let mut row = |label: String, picked: Vec<&FileSize>, target: usize| {
        let sum = |pick: fn(&FileSize) -> usize| picked.iter().map(|f| pick(f)).sum::<usize>();
        let gzip = sum(|f| f.gzip);
        let verdict = if gzip <= target { "met" } else { "**missed**" };
        table.row(vec![
            label,
            picked.len().to_string(),
            kb(sum(|f| f.raw)),
            kb(gzip),
            kb(sum(|f| f.brotli)),
            format!("≤ {}: {verdict}", kb(target)),
        ]);
    };
    for (page, chunks) in &pages {
        let mut picked = common.clone();
        picked.extend(files.iter().filter(|f| chunks.contains(&f.name.as_str())));
        let (label, target) = if page == "sign_in" {
            ("first visit (sign_in)".to_owned(), FIRST_VISIT_TARGET)
        } else {
            (format!("first load of {page}"), PAGE_TARGET)
        };
        row(label, picked, target);
    }
    row(
        "**all files together**".to_owned(),
        files.iter().collect(),
        ALL_TARGET,
    );
    Ok(table)
}

/// `__templates_route_view_<hash>` (the split wasm-split names after `page!`'s route
/// type) → `templates`.
fn page_name(split: &str) -> String {
    let name = split.trim_start_matches('_');
    let name = name.rsplit_once('_').map_or(name, |(head, _hash)| head);
    name.trim_end_matches("_route_view").to_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_split_is_named_after_its_route() {
        assert_eq!(
            super::page_name("__team_members_route_view_9880383388994685198"),
            "team_members"
        );
        assert_eq!(super::page_name("__sign_in_route_view_1"), "sign_in");
    }
}
