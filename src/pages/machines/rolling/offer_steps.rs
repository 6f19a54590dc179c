//! Sending the contract-safe plan's offer steps: [`end_offers`]. What the steps are and
//! what each came to is [`gpudeck_logic::pages::machines::rolling::offer_steps`]'s.

pub use gpudeck_logic::pages::machines::rolling::offer_steps::*;

use crate::api::{ApiClient, ApiError};
use crate::components::time::now_seconds;
use crate::domain::bulk::{sort, Sorted};
use crate::domain::offer_terms::ending_request;
use gpudeck_wire::Machine;

/// Makes each machine's offer end at its date (machine, Unix seconds): one N22 each with
/// the new `end_date` and every other term `machines` (N1) gives at its current value
/// (§1.3 rule 8), at N22's public pace from the first, telling `answered` each result as it
/// comes. Those whose answer did not say are settled by re-reading the machines (N1); only
/// a page left or a key refused ends the run early.
pub async fn end_offers(
    api: &ApiClient,
    offers: &[(i64, f64)],
    machines: &[Machine],
    mut answered: impl FnMut(&OfferResult),
) -> Result<Vec<OfferResult>, ApiError> {
    let api = api.paced_from_the_start();
    let mut results = Vec::new();
    for &(machine_id, end) in offers {
        let outcome = match machines.iter().find(|m| m.id == machine_id) {
            None => OfferOutcome::Refused("not among the machines loaded".into()),
            Some(machine) => match sort(api.list_machine(&ending_request(machine, end)).await)? {
                Sorted::Done(answer) => OfferOutcome::Ended {
                    extended: answer.extended,
                },
                Sorted::Refused(message) => OfferOutcome::Refused(message),
                Sorted::Unknown(why) => OfferOutcome::Unknown(why),
            },
        };
        let result = OfferResult {
            machine_id,
            end,
            outcome,
        };
        answered(&result);
        results.push(result);
    }
    if results
        .iter()
        .any(|r| matches!(r.outcome, OfferOutcome::Unknown(_)))
    {
        if let Sorted::Done(machines) = sort(api.machines().await)? {
            let now = now_seconds();
            for result in results.iter_mut() {
                let ended = machines
                    .iter()
                    .any(|m| m.id == result.machine_id && offer_ends_by(m, result.end, now));
                if let (OfferOutcome::Unknown(why), true) = (&result.outcome, ended) {
                    result.outcome = OfferOutcome::FoundAfterNoAnswer(why.clone());
                }
            }
        }
    }
    Ok(results)
}
