//! N20's rules for a new subaccount, checked before anything is sent, and which field a
//! refusal of the server is about. Pure: unit-tested natively.

use crate::api::Refusal;

pub const MAX_EMAIL_CHARS: usize = 64;
pub const MAX_USERNAME_CHARS: usize = 64;
pub const MIN_PASSWORD_CHARS: usize = 8;
pub const MAX_PASSWORD_CHARS: usize = 256;

/// A field of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewField {
    Email,
    Username,
    Password,
    /// The form as a whole (no permission, a subaccount's key, ...).
    Form,
}

/// `^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$`, at most 64 characters, and no
/// `@vast` in any case (the public pattern's lookahead).
pub fn check_email(text: &str) -> Result<String, String> {
    let email = text.trim();
    if email.is_empty() {
        return Err("Enter the e-mail address.".into());
    }
    if email.chars().count() > MAX_EMAIL_CHARS {
        return Err(format!(
            "The e-mail address may have at most {MAX_EMAIL_CHARS} characters."
        ));
    }
    if email.to_ascii_lowercase().contains("@vast") {
        return Err("Addresses at the marketplace's own domain are not allowed.".into());
    }
    let well_formed = email.split_once('@').is_some_and(|(local, domain)| {
        let local_ok = !local.is_empty()
            && local
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._%+-".contains(c));
        let domain_ok = domain.rsplit_once('.').is_some_and(|(name, top)| {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-".contains(c))
                && top.len() >= 2
                && top.chars().all(|c| c.is_ascii_alphabetic())
        });
        local_ok && domain_ok
    });
    if well_formed {
        Ok(email.to_owned())
    } else {
        Err("Enter an e-mail address like name@example.com.".into())
    }
}

/// 1 to 64 characters, none of them control characters. Kept as typed.
pub fn check_username(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Err("Enter a username.".into());
    }
    if text.chars().count() > MAX_USERNAME_CHARS {
        return Err(format!(
            "The username may have at most {MAX_USERNAME_CHARS} characters."
        ));
    }
    if text.chars().any(char::is_control) {
        return Err("The username may not contain control characters.".into());
    }
    Ok(text.to_owned())
}

/// 8 to 256 characters. Kept exactly as typed (spaces count).
pub fn check_password(text: &str) -> Result<(), String> {
    let length = text.chars().count();
    if length < MIN_PASSWORD_CHARS {
        Err(format!(
            "The password needs at least {MIN_PASSWORD_CHARS} characters."
        ))
    } else if length > MAX_PASSWORD_CHARS {
        Err(format!(
            "The password may have at most {MAX_PASSWORD_CHARS} characters."
        ))
    } else {
        Ok(())
    }
}

/// Which field the server's refusal concerns: an existing user is the e-mail's (or the
/// username's, which the answer does not tell apart); a malformed value the field its
/// message names; anything else the form's.
pub fn field_of(kind: Refusal, message: &str) -> NewField {
    let message = message.trim_start().to_ascii_lowercase();
    match kind {
        Refusal::Conflict => NewField::Email,
        Refusal::Malformed | Refusal::Invalid if message.starts_with("password") => {
            NewField::Password
        }
        Refusal::Malformed | Refusal::Invalid if message.starts_with("username") => {
            NewField::Username
        }
        Refusal::Malformed | Refusal::Invalid
            if message.starts_with("email") || message.contains("e-mail") =>
        {
            NewField::Email
        }
        _ => NewField::Form,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e_mail_addresses_follow_the_public_pattern() {
        for good in [
            "render-farm@alice.example",
            "a.b_c%d+e-f@sub.domain-x.io",
            " x@y.co ",
        ] {
            assert!(check_email(good).is_ok(), "{good}");
        }
        assert_eq!(check_email(" x@y.co "), Ok("x@y.co".into()));
        for bad in [
            "no-at.example",
            "@example.com",
            "a@b",
            "a@b.c",
            "a@.com.x1",
            "a@b.c0m",
            "a b@c.com",
            "a@b@c.com",
            "ä@b.com",
        ] {
            assert_eq!(
                check_email(bad),
                Err("Enter an e-mail address like name@example.com.".into()),
                "{bad}"
            );
        }
        assert_eq!(check_email("  "), Err("Enter the e-mail address.".into()));
        assert!(check_email("me@VAST.ai")
            .unwrap_err()
            .contains("not allowed"));
        assert!(check_email("me@vastdata.com").is_err());
        let long = format!("{}@example.com", "a".repeat(53));
        assert_eq!(long.len(), 65);
        assert!(check_email(&long).unwrap_err().contains("at most 64"));
        assert!(check_email(&long[1..]).is_ok());
    }

    #[test]
    fn usernames_and_passwords_have_their_lengths() {
        assert_eq!(check_username("render farm"), Ok("render farm".into()));
        assert!(check_username("").is_err());
        assert!(check_username("tab\there").unwrap_err().contains("control"));
        assert!(check_username(&"ü".repeat(64)).is_ok());
        assert!(check_username(&"ü".repeat(65)).is_err());
        assert!(check_password("1234567")
            .unwrap_err()
            .contains("at least 8"));
        assert_eq!(check_password("12345678"), Ok(()));
        assert_eq!(check_password(&"p".repeat(256)), Ok(()));
        assert!(check_password(&"p".repeat(257))
            .unwrap_err()
            .contains("at most 256"));
    }

    #[test]
    fn refusals_go_next_to_the_field_they_are_about() {
        use NewField::{Email, Form, Password, Username};
        use Refusal::{Conflict, Declined, Forbidden, Malformed};
        let cases = [
            (Conflict, "user already exists.", Email),
            (Malformed, "Email address not allowed", Email),
            (
                Malformed,
                "email, username and password are required",
                Email,
            ),
            (
                Malformed,
                "password must be at least 8 characters",
                Password,
            ),
            (Malformed, "username is too long", Username),
            (Forbidden, "subaccounts cannot create subaccounts", Form),
            (Declined, "nothing done", Form),
        ];
        for (refusal, msg, field) in cases {
            assert_eq!(field_of(refusal, msg), field, "{msg}");
        }
    }
}
