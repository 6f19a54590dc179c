//! The one way every window of many machines is cancelled (N5 per machine); what each
//! cancellation did, in words, is [`gpudeck_logic::domain::cancellation`]'s.

pub use gpudeck_logic::domain::cancellation::*;

use super::bulk::{sort, Sorted};
use crate::api::{ApiClient, ApiError};
use futures::stream::{self, StreamExt, TryStreamExt};

/// Cancellations sent at once for a selection: as many as the connections a browser opens
/// to one HTTP/1.1 server. The client's pacing then spaces them as N5's limit asks.
const CANCELS_IN_FLIGHT: usize = 6;

/// Cancels every window of each of `ids` (N5), keeping N5's public pace from the first
/// request, and gives each machine its result in `ids`' order, telling `answered` as each
/// comes. Machines whose answer was lost are settled by a re-read of their windows. Only a
/// page left or a key refused ends the run.
pub async fn cancel_each(
    api: &ApiClient,
    ids: Vec<i64>,
    answered: impl Fn() + Clone + 'static,
) -> Result<Vec<(i64, Cancelled)>, ApiError> {
    let paced = api.paced_from_the_start();
    let sorted: Vec<(i64, Sorted<String>)> = stream::iter(ids)
        .map(move |id| {
            let api = paced.clone();
            let answered = answered.clone();
            async move {
                let answer = api.cancel_machine_maintenance(id).await;
                answered();
                let sorted = match sort(answer)? {
                    Sorted::Done(answer) => Sorted::Done(cancelled_text(id, &answer)),
                    Sorted::Refused(why) => Sorted::Refused(why),
                    Sorted::Unknown(why) => Sorted::Unknown(why),
                };
                Ok::<_, ApiError>((id, sorted))
            }
        })
        .buffered(CANCELS_IN_FLIGHT)
        .try_collect()
        .await?;
    let lost: Vec<i64> = sorted
        .iter()
        .filter(|(_, s)| matches!(s, Sorted::Unknown(_)))
        .map(|(id, _)| *id)
        .collect();
    let reread = if lost.is_empty() {
        None
    } else {
        match sort(api.maintenances_of(&lost).await)? {
            Sorted::Done(windows) => Some(windows),
            _ => None,
        }
    };
    Ok(sorted
        .into_iter()
        .map(|(id, sorted)| (id, settled(id, sorted, reread.as_deref())))
        .collect())
}
