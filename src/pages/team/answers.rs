//! Spec §1.3.2: a 2xx answer can still be a refusal (`status: "failure"`,
//! `success: false`). These turn the team operations' answers into what a
//! [`crate::components::confirmed_action::ConfirmedAction`] shows: the sentence for a
//! toast, or the refusal's sentence.

use gpudeck_wire::{MessageAnswer, StatusAnswer};

/// N16 and N18: `{status, message}`.
pub fn status_outcome(answer: StatusAnswer, otherwise: String) -> Result<String, String> {
    let message = Some(answer.message.clone()).filter(|m| !m.is_empty());
    if answer.is_failure() {
        Err(message.unwrap_or_else(|| format!("The server did not do it: {otherwise}")))
    } else {
        Ok(message.unwrap_or(otherwise))
    }
}

/// N14, N17 and N19: `{msg}`, with `success` when the sender adds it.
pub fn message_outcome(answer: MessageAnswer, otherwise: String) -> Result<String, String> {
    let message = Some(answer.msg.clone()).filter(|m| !m.is_empty() && m != "success");
    if answer.success == Some(false) {
        Err(message.unwrap_or_else(|| format!("The server did not do it: {otherwise}")))
    } else {
        Ok(message.unwrap_or(otherwise))
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn failures_in_a_2xx_answer_are_refusals() {
        let status = |status: &str, message: &str| StatusAnswer {
            status: status.into(),
            message: message.into(),
        };
        assert_eq!(
            status_outcome(status("success", "Role x removed from team"), "x".into()),
            Ok("Role x removed from team".into())
        );
        assert_eq!(
            status_outcome(
                status("failure", "No role was removed from the team"),
                "x".into()
            ),
            Err("No role was removed from the team".into())
        );
        let message = |success: Option<bool>, msg: &str| MessageAnswer {
            success,
            msg: msg.into(),
        };
        assert_eq!(
            message_outcome(message(None, "success"), "Role created".into()),
            Ok("Role created".into())
        );
        assert_eq!(
            message_outcome(
                message(Some(true), "New invitation sent to a@b.co"),
                "x".into()
            ),
            Ok("New invitation sent to a@b.co".into())
        );
        assert_eq!(
            message_outcome(message(Some(false), "nope"), "x".into()),
            Err("nope".into())
        );
    }
}
