//! The health fields N1 carries for the machine (fleet-health §1.1), each as received, and
//! those it left out said so: a field that is not there is "not said", never zero.

pub use gpudeck_logic::pages::machines::detail::signals::*;
use gpudeck_wire::Machine;
use leptos::prelude::*;

/// The fields as a list of terms, under a disclosure: the findings say what matters.
#[component]
pub fn Signals(machine: Machine) -> impl IntoView {
    let rows = signal_rows(&machine)
        .into_iter()
        .map(|(name, value)| {
            let not_said = value == NOT_REPORTED;
            view! {
                <dt>{name}</dt>
                <dd class:not-said=not_said>{value}</dd>
            }
        })
        .collect_view();
    view! {
        <details class="machine-signals">
            <summary>"What the service reports about its health"</summary>
            <dl class="facts">{rows}</dl>
        </details>
    }
}
