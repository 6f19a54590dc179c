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
