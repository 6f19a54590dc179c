//! What the machine earned (N34) over the whole UTC days before today: its total, a bar
//! per day, and the same days as a table for whoever does not read the chart.

use crate::api::{ApiError, Refusal};
use crate::components::bar_chart::BarChart;
use crate::components::money::format_usd;
use crate::components::resource_view::ResourceView;
use crate::domain::earnings::{day_text, MachineEarned};
use leptos::prelude::*;

pub type EarningsResource = LocalResource<Result<Option<MachineEarned>, ApiError>>;

/// `Earned $1,234.56 in the 30 days from 2026-10-28 to 2026-11-26 (UTC).`
pub fn total_words(earned: &MachineEarned) -> String {
    let window = format!(
        "the {} days from {} to {} (UTC)",
        earned.window_days(),
        day_text(earned.first_day),
        day_text(earned.last_day)
    );
    match earned.total {
        Some(total) => format!("Earned {} in {window}.", format_usd(total)),
        None => format!("The service did not say what this machine earned in {window}."),
    }
}

/// What the chart shows, for a screen reader: the highest day and the lowest.
fn chart_description(days: &[(i64, f64)]) -> String {
    let highest = days.iter().max_by(|a, b| a.1.total_cmp(&b.1));
    let lowest = days.iter().min_by(|a, b| a.1.total_cmp(&b.1));
    match (highest, lowest) {
        (Some(high), Some(low)) => format!(
            "{} days. Highest {} on {}, lowest {} on {}.",
            days.len(),
            format_usd(high.1),
            day_text(high.0),
            format_usd(low.1),
            day_text(low.0)
        ),
        _ => "No day in the answer.".to_owned(),
    }
}

#[component]
pub fn Earnings(earnings: EarningsResource) -> impl IntoView {
    let view = ResourceView::new(earnings, "Loading what it earned…")
        // Reading earnings needs billing_read, which a key that may see the machine can
        // lack: the rest of the page stays.
        .refusals(|error, refusal| {
            (refusal == Refusal::Forbidden).then(|| {
                view! {
                    <p class="result nothing" data-testid="earnings-refused">
                        {format!("The acting key may not read earnings: {}", error.message())}
                    </p>
                }
                .into_any()
            })
        })
        .show(|earned: Option<MachineEarned>| {
            earned.map(|earned| view! { <Earned earned=earned /> })
        });
    view! {
        <section
            class="machine-earnings"
            aria-labelledby="machine-earnings-title"
            data-testid="machine-earnings"
        >
            <h2 id="machine-earnings-title">"Earnings"</h2>
            {view}
        </section>
    }
}

#[component]
fn Earned(earned: MachineEarned) -> impl IntoView {
    let scope = if earned.days_may_be_fleet_wide {
        "Per day (daily figures may be fleet-wide: they do not add up to this machine's total)"
    } else {
        "Per day"
    };
    let values: Vec<f64> = earned.days.iter().map(|d| d.1).collect();
    let tips: Vec<String> = earned
        .days
        .iter()
        .map(|(day, amount)| format!("{}: {}", day_text(*day), format_usd(*amount)))
        .collect();
    let highest = values.iter().copied().fold(0.0, f64::max);
    let (first, last) = (
        earned
            .days
            .first()
            .map(|d| day_text(d.0))
            .unwrap_or_default(),
        earned
            .days
            .last()
            .map(|d| day_text(d.0))
            .unwrap_or_default(),
    );
    let rows = earned
        .days
        .iter()
        .map(|(day, amount)| {
            view! {
                <tr>
                    <th scope="row">{day_text(*day)}</th>
                    <td class="num">{format_usd(*amount)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p class="earnings-total" data-testid="earnings-total">
            {total_words(&earned)}
        </p>
        <figure class="earnings-chart">
            <figcaption>{scope}</figcaption>
            <p class="chart-scale" aria-hidden="true">
                {format!("Highest day: {}", format_usd(highest))}
            </p>
            <BarChart
                values=values
                tips=tips
                name=format!("Earnings per day, {first} to {last}")
                description=chart_description(&earned.days)
                id="earnings-chart"
            />
            <p class="chart-axis" aria-hidden="true">
                <span>{first}</span>
                <span>{last}</span>
            </p>
        </figure>
        <details class="earnings-table">
            <summary>"Earnings per day, as a table"</summary>
            <table data-testid="earnings-table">
                <caption>"Earnings per day (UTC)"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Day"</th>
                        <th scope="col">"Earned"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </details>
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn earned(total: Option<f64>) -> MachineEarned {
        MachineEarned {
            first_day: 20_454,
            last_day: 20_456,
            total,
            days: vec![(20_454, 1.0), (20_455, 3.5), (20_456, 0.0)],
            days_may_be_fleet_wide: false,
        }
    }

    #[test]
    fn the_total_names_its_window_in_utc() {
        assert_eq!(
            total_words(&earned(Some(1234.5))),
            "Earned $1,234.50 in the 3 days from 2026-01-01 to 2026-01-03 (UTC)."
        );
        assert_eq!(
            total_words(&earned(None)),
            "The service did not say what this machine earned in the 3 days from 2026-01-01 \
             to 2026-01-03 (UTC)."
        );
    }

    #[test]
    fn the_chart_says_its_highest_and_lowest_day() {
        assert_eq!(
            chart_description(&earned(None).days),
            "3 days. Highest $3.50 on 2026-01-02, lowest $0.00 on 2026-01-03."
        );
        assert_eq!(chart_description(&[]), "No day in the answer.");
    }
}
