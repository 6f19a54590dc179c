//! What a team page says when the acting key cannot use it: a personal key outside its
//! own team, or a team key whose role lacks `team_read`/`team_write`, or no team at all.

use crate::api::{ApiError, Refusal};
use crate::pages::acting_account::{acting_account, SwitchOffer};
use crate::session::use_session;
use leptos::prelude::*;

/// The view for refusals that mean the acting key cannot use team pages (forbidden, no
/// team), for [`crate::components::resource_view::ResourceView::refusals`].
pub fn team_refusal(error: &ApiError, refusal: Refusal) -> Option<AnyView> {
    matches!(refusal, Refusal::Forbidden | Refusal::NotFound)
        .then(|| view! { <TeamOutOfReach message=error.message()/> }.into_any())
}

#[component]
pub fn TeamOutOfReach(message: String) -> impl IntoView {
    let session = use_session();
    let acting = acting_account(session);
    view! {
        <div class="result nothing team-out-of-reach" role="alert" data-testid="team-out-of-reach">
            <h2>"The acting account cannot use this team page"</h2>
            <p>{move || format!("Acting as {}. The server said: {message}", acting())}</p>
            <p>"Team pages need a key made in the team's context, whose role allows team_read (to look) or team_write (to change). Act as another key kept in this tab:"</p>
            <SwitchOffer/>
        </div>
    }
}
