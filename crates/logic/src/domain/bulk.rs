//! The one place that decides how each request of a bulk action ended (schedule, cancel,
//! defragment, a rolling plan, and the offer actions): done, refused and so
//! not applied, or unknown (sent, no answer), or a reason to stop the whole run. The pacing
//! and the waits for the rate limit are the fetch layer's (`api::pacing`): a request
//! refused as too frequent reaches here only after the client waited and tried again.

use crate::api::pacing::{duration_sentence, paced_seconds, public_interval};
use crate::api::{ApiError, Outcome};
use crate::components::words::counted;

/// How one request of a bulk action ended, for the machines it concerned.
#[derive(Debug, Clone, PartialEq)]
pub enum Sorted<T> {
    Done(T),
    /// Not applied, with the sentence that says why.
    Refused(String),
    /// Sent, and no answer that says whether it was applied came (none at all, a server
    /// failure, or a 2xx the console cannot read), with the sentence that says which. Never
    /// sent again by itself; the action re-reads what is true instead.
    Unknown(String),
}

/// Why a request whose answer was lost is unknown.
pub const NO_ANSWER: &str = "no answer came";

/// Sorts the outcome of one request of a bulk action; `Err` for what ends the whole run
/// (the page was left, the key was refused).
pub fn sort<T>(result: Result<T, ApiError>) -> Result<Sorted<T>, ApiError> {
    let error = match result {
        Ok(answer) => return Ok(Sorted::Done(answer)),
        Err(error) => error,
    };
    match error.outcome() {
        Outcome::Aborted | Outcome::Unauthorised => Err(error),
        Outcome::Unknown => Ok(Sorted::Unknown(NO_ANSWER.into())),
        Outcome::Failed if error.may_have_been_done() => Ok(Sorted::Unknown(format!(
            "the answer did not say whether it was done ({})",
            error.message_with_status()
        ))),
        Outcome::Refused(_) | Outcome::Failed => Ok(Sorted::Refused(error.message())),
    }
}

/// A bulk action that sends one request of an operation the public service limits per
/// request, and so keeps its pace from the first one (`ApiClient::paced_from_the_start`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PacedAction {
    /// N5 (cancel every window of a machine), one request per machine.
    CancelEachMachine,
    /// N4 (schedule many), one request per start of a rolling plan.
    ScheduleEachStart,
    /// N22 (list machine), one request per offer.
    ListEachOffer,
    /// N23 (unlist machine), one request per machine.
    UnlistEachMachine,
}

impl PacedAction {
    fn operation(self) -> (&'static str, &'static str) {
        match self {
            PacedAction::CancelEachMachine => ("PUT", "/api/v0/machines/1/cancel_maint/"),
            PacedAction::ScheduleEachStart => ("POST", "/api/v0/machines/maintenances/batch"),
            PacedAction::ListEachOffer => ("PUT", "/api/v0/machines/create_asks/"),
            PacedAction::UnlistEachMachine => ("DELETE", "/api/v0/machines/1/asks/"),
        }
    }

    fn noun(self) -> (&'static str, &'static str) {
        match self {
            PacedAction::CancelEachMachine | PacedAction::UnlistEachMachine => {
                ("machine", "machines")
            }
            PacedAction::ScheduleEachStart => ("start", "starts"),
            PacedAction::ListEachOffer => ("offer", "offers"),
        }
    }

    /// What the action says before it starts, for `count` requests: `20 machines: about
    /// 50 s at the public service's pace`; nothing when it is quick.
    pub fn duration_sentence(self, count: usize) -> Option<String> {
        let (method, path) = self.operation();
        let seconds = public_interval(method, path)?.seconds;
        let (one, many) = self.noun();
        duration_sentence(
            &counted(count as i64, one, many),
            paced_seconds(count, seconds),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_request_is_done_refused_unknown_or_ends_the_run() {
        assert_eq!(sort::<i32>(Ok(3)), Ok(Sorted::Done(3)));
        let refused = ApiError::from_response(404, "", r#"{"msg": "No such machine id"}"#);
        assert_eq!(
            sort::<i32>(Err(refused)),
            Ok(Sorted::Refused("No such machine id".into()))
        );
        let too_frequent =
            ApiError::from_response(429, "", "API requests too frequent: endpoint threshold=2.5");
        assert!(
            matches!(sort::<i32>(Err(too_frequent)), Ok(Sorted::Refused(why)) if why.starts_with("not done"))
        );
        let lost = ApiError::Network("no answer".into()).for_a_write_sent();
        assert_eq!(
            sort::<i32>(Err(lost)),
            Ok(Sorted::Unknown("no answer came".into()))
        );
        assert_eq!(sort::<i32>(Err(ApiError::Aborted)), Err(ApiError::Aborted));
        let key = ApiError::from_response(401, "", r#"{"msg": "Invalid user key"}"#);
        assert!(sort::<i32>(Err(key)).is_err());
    }

    #[test]
    fn a_server_failure_or_an_unreadable_answer_to_a_write_is_unknown_not_refused() {
        // Either may have been applied: the action re-reads, and never says "not changed".
        let failed = ApiError::from_response(500, "", r#"{"msg": "boom"}"#);
        assert_eq!(
            sort::<i32>(Err(failed)),
            Ok(Sorted::Unknown(
                "the answer did not say whether it was done (boom (500))".into()
            ))
        );
        let busy = ApiError::from_response(503, "Service Unavailable", "");
        assert!(matches!(sort::<i32>(Err(busy)), Ok(Sorted::Unknown(_))));
        let unreadable = ApiError::Decode("invalid type: null, expected i64".into());
        assert_eq!(
            sort::<i32>(Err(unreadable)),
            Ok(Sorted::Unknown(
                "the answer did not say whether it was done (unexpected answer from the \
                 server: invalid type: null, expected i64)"
                    .into()
            ))
        );
        // What the request itself was refused for stays a refusal.
        let not_allowed = ApiError::from_response(405, "", "Method Not Allowed");
        assert!(matches!(
            sort::<i32>(Err(not_allowed)),
            Ok(Sorted::Refused(_))
        ));
    }

    #[test]
    fn paced_actions_say_how_long_they_take() {
        assert_eq!(
            PacedAction::CancelEachMachine
                .duration_sentence(20)
                .as_deref(),
            Some("20 machines: about 50 s at the public service's pace")
        );
        assert_eq!(
            PacedAction::ScheduleEachStart
                .duration_sentence(20)
                .as_deref(),
            Some("20 starts: about 40 s at the public service's pace")
        );
        assert_eq!(
            PacedAction::ListEachOffer.duration_sentence(10).as_deref(),
            Some("10 offers: about 45 s at the public service's pace")
        );
        assert_eq!(
            PacedAction::UnlistEachMachine
                .duration_sentence(20)
                .as_deref(),
            Some("20 machines: about 35 s at the public service's pace")
        );
        assert_eq!(PacedAction::CancelEachMachine.duration_sentence(1), None);
    }
}
