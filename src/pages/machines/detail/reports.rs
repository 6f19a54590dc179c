//! The renters' recent reports on the machine (N24), newest first, each message shown as
//! the text it is, never as markup.

use super::findings::REPORTS_SECTION;
use crate::api::ApiError;
use crate::components::resource_view::ResourceView;
use crate::components::time::Time;
use crate::domain::reports::Filed;
use gpudeck_wire::RenterReport;
use leptos::prelude::*;

pub type ReportsResource = LocalResource<Result<Vec<(RenterReport, Filed)>, ApiError>>;

#[component]
pub fn Reports(reports: ReportsResource) -> impl IntoView {
    view! {
        <section
            class="machine-reports"
            id=REPORTS_SECTION
            aria-labelledby="machine-reports-title"
            data-testid="machine-reports"
        >
            <h2 id="machine-reports-title">"Renter reports"</h2>
            {ResourceView::new(reports, "Loading the renters' reports…")
                .empty_when(
                    Vec::is_empty,
                    "No renter has reported a problem with this machine lately.",
                )
                .show(|reports: Vec<(RenterReport, Filed)>| {
                    let items = reports
                        .into_iter()
                        .map(|(report, filed)| view! { <ReportItem report=report filed=filed /> })
                        .collect_view();
                    view! { <ol class="reports">{items}</ol> }
                })}
        </section>
    }
}

#[component]
fn ReportItem(report: RenterReport, filed: Filed) -> impl IntoView {
    let when = match filed {
        Filed::At(seconds) => view! { <Time unix_seconds=seconds /> }.into_any(),
        Filed::AsSent(text) => {
            view! { <span>{format!("reported (as sent): {text}")}</span> }.into_any()
        }
    };
    view! {
        <li class="report">
            <p class="report-head">
                <strong class="report-problem">{report.problem}</strong>
                <span class="report-when">{when}</span>
            </p>
            <p class="report-message">{report.message}</p>
        </li>
    }
}
