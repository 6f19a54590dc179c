//! The Machines page's offer actions (§1.7) as the whole-app tests drive them, and the
//! offers table as they read it back: shared by the listing tests and the paced ones.

use crate::{now, Harness};

/// Opens the offer action `key`'s form (`end-offers`, `unlist`, `relist`).
pub async fn open_offer_action(app: &Harness, key: &str) -> anyhow::Result<()> {
    app.click(&format!(".selection-actions [data-action={key}]"))
        .await?;
    app.find(&format!("#offer-panel[data-testid={key}]"))
        .await?;
    Ok(())
}

/// Switches the open offer form's times to UTC.
pub async fn times_in_utc(app: &Harness) -> anyhow::Result<()> {
    let toggle = app.find("#offer-panel .toggle input").await?;
    if toggle.prop("checked").await?.as_deref() != Some("true") {
        toggle.click().await?;
    }
    app.wait_for_text("#offer-panel .zone", "UTC").await?;
    Ok(())
}

/// A whole minute `days` from now: the `datetime-local` value in UTC, the Unix seconds,
/// and the way the console writes it in UTC.
pub fn minute_in_days(days: f64) -> (String, f64, String) {
    let at = ((now() + days * 86_400.0) / 60.0).floor() * 60.0;
    let seconds = at as i64;
    let (day, minute) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400) / 60);
    let (y, m, d) = civil_from_days(day);
    let date = format!("{y:04}-{m:02}-{d:02}");
    let clock = format!("{:02}:{:02}", minute / 60, minute % 60);
    (format!("{date}T{clock}"), at, format!("{date} {clock} UTC"))
}

/// Howard Hinnant's days-to-civil: the proleptic Gregorian date of a day since 1970.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// An offer row: machine, its terms, end date, duration and whether withdrawn, to compare
/// before and after.
pub type OfferRow = (
    i64,
    Vec<rusqlite::types::Value>,
    Option<f64>,
    Option<f64>,
    bool,
);

/// Every offer row of machines `first..=last`, by machine.
pub async fn offers_between(app: &Harness, first: i64, last: i64) -> anyhow::Result<Vec<OfferRow>> {
    app.db_rows(
        "SELECT machine_id, price_gpu, price_min_bid, price_disk, price_inetu, price_inetd,
                min_chunk, credit_discount_max, vol_size, vol_price, end_date, duration,
                withdrawn_at IS NOT NULL
         FROM offers WHERE machine_id BETWEEN ?1 AND ?2 ORDER BY machine_id",
        (first, last),
        |row| {
            let terms = (1..10)
                .map(|i| row.get::<_, rusqlite::types::Value>(i))
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((row.get(0)?, terms, row.get(10)?, row.get(11)?, row.get(12)?))
        },
    )
    .await
}

/// Each machine's terms only.
pub fn terms(offers: &[OfferRow]) -> Vec<(i64, Vec<rusqlite::types::Value>)> {
    offers.iter().map(|o| (o.0, o.1.clone())).collect()
}
