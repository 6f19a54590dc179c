//! D1's change to a machine's health signals (fleet-health D1–D3, a project rule), and the
//! verification rule of §3.5: an error set on a verified machine deverifies it, and
//! clearing that error restores `verified`, but only when the error was the reason.

use super::{fleet, DbError};
use gpudeck_wire::Machine;
use rusqlite::{params, Connection, ToSql};

pub use gpudeck_wire::fleet::VERIFICATIONS;

pub const VERIFIED: &str = VERIFICATIONS[0];
pub const DEVERIFIED: &str = VERIFICATIONS[2];

/// What D1 changes; `None` leaves a signal as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HealthChange {
    /// true: offline from now on (an offline machine keeps its time); false: online.
    pub offline: Option<bool>,
    /// `Some(None)` clears the error.
    pub error_description: Option<Option<String>>,
    pub vm_error_msg: Option<Option<String>>,
    /// One of [`VERIFICATIONS`]. Set explicitly, it replaces whatever the errors did.
    pub verification: Option<&'static str>,
    pub reliability2: Option<f64>,
    pub avail_disk_space: Option<f64>,
    pub gpu_max_cur_temp: Option<f64>,
    pub driver_version: Option<String>,
    pub cuda_max_good: Option<f64>,
}

/// The machine as N1 served it before the change and serves it after.
#[derive(Debug, Clone, PartialEq)]
pub struct HealthChanged {
    pub before: Machine,
    pub after: Machine,
    /// It had no offline time and now has one. N1's `timeout` cannot say so at the
    /// instant of the change: it is now less the offline time, 0 at first.
    pub went_offline: bool,
}

/// Why D1 changed nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HealthFailure {
    /// No such machine, or not the caller's.
    NotFound,
    /// `avail_disk_space` above the machine's `max_disk_space`.
    DiskAboveMax { max: f64 },
}

/// Whether an error text says "no error": null, empty or blank (the console reads them
/// alike, fleet-health §1.1).
pub fn is_blank(error: Option<&str>) -> bool {
    error.is_none_or(|text| text.trim().is_empty())
}

/// The verification a change leaves, and whether it is then owed to an error (§3.5).
/// `error_before` and `error_after` are `error_description`: only the machine's error
/// deverifies, not `vm_error_msg` alone (H2b rates a VM error a warning).
fn verification_after(
    change: &HealthChange,
    (verification, by_error): (&str, bool),
    (error_before, error_after): (Option<&str>, Option<&str>),
) -> (String, bool) {
    if let Some(explicit) = change.verification {
        return (explicit.to_owned(), false);
    }
    let error_set = is_blank(error_before) && !is_blank(error_after);
    let error_cleared = !is_blank(error_before) && is_blank(error_after);
    match verification {
        VERIFIED if error_set => (DEVERIFIED.to_owned(), true),
        DEVERIFIED if error_cleared && by_error => (VERIFIED.to_owned(), false),
        other => (other.to_owned(), by_error),
    }
}

/// Applies `change` to `owner_id`'s machine `machine_id` at `now`, in one IMMEDIATE
/// transaction. Only the signals it names are stored: the others keep their stored value
/// or their derived default (fleet-health §1.1).
pub fn change_health(
    conn: &mut Connection,
    owner_id: i64,
    machine_id: i64,
    change: &HealthChange,
    now: f64,
) -> Result<Result<HealthChanged, HealthFailure>, DbError> {
    let tx = super::write_tx(conn)?;
    let Some(before) = fleet::machine(&tx, owner_id, machine_id, now)? else {
        return Ok(Err(HealthFailure::NotFound));
    };
    if let (Some(avail), Some(max)) = (change.avail_disk_space, before.max_disk_space) {
        if avail > max {
            return Ok(Err(HealthFailure::DiskAboveMax { max }));
        }
    }
    let (offline_before, by_error): (Option<f64>, bool) = tx.query_row(
        "SELECT offline_since, deverified_by_error FROM machines WHERE id = ?1",
        params![machine_id],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    let offline_since = match change.offline {
        Some(true) => offline_before.or(Some(now)),
        Some(false) => None,
        None => offline_before,
    };
    let error_after = match &change.error_description {
        Some(error) => error.as_deref(),
        None => before.error_description.as_deref(),
    };
    let (verification, by_error) = verification_after(
        change,
        (&before.verification, by_error),
        (before.error_description.as_deref(), error_after),
    );
    let mut columns: Vec<(&str, Box<dyn ToSql>)> = vec![
        ("offline_since", Box::new(offline_since)),
        ("verification", Box::new(verification)),
        ("deverified_by_error", Box::new(by_error)),
    ];
    let named: [(&str, Option<Box<dyn ToSql>>); 7] = [
        ("error_description", boxed(&change.error_description)),
        ("vm_error_msg", boxed(&change.vm_error_msg)),
        ("reliability2", boxed(&change.reliability2)),
        ("avail_disk_space", boxed(&change.avail_disk_space)),
        ("gpu_max_cur_temp", boxed(&change.gpu_max_cur_temp)),
        ("driver_version", boxed(&change.driver_version)),
        ("cuda_max_good", boxed(&change.cuda_max_good)),
    ];
    columns.extend(
        named
            .into_iter()
            .filter_map(|(column, value)| Some((column, value?))),
    );
    // `?1` is the machine; each column's value follows in order.
    let assignments: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, (column, _))| format!("{column} = ?{}", i + 2))
        .collect();
    let mut values: Vec<&dyn ToSql> = vec![&machine_id];
    values.extend(columns.iter().map(|(_, value)| value.as_ref()));
    tx.execute(
        &format!(
            "UPDATE machines SET {} WHERE id = ?1",
            assignments.join(", ")
        ),
        values.as_slice(),
    )?;
    let after = fleet::machine(&tx, owner_id, machine_id, now)?
        .ok_or(rusqlite::Error::QueryReturnedNoRows)?;
    tx.commit()?;
    Ok(Ok(HealthChanged {
        before,
        after,
        went_offline: offline_before.is_none() && offline_since.is_some(),
    }))
}

/// A named signal's new value, to store; `None` when the change leaves it.
fn boxed<T: ToSql + Clone + 'static>(value: &Option<T>) -> Option<Box<dyn ToSql>> {
    value.clone().map(|value| Box::new(value) as Box<dyn ToSql>)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(
        change: &HealthChange,
        was: (&str, bool),
        errors: (Option<&str>, Option<&str>),
    ) -> (String, bool) {
        verification_after(change, was, errors)
    }

    #[test]
    fn an_error_deverifies_a_verified_machine_until_it_clears() {
        let none = HealthChange::default();
        assert_eq!(
            after(&none, (VERIFIED, false), (None, Some("x"))),
            (DEVERIFIED.into(), true)
        );
        // A blank error is no error.
        assert_eq!(
            after(&none, (VERIFIED, false), (Some(""), Some("  "))),
            (VERIFIED.into(), false)
        );
        assert_eq!(
            after(&none, (DEVERIFIED, true), (Some("x"), None)),
            (VERIFIED.into(), false)
        );
        assert_eq!(
            after(&none, (DEVERIFIED, true), (Some("x"), Some(" "))),
            (VERIFIED.into(), false)
        );
        // Another error in its place keeps it deverified, and the reason.
        assert_eq!(
            after(&none, (DEVERIFIED, true), (Some("x"), Some("y"))),
            (DEVERIFIED.into(), true)
        );
    }

    #[test]
    fn a_machine_deverified_for_another_reason_stays_so() {
        let none = HealthChange::default();
        assert_eq!(
            after(&none, (DEVERIFIED, false), (None, Some("x"))),
            (DEVERIFIED.into(), false)
        );
        assert_eq!(
            after(&none, (DEVERIFIED, false), (Some("x"), None)),
            (DEVERIFIED.into(), false)
        );
        assert_eq!(
            after(&none, ("unverified", false), (None, Some("x"))),
            ("unverified".into(), false)
        );
        assert_eq!(
            after(&none, ("unverified", false), (Some("x"), None)),
            ("unverified".into(), false)
        );
    }

    #[test]
    fn an_explicit_verification_wins_and_forgets_the_error() {
        let verified = HealthChange {
            verification: Some(VERIFIED),
            ..HealthChange::default()
        };
        assert_eq!(
            after(&verified, (VERIFIED, false), (None, Some("x"))),
            (VERIFIED.into(), false)
        );
        let deverified = HealthChange {
            verification: Some(DEVERIFIED),
            ..HealthChange::default()
        };
        assert_eq!(
            after(&deverified, (DEVERIFIED, true), (Some("x"), Some("x"))),
            (DEVERIFIED.into(), false)
        );
    }
}
