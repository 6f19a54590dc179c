//! How every page shows a failed request: status, the server's message, and a retry.

use crate::api::ApiError;
use leptos::prelude::*;

#[component]
pub fn ErrorPanel(
    error: ApiError,
    /// Called by the retry button; without it there is no button.
    #[prop(optional, into)]
    on_retry: Option<Callback<()>>,
) -> impl IntoView {
    let heading = match &error {
        ApiError::Http { status, error, .. } => match error {
            Some(code) => format!("The server refused the request ({status}, {code})"),
            None => format!("The server refused the request ({status})"),
        },
        ApiError::Declined { error, .. } => match error {
            Some(code) => format!("The server answered that it did not do it ({code})"),
            None => "The server answered that it did not do it".into(),
        },
        ApiError::TooLongToWait { limit, .. } if limit.quota => {
            "The server refused the request (429, daily quota used up)".into()
        }
        ApiError::TooLongToWait { .. } => {
            "The server refused the request (429, asks to wait too long)".into()
        }
        ApiError::NotYours(_) => "The server refused the request (401, not yours)".into(),
        ApiError::Network(_) => "The server could not be reached".into(),
        ApiError::NoAnswer(_) => "No answer came: it may have been done".into(),
        ApiError::Decode(_) => "The server's answer could not be read".into(),
        ApiError::Aborted => "The request was cancelled".into(),
    };
    view! {
        <div class="error-panel" role="alert">
            <p class="error-heading">{heading}</p>
            <p class="error-message">{error.message()}</p>
            {on_retry
                .map(|retry| {
                    view! {
                        <button type="button" class="button" on:click=move |_| retry.run(())>
                            "Try again"
                        </button>
                    }
                })}
        </div>
    }
}
