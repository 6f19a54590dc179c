//! Every headline figure of a run, printed beside the one before it and against its
//! target. A run's figures are kept in `target/bench/figures.json`; a machine that has
//! none yet compares with `baseline.json` beside this crate, so a first run still has
//! something to be compared with.

use crate::report::{kb, ms, Table};
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// How a figure is written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Unit {
    Milliseconds,
    /// Bytes, written in KB.
    Bytes,
    /// A plain number: a count or a ratio.
    Number,
}

/// A goal set by an issue; printed as met or missed, never enforced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    AtMost(f64),
    AtLeast(f64),
}

impl Target {
    pub fn is_met(self, value: f64) -> bool {
        match self {
            Target::AtMost(limit) => value <= limit,
            Target::AtLeast(floor) => value >= floor,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// Also the key it is kept under between runs.
    pub name: String,
    pub value: f64,
    pub unit: Unit,
    pub target: Option<Target>,
}

/// The figures of this run, in the order they were measured.
#[derive(Debug, Default)]
pub struct Figures(Vec<Figure>);

impl Figures {
    pub fn add(&mut self, name: impl Into<String>, value: f64, unit: Unit, target: Option<Target>) {
        self.0.push(Figure {
            name: name.into(),
            value,
            unit,
            target,
        });
    }

    /// Adds `other`'s figures after these, in their order.
    pub fn append(&mut self, other: Figures) {
        self.0.extend(other.0);
    }

    /// The summary: each figure, the previous one, the change and the verdict.
    pub fn table(&self, previous: &BTreeMap<String, f64>) -> Table {
        let mut table = Table::new(&["figure", "now", "previous", "change", "target"]);
        for figure in &self.0 {
            let before = previous.get(&figure.name).copied();
            table.row(vec![
                figure.name.clone(),
                write(figure.value, figure.unit),
                before.map_or("–".into(), |b| write(b, figure.unit)),
                before.map_or(String::new(), |b| change(b, figure.value)),
                figure.target.map_or(String::new(), |t| verdict(t, figure)),
            ]);
        }
        table
    }

    /// The figures to keep: `previous` with this run's figures written over it, so a run
    /// of one part keeps the others' last figures.
    pub fn merged_into(&self, mut previous: BTreeMap<String, f64>) -> BTreeMap<String, f64> {
        for figure in &self.0 {
            if figure.value.is_finite() {
                previous.insert(figure.name.clone(), figure.value);
            }
        }
        previous
    }
}

/// The last run's figures from `kept`, or else the committed `baseline`.
pub fn previous(kept: &Path, baseline: &Path) -> Result<BTreeMap<String, f64>> {
    let path = if kept.exists() { kept } else { baseline };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))
}

pub fn keep(figures: &BTreeMap<String, f64>, kept: &Path) -> Result<()> {
    std::fs::write(kept, serde_json::to_string_pretty(figures)? + "\n")
        .with_context(|| format!("writing {}", kept.display()))
}

fn write(value: f64, unit: Unit) -> String {
    if value.is_nan() {
        return "not measured".to_owned();
    }
    match unit {
        Unit::Milliseconds => ms(value),
        Unit::Bytes => kb(value as usize),
        Unit::Number if value.fract() == 0.0 => format!("{value:.0}"),
        Unit::Number => format!("{value:.2}"),
    }
}

fn change(before: f64, now: f64) -> String {
    if before == 0.0 || now.is_nan() {
        return String::new();
    }
    format!("{:+.1} %", (now - before) / before * 100.0)
}

fn verdict(target: Target, figure: &Figure) -> String {
    let (sign, limit) = match target {
        Target::AtMost(limit) => ("≤", limit),
        Target::AtLeast(floor) => ("≥", floor),
    };
    let verdict = if figure.value.is_nan() {
        "not measured"
    } else if target.is_met(figure.value) {
        "met"
    } else {
        "**missed**"
    };
    format!("{sign} {}: {verdict}", write(limit, figure.unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> Figures {
        let mut figures = Figures::default();
        figures.add(
            "first visit",
            120.0 * 1024.0,
            Unit::Bytes,
            Some(Target::AtMost(150.0 * 1024.0)),
        );
        figures.add(
            "keystroke",
            20.0,
            Unit::Milliseconds,
            Some(Target::AtMost(16.0)),
        );
        figures.add("ratio", 18.6, Unit::Number, Some(Target::AtLeast(10.0)));
        figures.add("rows in the DOM", 21.0, Unit::Number, None);
        figures.add(
            "keystroke without windowing",
            f64::NAN,
            Unit::Milliseconds,
            Some(Target::AtMost(100.0)),
        );
        figures
    }

    #[test]
    fn each_figure_is_printed_beside_the_previous_one_with_its_verdict() {
        let previous = BTreeMap::from([
            ("first visit".to_owned(), 240.0 * 1024.0),
            ("keystroke".to_owned(), 25.0),
        ]);
        let markdown = run().table(&previous).markdown();
        let lines: Vec<&str> = markdown.lines().collect();
        assert_eq!(
            lines[2],
            "| first visit | 120.0 KB | 240.0 KB | -50.0 % | ≤ 150.0 KB: met |"
        );
        assert_eq!(
            lines[3],
            "| keystroke | 20.0 ms | 25.0 ms | -20.0 % | ≤ 16.0 ms: **missed** |"
        );
        assert_eq!(lines[4], "| ratio | 18.60 | – |  | ≥ 10: met |");
        assert_eq!(lines[5], "| rows in the DOM | 21 | – |  |  |");
        assert_eq!(
            lines[6],
            "| keystroke without windowing | not measured | – |  | ≤ 100.0 ms: not measured |"
        );
    }

    #[test]
    fn a_partial_run_keeps_the_other_figures_and_skips_failed_measures() {
        let previous = BTreeMap::from([
            ("server ratio".to_owned(), 0.48),
            ("keystroke".to_owned(), 25.0),
        ]);
        let mut figures = run();
        figures.add("not measured", f64::NAN, Unit::Milliseconds, None);
        let kept = figures.merged_into(previous);
        assert_eq!(kept["server ratio"], 0.48);
        assert_eq!(kept["keystroke"], 20.0);
        assert!(!kept.contains_key("not measured"));
    }

    #[test]
    fn the_committed_baseline_is_read_when_no_run_was_kept() {
        let baseline = Path::new(env!("CARGO_MANIFEST_DIR")).join("baseline.json");
        let figures = previous(Path::new("/nonexistent/figures.json"), &baseline).unwrap();
        assert_eq!(
            figures["first visit, split by route (gzip)"],
            (224.8f64 * 1024.0).round()
        );
    }
}
