//! A machine's page: which machine its address names.

pub mod earnings;
pub mod signals;

/// The machine id of the address's segment: a whole number above 0, digits only.
pub fn machine_id_of(segment: &str) -> Option<i64> {
    let digits = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
    digits
        .then(|| segment.parse().ok())
        .flatten()
        .filter(|id| *id > 0)
}

#[cfg(test)]
mod tests {
    use super::machine_id_of;

    #[test]
    fn the_address_names_a_machine_by_its_whole_id() {
        assert_eq!(machine_id_of("1037"), Some(1037));
        for not_an_id in [
            "",
            "0",
            "-5",
            "+5",
            "1e3",
            "10.0",
            "schedule",
            "9999999999999999999",
        ] {
            assert_eq!(machine_id_of(not_an_id), None, "{not_an_id}");
        }
    }
}
