//! The check that reusing the split build's kept steps is safe: built again from what was
//! kept, the console is the same byte for byte; built with one style sheet changed, exactly
//! the files that style sheet reaches change.

use crate::reuse::digests;
use crate::shell::{empty_folder, root, step};
use crate::split::{self, Page};
use anyhow::{bail, Result};
use std::collections::{BTreeMap, BTreeSet};

/// The style sheet the check changes, as `index.html` links it.
const CHANGED: &str = "style/machines.css";

/// Builds the console twice more beside the current build (which must be up to date) and
/// compares each with it.
pub fn check() -> Result<()> {
    step("checking that the split build's kept steps rebuild it byte for byte");
    let built = digests(&split::dist_dir())?;
    let scratch = split::split_dir().join("reuse-check");
    empty_folder(&scratch)?;

    let again = scratch.join("again");
    let counts = split::rebuild_into(&again, &Page::of_repository()?)?;
    let differing = differences(&built, &digests(&again)?);
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

    let restyled = scratch.join("restyled");
    let sheet = scratch.join(CHANGED);
    std::fs::create_dir_all(sheet.parent().expect("a style sheet has a folder"))?;
    let mut css = std::fs::read_to_string(root().join(CHANGED))?;
    css.push_str("\n.reuse-check { outline: 1px solid currentColor; }\n");
    std::fs::write(&sheet, css)?;
    let page = Page::with_replaced(&BTreeMap::from([(CHANGED, sheet)]), scratch.join("page"))?;
    split::rebuild_into(&restyled, &page)?;
    let differing = differences(&built, &digests(&restyled)?);
    let expected = |name: &str| {
        name.starts_with("machines-") && name.contains(".css") || name.starts_with("index.html")
    };
    let unexpected: Vec<&String> = differing.iter().filter(|name| !expected(name)).collect();
    let sheets = differing.iter().filter(|n| n.ends_with(".css")).count();
    // The old sheet gone and the new one there, each with its two variants, and the page
    // that links it.
    if !unexpected.is_empty() || sheets != 2 || differing.len() != 9 {
        bail!("with {CHANGED} changed, these files differ: {differing:?}");
    }
    println!("    {CHANGED} changed: exactly its file and the page changed ({differing:?})");
    std::fs::remove_dir_all(&scratch)?;
    Ok(())
}

/// The names present in only one of `a` and `b`, or in both with other contents.
fn differences(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) -> BTreeSet<String> {
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
}
