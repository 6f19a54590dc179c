//! What the acting account may not read on a page. However many of a page's sections the
//! server refuses, the page says so once, at its top, with the server's words and the
//! other keys to act as; the refused sections show nothing, and the forms that would only
//! be refused in turn are not offered.

use crate::api::{ApiError, Refusal};
use crate::components::acting_key::{acting_account, SwitchOffer};
use crate::session::use_session;
pub use gpudeck_logic::components::page_access::*;
use leptos::prelude::*;

/// A page's record of the first refusal that put it out of reach.
#[derive(Clone, Copy)]
pub struct PageAccess {
    refused: RwSignal<Option<String>>,
    out_of_reach: OutOfReach,
}

impl PageAccess {
    /// Shared with everything the page's children build.
    pub fn provide(out_of_reach: OutOfReach) -> Self {
        let access = Self {
            refused: RwSignal::new(None),
            out_of_reach,
        };
        provide_context(access);
        access
    }

    /// Takes `error` as the page's refusal when it means the acting account cannot read
    /// the page; true when it did, and the section then shows nothing of its own.
    pub fn take(&self, error: &ApiError, refusal: Refusal) -> bool {
        let page_wide = self.out_of_reach.covers(refusal);
        if page_wide && self.refused.with_untracked(Option::is_none) {
            self.refused.set(Some(error.message()));
        }
        page_wide
    }

    pub fn is_refused(&self) -> bool {
        self.refused.with(Option::is_some)
    }
}

/// The page's access, inside a [`crate::components::page::Page`].
pub fn use_page_access() -> Option<PageAccess> {
    use_context()
}

/// True while nothing of the page was refused to the acting account (always outside a
/// page): what a form or a section asks before it offers itself.
pub fn page_is_readable() -> impl Fn() -> bool + Copy + Send + Sync + 'static {
    let access = use_page_access();
    move || !access.is_some_and(|access| access.is_refused())
}

/// The notice, once the page is out of reach.
#[component]
pub fn OutOfReachNotice(access: PageAccess) -> impl IntoView {
    let acting = acting_account(use_session());
    let OutOfReach {
        name,
        heading,
        advice,
        ..
    } = access.out_of_reach;
    move || {
        access.refused.get().map(|said| {
            view! {
                <div class=format!("result nothing {name}") role="alert" data-testid=name>
                    <h2>{heading}</h2>
                    <p>{move || format!("Acting as {}. The server said: {said}", acting())}</p>
                    <p>{advice}</p>
                    <SwitchOffer />
                </div>
            }
        })
    }
}
