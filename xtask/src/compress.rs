//! Precompressed copies of the built console: beside every text or wasm file of a dist
//! folder, `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9). The server
//! sends them as they are (tower-http's precompressed serving), so the strongest settings
//! cost build time once instead of CPU on every request.

use crate::parallel::two_at_a_time;
use crate::reuse::Reuse;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The files worth compressing; images other than SVG and fonts are compressed already.
/// `bin`: the split build's page packs (see packs.rs), wasm modules end to end.
const COMPRESSIBLE: [&str; 8] = ["wasm", "js", "css", "html", "svg", "json", "txt", "bin"];
/// The variants, by the extension the server looks for.
const VARIANTS: [&str; 2] = ["br", "gz"];
/// Brotli's largest window (4 MiB): the main wasm module is bigger than the default.
const BROTLI_WINDOW_BITS: u32 = 22;

/// What [`precompress_dir`] wrote: how many files, and their sizes in bytes.
#[derive(Debug, Default, PartialEq)]
pub struct Summary {
    pub files: usize,
    pub raw: usize,
    pub brotli: usize,
    pub gzip: usize,
}

/// [`precompress_dir`], saying what it did.
pub fn precompress_console(dir: &Path, reuse: Option<&Reuse>) -> Result<()> {
    let summary = precompress_dir(dir, reuse)?;
    let kb = |bytes: usize| bytes as f64 / 1024.0;
    println!(
        "    precompressed {} files: {:.1} KB raw, {:.1} KB brotli, {:.1} KB gzip",
        summary.files,
        kb(summary.raw),
        kb(summary.brotli),
        kb(summary.gzip)
    );
    Ok(())
}

/// Writes the compressed variants of every compressible file in `dir` (not its
/// subfolders: the console's dist is flat), two files at a time, and deletes variants
/// whose file is gone. A variant no smaller than its file is not written: the server then
/// sends the file. With `reuse`, a file whose bytes an earlier build compressed gets the
/// variants made then.
pub fn precompress_dir(dir: &Path, reuse: Option<&Reuse>) -> Result<Summary> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if !path.is_file() {
            continue;
        }
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if VARIANTS.contains(&extension) {
            if !path.with_extension("").exists() {
                std::fs::remove_file(&path)?;
            }
        } else if COMPRESSIBLE.contains(&extension) {
            files.push(path);
        }
    }
    let sizes = two_at_a_time(&files, |path| precompress_file(path, reuse))?;
    let mut summary = Summary::default();
    for [raw, brotli, gzip] in sizes {
        summary.files += 1;
        summary.raw += raw;
        summary.brotli += brotli.min(raw);
        summary.gzip += gzip.min(raw);
    }
    Ok(summary)
}

/// Writes `path`'s variants; returns its size and theirs.
fn precompress_file(path: &PathBuf, reuse: Option<&Reuse>) -> Result<[usize; 3]> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let compress = |variant: &str, with: fn(&[u8]) -> Result<Vec<u8>>| match reuse {
        Some(reuse) => reuse.bytes(variant, reuse.key(variant).bytes(&bytes).finish(), || {
            with(&bytes)
        }),
        None => with(&bytes),
    };
    let brotli = compress("brotli", brotli_11)?;
    let gzip = compress("gzip", gzip_9)?;
    let sizes = [bytes.len(), brotli.len(), gzip.len()];
    for (variant, compressed) in VARIANTS.iter().zip([brotli, gzip]) {
        let out = variant_path(path, variant);
        if compressed.len() < bytes.len() {
            std::fs::write(&out, compressed)
                .with_context(|| format!("writing {}", out.display()))?;
        } else if out.exists() {
            std::fs::remove_file(&out)?;
        }
    }
    Ok(sizes)
}

/// `app.wasm` → `app.wasm.br`: the name tower-http's `ServeDir` asks for.
fn variant_path(file: &Path, variant: &str) -> std::path::PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".");
    name.push(variant);
    name.into()
}

fn brotli_11(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 64 * 1024, 11, BROTLI_WINDOW_BITS);
        writer.write_all(bytes)?;
        writer.flush()?;
    }
    Ok(out)
}

fn gzip_9(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("gpudeck-compress-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn variants_decompress_to_the_file_and_only_text_and_wasm_get_them() {
        let dir = scratch("variants");
        let script = "export function init() { return 42; }\n".repeat(200);
        std::fs::write(dir.join("app-0123456789abcdef.js"), &script).unwrap();
        std::fs::write(dir.join("picture.png"), vec![7u8; 4096]).unwrap();

        let summary = precompress_dir(&dir, None).unwrap();

        assert_eq!(summary.files, 1);
        assert_eq!(summary.raw, script.len());
        let mut from_brotli = String::new();
        brotli::Decompressor::new(
            &std::fs::read(dir.join("app-0123456789abcdef.js.br")).unwrap()[..],
            4096,
        )
        .read_to_string(&mut from_brotli)
        .unwrap();
        assert_eq!(from_brotli, script);
        let mut from_gzip = String::new();
        flate2::read::GzDecoder::new(
            &std::fs::read(dir.join("app-0123456789abcdef.js.gz")).unwrap()[..],
        )
        .read_to_string(&mut from_gzip)
        .unwrap();
        assert_eq!(from_gzip, script);
        assert!(!dir.join("picture.png.br").exists());
        assert!(!dir.join("picture.png.gz").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stale_variants_go_and_incompressible_files_get_none() {
        let dir = scratch("stale");
        std::fs::write(dir.join("old-0123456789abcdef.js.br"), b"stale").unwrap();
        std::fs::write(dir.join("old-0123456789abcdef.js.gz"), b"stale").unwrap();
        // Two bytes cannot shrink: gzip's header alone is longer.
        std::fs::write(dir.join("tiny.txt"), b"ok").unwrap();

        precompress_dir(&dir, None).unwrap();

        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["tiny.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
