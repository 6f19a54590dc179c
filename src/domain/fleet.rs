//! The host's fleet as the machines pages load it, and the one way windows are sent to
//! machines (N3 for one, N4 batches for many), with a result for every machine.

use super::bulk::{sort, Sorted};
use super::schedule::{
    batches, results_of_batch, settle_unknown, unknown, ItemOutcome, ItemResult, Plan,
};
use crate::api::{ApiClient, ApiError};
use crate::components::time::now_seconds;
use gpudeck_wire::{Machine, MaintenanceCategory, MaintenanceWindow};

/// The host's machines and their active windows, as loaded.
#[derive(Clone)]
pub struct Fleet {
    pub machines: Vec<Machine>,
    pub windows: Vec<MaintenanceWindow>,
    pub at: f64,
}

impl Fleet {
    /// The fleet of `machines` and their active `windows`, as loaded now.
    pub fn loaded_now(machines: Vec<Machine>, windows: Vec<MaintenanceWindow>) -> Self {
        Fleet {
            machines,
            windows,
            at: now_seconds(),
        }
    }
}

/// Loads the fleet: N1, then the windows of its machines in requests of at most 1000 ids.
/// Opened cold or from sign-in, both were asked for before the page's code arrived, and
/// the client takes those answers (`api::first_reads`).
pub async fn load_fleet(api: ApiClient) -> Result<Fleet, ApiError> {
    let machines = api.machines().await?;
    load_windows_of(api, machines).await
}

/// The fleet of `machines`, as N1 gave them: their windows loaded as [`load_fleet`] does.
pub async fn load_windows_of(api: ApiClient, machines: Vec<Machine>) -> Result<Fleet, ApiError> {
    let ids: Vec<i64> = machines.iter().map(|m| m.id).collect();
    let windows = api.maintenances_of(&ids).await?;
    Ok(Fleet::loaded_now(machines, windows))
}

/// Sends one N4 batch (at most 100 machines, one start) and gives every machine of
/// `batch` its result, in `batch`'s order. A batch refused as a whole refuses each of its
/// machines with the server's sentence, and one with no answer leaves each unknown; only a
/// page left or a key refused ends the run.
async fn schedule_batch(
    api: &ApiClient,
    batch: &[i64],
    start: f64,
    duration_hours: i64,
    category: &MaintenanceCategory,
) -> Result<Vec<ItemResult>, ApiError> {
    let answer = api
        .schedule_maintenance_batch(batch, start, duration_hours, category)
        .await;
    Ok(match sort(answer)? {
        Sorted::Done(answer) => {
            let items: Vec<ItemResult> = answer
                .results
                .into_iter()
                .map(|item| ItemResult {
                    machine_id: item.machine_id,
                    outcome: if item.success {
                        ItemOutcome::Scheduled {
                            notifications: item.notifications_sent.unwrap_or(0),
                        }
                    } else {
                        ItemOutcome::Refused(
                            item.refusal.sentence().unwrap_or_else(|| "refused".into()),
                        )
                    },
                })
                .collect();
            results_of_batch(batch, &items, None)
        }
        Sorted::Refused(message) => results_of_batch(batch, &[], Some(&message)),
        Sorted::Unknown(_) => batch
            .iter()
            .map(|&machine_id| ItemResult {
                machine_id,
                outcome: ItemOutcome::Unknown,
            })
            .collect(),
    })
}

/// Sends `plan`: one machine through N3 (which keeps the reason), several through N4 in
/// batches of at most 100 (see [`schedule_windows`]).
pub async fn schedule_plan(
    api: &ApiClient,
    plan: &Plan,
    mut answered: impl FnMut(&[ItemResult]),
) -> Result<Vec<ItemResult>, ApiError> {
    let windows = [(plan.start, plan.machines.clone())];
    let [machine_id] = plan.machines[..] else {
        return schedule_windows(api, &windows, plan.duration_hours, &plan.category, answered)
            .await;
    };
    let answer = api
        .schedule_maintenance(
            machine_id,
            plan.start,
            plan.duration_hours,
            &plan.category,
            plan.reason.clone(),
        )
        .await;
    let outcome = match sort(answer)? {
        Sorted::Done(answer) => ItemOutcome::Scheduled {
            notifications: answer.notifications_sent.unwrap_or(0),
        },
        Sorted::Refused(message) => ItemOutcome::Refused(message),
        Sorted::Unknown(_) => ItemOutcome::Unknown,
    };
    let mut results = vec![ItemResult {
        machine_id,
        outcome,
    }];
    answered(&results);
    reread_unknown(api, &mut results, &windows, plan.duration_hours).await?;
    Ok(results)
}

/// Sends windows of `duration_hours` and `category`, each a start (Unix seconds) and its
/// machines, one N4 batch of at most 100 machines after another, telling `answered` each
/// batch's results as they come. A plan of several starts keeps N4's public pace from its
/// first request. Every machine gets a result, those with no answer settled by a re-read;
/// only a page left or a key refused ends the run early.
pub async fn schedule_windows(
    api: &ApiClient,
    windows: &[(f64, Vec<i64>)],
    duration_hours: i64,
    category: &MaintenanceCategory,
    mut answered: impl FnMut(&[ItemResult]),
) -> Result<Vec<ItemResult>, ApiError> {
    let api = if windows.len() > 1 {
        api.paced_from_the_start()
    } else {
        api.clone()
    };
    let mut results = Vec::new();
    for (start, machines) in windows {
        for batch in batches(machines) {
            let batch_results =
                schedule_batch(&api, &batch, *start, duration_hours, category).await?;
            answered(&batch_results);
            results.extend(batch_results);
        }
    }
    reread_unknown(&api, &mut results, windows, duration_hours).await?;
    Ok(results)
}

/// The machines whose request got no answer, settled by reading their windows again:
/// what is now true, machine by machine. When the re-read fails too they stay unknown.
async fn reread_unknown(
    api: &ApiClient,
    results: &mut [ItemResult],
    sent: &[(f64, Vec<i64>)],
    duration_hours: i64,
) -> Result<(), ApiError> {
    let ids = unknown(results);
    if ids.is_empty() {
        return Ok(());
    }
    if let Sorted::Done(reread) = sort(api.maintenances_of(&ids).await)? {
        settle_unknown(results, sent, duration_hours, &reread);
    }
    Ok(())
}
