//! What the split build keeps between runs, so that a second build does only what changed.
//!
//! Two levels:
//! - [`Reuse`]: the output of each step after cargo (wasm-opt on one module, one page's
//!   merged pack, trunk's page assets, a minified script, a file's compressed variants),
//!   kept under `target/split/reuse/<step>/<key>`, where the key is a SHA-256 over
//!   everything the step reads. A step whose key is kept is not run again; an unchanged
//!   chunk, recognised by its bytes, keeps its optimised file even when its neighbours
//!   changed.
//! - [`Stamp`]: the key over every input of the whole build, and a list of the files it
//!   wrote. When neither the inputs nor the dist folder changed, nothing runs at all.

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A key over a step's inputs. Each part is written with its length, so that two lists
/// of parts that join to the same bytes still get different keys.
pub struct Key(Sha256);

impl Key {
    /// A key for the step `step`: the same inputs given to two steps get two keys.
    pub fn new(step: &str) -> Self {
        Key(Sha256::new()).text(step)
    }

    pub fn bytes(mut self, part: &[u8]) -> Self {
        self.0.update((part.len() as u64).to_le_bytes());
        self.0.update(part);
        self
    }

    pub fn text(self, part: &str) -> Self {
        self.bytes(part.as_bytes())
    }

    /// A file's name and contents; a missing file is an error, never an empty input.
    pub fn file(self, path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        Ok(self.text(&path.to_string_lossy()).bytes(&bytes))
    }

    /// 64 hex digits.
    pub fn finish(self) -> String {
        hex(&self.0.finalize())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The kept outputs of the build's steps, by step and key.
pub struct Reuse {
    dir: PathBuf,
    /// What every key starts from: how the steps run (see `split::recipe`).
    recipe: String,
    /// The entries this build read or wrote; [`Reuse::forget_unused`] deletes the others.
    used: Mutex<HashSet<PathBuf>>,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Counts {
    pub reused: usize,
    pub made: usize,
}

impl Reuse {
    pub fn at(dir: PathBuf, recipe: String) -> Self {
        Reuse {
            dir,
            recipe,
            used: Mutex::default(),
            counts: Mutex::default(),
        }
    }

    /// A key for `step`, over the recipe and then the step's own inputs.
    pub fn key(&self, step: &str) -> Key {
        Key::new(step).text(&self.recipe)
    }

    /// `change` run on `file` in place, or, when an earlier build ran it on the same bytes,
    /// what it made of them then.
    pub fn file_in_place(
        &self,
        step: &str,
        file: &Path,
        change: impl FnOnce(&Path) -> Result<()>,
    ) -> Result<()> {
        let input = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let output = self.bytes(step, self.key(step).bytes(&input).finish(), || {
            change(file)?;
            Ok(std::fs::read(file)?)
        })?;
        write_atomically(file, &output)
    }

    /// The bytes `make` returns for `key`, made only when no earlier build kept them.
    pub fn bytes(
        &self,
        step: &str,
        key: String,
        make: impl FnOnce() -> Result<Vec<u8>>,
    ) -> Result<Vec<u8>> {
        let entry = self.entry(step, &key);
        if let Ok(bytes) = std::fs::read(&entry) {
            self.count(true);
            return Ok(bytes);
        }
        let bytes = make()?;
        write_atomically(&entry, &bytes)?;
        self.count(false);
        Ok(bytes)
    }

    /// A folder that `make` fills for `key` (it gets an empty folder to write into), made
    /// only when no earlier build kept it. Returns where the folder is kept.
    pub fn folder(
        &self,
        step: &str,
        key: String,
        make: impl FnOnce(&Path) -> Result<()>,
    ) -> Result<PathBuf> {
        let entry = self.entry(step, &key);
        if entry.is_dir() {
            self.count(true);
            return Ok(entry);
        }
        let partial = entry.with_extension("partial");
        if partial.exists() {
            std::fs::remove_dir_all(&partial)?;
        }
        std::fs::create_dir_all(&partial)?;
        make(&partial)?;
        // A folder appears whole or not at all: an interrupted build leaves only `.partial`.
        std::fs::rename(&partial, &entry)?;
        self.count(false);
        Ok(entry)
    }

    /// How many steps this build reused and how many it ran.
    pub fn counts(&self) -> Counts {
        *self.counts.lock().expect("counts")
    }

    /// Deletes every kept entry this build did not use, so the folder holds one build's
    /// worth of outputs rather than every build's since the clone.
    pub fn forget_unused(&self) -> Result<()> {
        let used = self.used.lock().expect("used entries");
        let Ok(steps) = std::fs::read_dir(&self.dir) else {
            return Ok(());
        };
        for step in steps {
            let step = step?.path();
            for entry in std::fs::read_dir(&step)? {
                let entry = entry?.path();
                if used.contains(&entry) {
                    continue;
                }
                if entry.is_dir() {
                    std::fs::remove_dir_all(&entry)?;
                } else {
                    std::fs::remove_file(&entry)?;
                }
            }
        }
        Ok(())
    }

    fn entry(&self, step: &str, key: &str) -> PathBuf {
        let entry = self.dir.join(step).join(key);
        self.used
            .lock()
            .expect("used entries")
            .insert(entry.clone());
        entry
    }

    fn count(&self, reused: bool) {
        let mut counts = self.counts.lock().expect("counts");
        if reused {
            counts.reused += 1;
        } else {
            counts.made += 1;
        }
    }
}

/// Writes `bytes` to `path` through a temporary file, so an interrupted build never
/// leaves half a file where a whole one is expected.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().context("a kept file has a folder")?;
    std::fs::create_dir_all(dir)?;
    let temporary = path.with_extension(format!("partial-{}", std::process::id()));
    std::fs::write(&temporary, bytes).with_context(|| format!("writing {}", path.display()))?;
    std::fs::rename(&temporary, path)?;
    Ok(())
}

/// The whole build's key and the files it wrote, kept beside the dist folder.
pub struct Stamp {
    path: PathBuf,
}

impl Stamp {
    pub fn at(path: PathBuf) -> Self {
        Stamp { path }
    }

    /// Whether `dist` is what the build with `key` wrote, file for file.
    pub fn matches(&self, key: &str, dist: &Path) -> Result<bool> {
        let Ok(kept) = std::fs::read_to_string(&self.path) else {
            return Ok(false);
        };
        let mut lines = kept.lines();
        if lines.next() != Some(key) || !dist.is_dir() {
            return Ok(false);
        }
        let listed: BTreeMap<String, String> = lines
            .filter_map(|line| line.split_once(' '))
            .map(|(digest, name)| (name.to_owned(), digest.to_owned()))
            .collect();
        Ok(listed == digests(dist)?)
    }

    /// Records that `dist` is what the build with `key` wrote.
    pub fn record(&self, key: &str, dist: &Path) -> Result<()> {
        let mut text = format!("{key}\n");
        for (name, digest) in digests(dist)? {
            text.push_str(&format!("{digest} {name}\n"));
        }
        write_atomically(&self.path, text.as_bytes())
    }

    /// Forgets the build, before its dist folder starts to change.
    pub fn clear(&self) -> Result<()> {
        match std::fs::remove_file(&self.path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error.into()),
            _ => Ok(()),
        }
    }
}

/// Each file of the flat folder `dir` by name, with the SHA-256 of its contents.
pub fn digests(dir: &Path) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_file() {
            let name = path.file_name().expect("a file has a name");
            out.insert(
                name.to_string_lossy().into_owned(),
                hex(&Sha256::digest(std::fs::read(&path)?)),
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gpudeck-reuse-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn keys_differ_by_step_part_and_where_parts_split() {
        let key = |step: &str, parts: &[&str]| {
            parts
                .iter()
                .fold(Key::new(step), |key, part| key.text(part))
                .finish()
        };
        assert_eq!(key("optimise", &["a"]), key("optimise", &["a"]));
        assert_ne!(key("optimise", &["a"]), key("compress", &["a"]));
        assert_ne!(key("optimise", &["a"]), key("optimise", &["b"]));
        assert_ne!(key("optimise", &["ab", "c"]), key("optimise", &["a", "bc"]));
        assert_eq!(key("optimise", &[]).len(), 64);
    }

    #[test]
    fn a_kept_output_is_returned_without_making_it_again() {
        let dir = scratch("bytes");
        let made = Cell::new(0);
        let make = || {
            made.set(made.get() + 1);
            Ok(b"optimised".to_vec())
        };
        let first = Reuse::at(dir.clone(), String::new());
        assert_eq!(
            first.bytes("optimise", "k1".into(), make).unwrap(),
            b"optimised"
        );
        let second = Reuse::at(dir.clone(), String::new());
        assert_eq!(
            second.bytes("optimise", "k1".into(), make).unwrap(),
            b"optimised"
        );
        assert_eq!(made.get(), 1);
        assert_eq!(second.counts(), Counts { reused: 1, made: 0 });
        // Another key is made afresh.
        second.bytes("optimise", "k2".into(), make).unwrap();
        assert_eq!(made.get(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_step_keeps_nothing() {
        let dir = scratch("failed");
        let reuse = Reuse::at(dir.clone(), String::new());
        let failed = reuse.bytes("optimise", "k".into(), || anyhow::bail!("wasm-opt failed"));
        assert!(failed.is_err());
        let folder = reuse.folder("assets", "k".into(), |_| anyhow::bail!("trunk failed"));
        assert!(folder.is_err());
        assert!(!dir.join("optimise/k").exists());
        assert!(!dir.join("assets/k").exists());
        // The next build makes them.
        let kept = reuse
            .folder("assets", "k".into(), |into| {
                Ok(std::fs::write(into.join("page.html"), "<p>")?)
            })
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(kept.join("page.html")).unwrap(),
            "<p>"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn entries_a_build_did_not_use_are_forgotten() {
        let dir = scratch("forget");
        let old = Reuse::at(dir.clone(), String::new());
        old.bytes("optimise", "old".into(), || Ok(vec![1])).unwrap();
        old.bytes("optimise", "both".into(), || Ok(vec![2]))
            .unwrap();
        let new = Reuse::at(dir.clone(), String::new());
        new.bytes("optimise", "both".into(), || Ok(vec![3]))
            .unwrap();
        new.forget_unused().unwrap();
        assert!(!dir.join("optimise/old").exists());
        assert_eq!(std::fs::read(dir.join("optimise/both")).unwrap(), [2]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stamp_matches_only_the_same_key_and_the_same_files() {
        let dir = scratch("stamp");
        let dist = dir.join("dist");
        std::fs::create_dir_all(&dist).unwrap();
        std::fs::write(dist.join("app.js"), "one").unwrap();
        let stamp = Stamp::at(dir.join("dist.stamp"));
        assert!(!stamp.matches("key", &dist).unwrap());
        stamp.record("key", &dist).unwrap();
        assert!(stamp.matches("key", &dist).unwrap());
        assert!(!stamp.matches("other key", &dist).unwrap());
        std::fs::write(dist.join("app.js"), "two").unwrap();
        assert!(!stamp.matches("key", &dist).unwrap());
        std::fs::write(dist.join("app.js"), "one").unwrap();
        std::fs::write(dist.join("extra.js"), "").unwrap();
        assert!(!stamp.matches("key", &dist).unwrap());
        std::fs::remove_file(dist.join("extra.js")).unwrap();
        assert!(stamp.matches("key", &dist).unwrap());
        stamp.clear().unwrap();
        assert!(!stamp.matches("key", &dist).unwrap());
        stamp.clear().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
