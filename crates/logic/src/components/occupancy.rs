//! A machine's GPU occupancy string read slot by slot, and said in words.

/// One GPU slot's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    OnDemand,
    Reserved,
    Interruptible,
    Free,
    /// A code the console does not know, kept as sent.
    Unknown(String),
}

impl Slot {
    pub fn of(code: &str) -> Slot {
        match code {
            "D" => Slot::OnDemand,
            "R" => Slot::Reserved,
            "I" => Slot::Interruptible,
            "x" => Slot::Free,
            other => Slot::Unknown(other.to_owned()),
        }
    }

    /// The letter shown in the cell.
    pub fn code(&self) -> &str {
        match self {
            Slot::OnDemand => "D",
            Slot::Reserved => "R",
            Slot::Interruptible => "I",
            Slot::Free => "x",
            Slot::Unknown(code) => code,
        }
    }

    /// What the code means, as the legend says it.
    pub fn meaning(&self) -> String {
        match self {
            Slot::OnDemand => "on-demand".into(),
            Slot::Reserved => "reserved".into(),
            Slot::Interruptible => "interruptible".into(),
            Slot::Free => "free".into(),
            Slot::Unknown(code) => format!("code \u{201c}{code}\u{201d}"),
        }
    }

    pub fn class(&self) -> &'static str {
        match self {
            Slot::OnDemand => "occ occ-d",
            Slot::Reserved => "occ occ-r",
            Slot::Interruptible => "occ occ-i",
            Slot::Free => "occ occ-x",
            Slot::Unknown(_) => "occ occ-unknown",
        }
    }
}

/// The slots of a `gpu_occupancy` string, in slot order (`"D D x x"`).
pub fn slots(occupancy: &str) -> Vec<Slot> {
    occupancy.split_whitespace().map(Slot::of).collect()
}

/// The text alternative: `8 GPUs: 2 on-demand, 1 interruptible, 5 free`.
pub fn describe(occupancy: &str) -> String {
    let slots = slots(occupancy);
    if slots.is_empty() {
        return "No GPU occupancy reported".into();
    }
    let mut counts: Vec<(Slot, usize)> = Vec::new();
    for slot in &slots {
        match counts.iter_mut().find(|(s, _)| s == slot) {
            Some((_, n)) => *n += 1,
            None => counts.push((slot.clone(), 1)),
        }
    }
    // A fixed order for the known codes, then unknown ones as met.
    let rank = |s: &Slot| match s {
        Slot::OnDemand => 0,
        Slot::Reserved => 1,
        Slot::Interruptible => 2,
        Slot::Free => 3,
        Slot::Unknown(_) => 4,
    };
    counts.sort_by_key(|(s, _)| rank(s));
    let parts: Vec<String> = counts
        .iter()
        .map(|(slot, n)| format!("{n} {}", slot.meaning()))
        .collect();
    let gpus = if slots.len() == 1 { "GPU" } else { "GPUs" };
    format!("{} {gpus}: {}", slots.len(), parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_in_slot_order_and_unknown_ones_are_kept() {
        assert_eq!(
            slots("D D x  I R Z"),
            vec![
                Slot::OnDemand,
                Slot::OnDemand,
                Slot::Free,
                Slot::Interruptible,
                Slot::Reserved,
                Slot::Unknown("Z".into())
            ]
        );
        assert_eq!(Slot::Unknown("Z".into()).code(), "Z");
        assert!(slots("").is_empty());
    }

    #[test]
    fn the_text_alternative_counts_each_kind() {
        assert_eq!(
            describe("x D I x D x x x"),
            "8 GPUs: 2 on-demand, 1 interruptible, 5 free"
        );
        assert_eq!(describe("R"), "1 GPU: 1 reserved");
        assert_eq!(describe("x Q"), "2 GPUs: 1 free, 1 code \u{201c}Q\u{201d}");
        assert_eq!(describe(" "), "No GPU occupancy reported");
    }
}
