//! A team role in plain words: what it can do, within which limits, and what it cannot.

use crate::domain::role::RoleSummary;
use leptos::prelude::*;

/// The role in plain words.
#[component]
pub fn RoleSummaryView(summary: RoleSummary) -> impl IntoView {
    let list = |items: Vec<String>| {
        if items.is_empty() {
            view! { <p class="muted">"Nothing."</p> }.into_any()
        } else {
            view! { <ul>{items.into_iter().map(|item| view! { <li>{item}</li> }).collect_view()}</ul> }.into_any()
        }
    };
    view! {
        <section class="role-summary" aria-label="What the role allows" data-testid="role-summary">
            <div>
                <h3>"Can"</h3>
                {list(summary.can)}
            </div>
            {(!summary.limited.is_empty())
                .then(|| {
                    view! {
                        <div>
                            <h3>"Can, within limits"</h3>
                            {list(summary.limited)}
                        </div>
                    }
                })}
            <div>
                <h3>"Cannot"</h3>
                {list(summary.cannot)}
            </div>
            {(summary.unrecognised > 0)
                .then(|| {
                    view! {
                        <p class="hint">
                            {format!(
                                "Also holds {} part(s) the console does not recognise; they are kept as they are.",
                                summary.unrecognised,
                            )}
                        </p>
                    }
                })}
        </section>
    }
}
