//! Room on the disk before a long build: a full disk otherwise shows up twenty minutes in,
//! as a compiler's "No space left on device" halfway through some crate.

use crate::shell::{output_of, root};
use anyhow::{bail, Result};

/// What `target/` holds after each command on a clean clone, rounded up (2026-11-28 on a
/// fresh machine: 2.2 GB after `run`, 8.1 GB after `run` and `test`).
pub const RUN_NEEDS_GIB: u64 = 3;
pub const TEST_NEEDS_GIB: u64 = 10;

/// Fails, saying how much to free, when the disk holding `target/` has less room than
/// `needs_gib` minus what `target/` already holds (a build reuses it). Says nothing when
/// `df` or `du` cannot tell.
pub fn ensure_room(needs_gib: u64, command: &str) -> Result<()> {
    let target = root().join("target");
    let Some(free_kib) = output_of("df", &["-Pk", &root().to_string_lossy()])
        .as_deref()
        .and_then(available_kib)
    else {
        return Ok(());
    };
    if shortfall_kib(needs_gib, free_kib, 0).is_none() {
        return Ok(());
    }
    // Short of room: what target/ already holds counts (a build reuses it). Only then is
    // it measured, as `du` on a warm target/ reads every one of its files.
    let held_kib = if target.exists() {
        output_of("du", &["-sk", &target.to_string_lossy()])
            .as_deref()
            .and_then(|line| line.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    } else {
        0
    };
    if let Some(short_kib) = shortfall_kib(needs_gib, free_kib, held_kib) {
        bail!(
            "`cargo xtask {command}` needs about {needs_gib} GiB on the disk holding {} \
             ({:.1} GiB free, {:.1} GiB already in target/): free {:.1} GiB more and run it again",
            target.display(),
            gib(free_kib),
            gib(held_kib),
            gib(short_kib),
        );
    }
    Ok(())
}

fn gib(kib: u64) -> f64 {
    kib as f64 / (1024.0 * 1024.0)
}

/// How many KiB are missing, if any: `needs_gib` against what is free and what `target/`
/// already holds.
fn shortfall_kib(needs_gib: u64, free_kib: u64, held_kib: u64) -> Option<u64> {
    let needs_kib = needs_gib * 1024 * 1024;
    let has_kib = free_kib + held_kib;
    (has_kib < needs_kib).then(|| needs_kib - has_kib)
}

/// The available KiB in `df -Pk`'s output: the fourth field of its second line.
fn available_kib(df: &str) -> Option<u64> {
    df.lines().nth(1)?.split_whitespace().nth(3)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_room_df_reports() {
        let df = "Filesystem     1024-blocks     Used Available Capacity Mounted on\n\
                  /dev/vda         263174212 87896024   7549680      93% /\n";
        assert_eq!(available_kib(df), Some(7_549_680));
        assert_eq!(available_kib("Filesystem\n"), None);
        assert_eq!(available_kib(""), None);
    }

    #[test]
    fn a_warm_target_needs_less_room() {
        let gib = 1024 * 1024;
        // 7 GiB free and an empty target: 3 GiB short of 10.
        assert_eq!(shortfall_kib(10, 7 * gib, 0), Some(3 * gib));
        // The same disk with 8 GiB already built: enough.
        assert_eq!(shortfall_kib(10, 7 * gib, 8 * gib), None);
        assert_eq!(shortfall_kib(10, 10 * gib, 0), None);
    }
}
