//! What is checked before a volume ask is accepted (seed op 4): the size against the
//! capacity the offer has left, and the optional name's rule. Pure: unit-tested natively.

use gpudeck_wire::{is_volume_label, MAX_VOLUME_LABEL_CHARS as MAX_NAME_CHARS};

/// The name typed, if any, when it keeps the wire's rule ([`is_volume_label`]); otherwise
/// what breaks it. Spaces around it are dropped; nothing typed means no name.
pub fn check_volume_name(text: &str) -> Result<Option<String>, String> {
    let name = text.trim();
    if name.is_empty() {
        return Ok(None);
    }
    if is_volume_label(name) {
        return Ok(Some(name.to_owned()));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "The name may have at most {MAX_NAME_CHARS} characters."
        ));
    }
    let bad = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
        .unwrap_or(' ');
    Err(format!(
        "The name may contain only letters, digits and underscores, not {}.",
        if bad == ' ' {
            "spaces".to_owned()
        } else {
            format!("“{bad}”")
        }
    ))
}

/// Whether `size_gb` fits in the `free_gb` an offer has left; it says how much is left
/// when it does not.
pub fn check_fits(ask_id: i64, size_gb: i64, free_gb: f64) -> Result<(), String> {
    if size_gb as f64 <= free_gb {
        Ok(())
    } else {
        Err(format!(
            "Offer {ask_id} has {} GB left: choose at most that.",
            free_gb.floor()
        ))
    }
}

/// `V.20118484`: the name a volume is mounted by.
pub fn volume_name(id: i64) -> String {
    format!("V.{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_letters_digits_and_underscores_up_to_64() {
        assert_eq!(check_volume_name(""), Ok(None));
        assert_eq!(check_volume_name("   "), Ok(None));
        assert_eq!(
            check_volume_name(" datasets_2 "),
            Ok(Some("datasets_2".into()))
        );
        assert_eq!(check_volume_name(&"a".repeat(64)), Ok(Some("a".repeat(64))));
        assert_eq!(
            check_volume_name(&"a".repeat(65)),
            Err("The name may have at most 64 characters.".into())
        );
        assert_eq!(
            check_volume_name("my data"),
            Err("The name may contain only letters, digits and underscores, not spaces.".into())
        );
        assert_eq!(
            check_volume_name("data-set"),
            Err("The name may contain only letters, digits and underscores, not “-”.".into())
        );
        assert!(check_volume_name("daten_ü").is_err());
    }

    #[test]
    fn a_size_fits_up_to_the_space_left() {
        assert_eq!(check_fits(7, 30, 30.0), Ok(()));
        assert_eq!(check_fits(7, 1, 30.5), Ok(()));
        assert_eq!(
            check_fits(7, 31, 30.0),
            Err("Offer 7 has 30 GB left: choose at most that.".into())
        );
        assert_eq!(volume_name(20118484), "V.20118484");
    }
}
