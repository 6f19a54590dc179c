//! What the machine earned (N34) over the whole UTC days before today: its total, a bar
//! per day, and the same days as a table for whoever does not read the chart.

use crate::api::{ApiError, Refusal};
use crate::components::bar_chart::BarChart;
use crate::components::money::format_usd;
use crate::components::resource_view::ResourceView;
use crate::domain::earnings::{day_text, MachineEarned};
pub use gpudeck_logic::pages::machines::detail::earnings::*;
use leptos::prelude::*;

pub type EarningsResource = LocalResource<Result<Option<MachineEarned>, ApiError>>;

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
