//! How every page loads what it shows: a loading line, the error panel with Try again,
//! an empty state, then the page's own view of the data.

use super::error_panel::ErrorPanel;
use super::page_access::use_page_access;
use super::reload::ReloadButton;
use crate::api::{use_api, ApiClient, ApiError, Outcome, Refusal};
use leptos::prelude::*;
use std::future::Future;
use std::sync::Arc;

/// A page's data, fetched with the page's client (requests abort when the page is left).
/// `fetch` runs again whenever a signal it reads changes, and on `refetch`.
pub fn use_api_resource<T, Fut>(
    fetch: impl Fn(ApiClient) -> Fut + 'static,
) -> LocalResource<Result<T, ApiError>>
where
    T: 'static,
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    let api = use_api();
    LocalResource::new(move || fetch(api.clone()))
}

/// Reads what `resource` last loaded, without copying it, or `None` while nothing is
/// loaded (or it failed): for the parts of a page outside its [`ResourceView`], such as
/// forms and confirmations. The view itself is handed the value.
pub fn with_loaded<T, U>(
    resource: LocalResource<Result<T, ApiError>>,
    read: impl FnOnce(&T) -> U,
) -> Option<U>
where
    T: 'static,
{
    resource.with(|loaded| loaded.as_ref().and_then(|r| r.as_ref().ok()).map(read))
}

/// When the data counts as empty, and the sentence shown then.
type EmptyState<T> = (fn(&T) -> bool, &'static str);
type RefusalView = Arc<dyn Fn(&ApiError, Refusal) -> Option<AnyView> + Send + Sync>;

/// The states of a fetched resource, each shown the same way on every page:
/// loading (`<p class="loading">`), a failure (the error panel, whose Try again refetches),
/// nothing for an aborted request or a refused key (the shell signs out), nothing for a
/// refusal that puts the page out of reach (the page says so once, at its top), an
/// optional empty state, and the data through the page's own view.
pub struct ResourceView<T: 'static> {
    resource: LocalResource<Result<T, ApiError>>,
    loading: &'static str,
    reload_button: bool,
    empty: Option<EmptyState<T>>,
    refusal: Option<RefusalView>,
}

impl<T: Clone + Send + Sync + 'static> ResourceView<T> {
    /// `loading` is the sentence shown until the first answer, e.g. "Loading subaccounts…".
    pub fn new(resource: LocalResource<Result<T, ApiError>>, loading: &'static str) -> Self {
        Self {
            resource,
            loading,
            reload_button: false,
            empty: None,
            refusal: None,
        }
    }

    /// A Reload button above the view, saying so while the data is fetched again.
    pub fn with_reload_button(mut self) -> Self {
        self.reload_button = true;
        self
    }

    /// Data for which `is_empty` holds shows `text` (`<p class="empty-state">`) instead.
    pub fn empty_when(mut self, is_empty: fn(&T) -> bool, text: &'static str) -> Self {
        self.empty = Some((is_empty, text));
        self
    }

    /// Refusals the page shows itself: `show` gives their view (nothing, when the refusal
    /// stands next to a field), or `None` for the error panel.
    pub fn refusals(
        mut self,
        show: impl Fn(&ApiError, Refusal) -> Option<AnyView> + Send + Sync + 'static,
    ) -> Self {
        self.refusal = Some(Arc::new(show));
        self
    }

    /// The whole view, with `data` drawing what came.
    pub fn show<V: IntoView + 'static>(
        self,
        data: impl Fn(T) -> V + Send + Sync + 'static,
    ) -> impl IntoView {
        let Self {
            resource,
            loading,
            reload_button,
            empty,
            refusal,
        } = self;
        let data = Arc::new(data);
        let access = use_page_access();
        let reloading = RwSignal::new(false);
        let retry = Callback::new(move |_| resource.refetch());
        let body = move || match resource.get() {
            None => ().into_any(),
            Some(Ok(value)) => match empty {
                Some((is_empty, text)) if is_empty(&value) => {
                    view! { <p class="empty-state">{text}</p> }.into_any()
                }
                _ => data(value).into_any(),
            },
            Some(Err(error)) => match error.outcome() {
                Outcome::Aborted | Outcome::Unauthorised => ().into_any(),
                Outcome::Refused(kind) => {
                    if let Some(own) = refusal.as_ref().and_then(|show| show(&error, kind)) {
                        own
                    } else if access.is_some_and(|access| access.take(&error, kind)) {
                        ().into_any()
                    } else {
                        view! { <ErrorPanel error=error on_retry=retry /> }.into_any()
                    }
                }
                Outcome::Failed | Outcome::Unknown => {
                    view! { <ErrorPanel error=error on_retry=retry /> }.into_any()
                }
            },
        };
        view! {
            {reload_button
                .then(|| {
                    view! {
                        <div class="form-actions">
                            <ReloadButton reloading=reloading on_reload=retry />
                        </div>
                    }
                })}
            <Transition
                fallback=move || {
                    view! {
                        <p class="loading" role="status">
                            {loading}
                        </p>
                    }
                }
                set_pending=reloading
            >
                {body.clone()}
            </Transition>
        }
    }
}
