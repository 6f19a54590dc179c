//! Transport: base URL, key, abort signal, and the retry policy.

use super::pacing::{public_pace_scale, Endpoint, Pacer};
use super::requests::ApiRequest;
use super::ApiError;
use super::{may_send_again, retry_after_seconds, MAX_RATE_LIMIT_RETRIES};
use gloo_net::http::{Request, RequestBuilder, Response};
pub use gpudeck_logic::api::client::backoff_ms;
use gpudeck_wire::paths;
use serde::de::DeserializeOwned;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::AbortSignal;

/// A read is tried at most this many times after a network failure or gateway trouble;
/// writes exactly once, because a write whose answer was lost may still have happened.
/// (A 429 is waited for by the pacing instead, reads and writes alike.)
pub const MAX_GET_ATTEMPTS: u32 = 3;

/// What a 401 answer for a key that `users/current` refuses too triggers (another kept
/// key acts, or sign-out and a detour through sign-in).
pub type UnauthorisedHook = Rc<dyn Fn(&ApiError)>;

/// Told how many whole seconds a request waits for the rate limit before it is sent
/// (again), and `None` once it goes; a bulk action shows it in its progress.
pub type WaitHook = Rc<dyn Fn(Option<u32>)>;

/// Told each list of the caller's machines N1 answers, wherever in the console it was
/// asked for (the navigation counts the machines needing attention from the latest).
pub type MachinesHook = Rc<dyn Fn(&[gpudeck_wire::Machine])>;

/// Holds what every request needs. Cheap to clone.
#[derive(Clone)]
pub struct ApiClient {
    base_url: Rc<str>,
    api_key: Rc<str>,
    signal: Option<AbortSignal>,
    on_unauthorised: Option<UnauthorisedHook>,
    /// Whether a 2xx saying it failed is read as the result (see
    /// [`ApiClient::reading_failures_as_results`]) instead of as a refusal.
    failures_are_results: bool,
    /// When each endpoint may be sent next; shared by the client's clones, so every page
    /// of the session keeps one pace per endpoint.
    pacer: Rc<RefCell<Pacer>>,
    /// Whether requests keep their operation's public interval from the first one
    /// ([`ApiClient::paced_from_the_start`]) rather than only after a 429.
    paced_from_the_start: bool,
    on_wait: Option<WaitHook>,
    on_machines: Option<MachinesHook>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    Get,
    Post,
    Put,
    Delete,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Delete => "DELETE",
        }
    }

    /// The method an operation of the table names; every one of them is one of these four.
    fn of(name: &str) -> Self {
        match name {
            "POST" => Method::Post,
            "PUT" => Method::Put,
            "DELETE" => Method::Delete,
            _ => Method::Get,
        }
    }
}

impl ApiClient {
    pub fn new(base_url: impl Into<String>, api_key: impl Into<String>) -> Self {
        let base_url: String = base_url.into();
        Self {
            base_url: base_url.trim_end_matches('/').into(),
            api_key: api_key.into().into(),
            signal: None,
            on_unauthorised: None,
            failures_are_results: false,
            pacer: Rc::new(RefCell::new(Pacer::new(public_pace_scale()))),
            paced_from_the_start: false,
            on_wait: None,
            on_machines: None,
        }
    }

    /// Tells `hook` every N1 answer this client and its clones read.
    pub fn on_machines(mut self, hook: MachinesHook) -> Self {
        self.on_machines = Some(hook);
        self
    }

    /// The N1 answer just read, to the hook.
    pub(super) fn tell_machines(&self, machines: &[gpudeck_wire::Machine]) {
        if let Some(hook) = &self.on_machines {
            hook(machines);
        }
    }

    /// Whether `request` would leave at once, without waiting for its pace or coming
    /// within its public interval of the last one (spec neighbours §1.5).
    pub fn is_free_now(&self, request: &ApiRequest) -> bool {
        let endpoint = Endpoint::of(request.method(), &self.url(&request.path));
        self.pacer.borrow().is_free(&endpoint, js_sys::Date::now())
    }

    /// This client telling `hook` when a request waits for the rate limit (see
    /// [`WaitHook`]).
    pub fn on_rate_limit_wait(&self, hook: WaitHook) -> Self {
        Self {
            on_wait: Some(hook),
            ..self.clone()
        }
    }

    /// This client for a bulk action that knows it will meet the public rate limits (N5
    /// for each machine, N4 for each start, N22 for each offer): each operation it sends
    /// keeps its public interval (spec neighbours §1.5) from the first request, instead of
    /// collecting refusals first.
    pub fn paced_from_the_start(&self) -> Self {
        Self {
            paced_from_the_start: true,
            ..self.clone()
        }
    }

    /// Requests abort when this signal fires (the page that made them was left).
    pub fn with_abort_signal(mut self, signal: Option<AbortSignal>) -> Self {
        self.signal = signal;
        self
    }

    /// Called once for a 401 answer that is about the key, before the error is returned.
    pub fn on_unauthorised(mut self, callback: UnauthorisedHook) -> Self {
        self.on_unauthorised = Some(callback);
        self
    }

    /// This client for an operation whose 2xx answer stays a result when it says it
    /// failed: per-item results (N4, N7), and seed op 2's `{success: false, defragmented:
    /// null}`, which the spec gives as that operation's answer to no valid ids. Spec
    /// neighbours §1.3 rule 2 names these exceptions (and N8's "No templates found", which
    /// the console does not call).
    pub fn reading_failures_as_results(&self) -> Self {
        Self {
            failures_are_results: true,
            ..self.clone()
        }
    }

    /// Whether `other` sends the same key to the same server.
    pub fn is_same_account(&self, other: &ApiClient) -> bool {
        self.base_url == other.base_url && self.api_key == other.api_key
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The key, for the requests started before the console's code had arrived
    /// ([`super::first_reads`]), which are sent with it.
    pub(super) fn api_key(&self) -> &str {
        &self.api_key
    }

    /// `base_url + path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    /// `request` (built in [`super::requests`]), sent; its 2xx answer decoded.
    pub async fn send<T: DeserializeOwned>(&self, request: &ApiRequest) -> Result<T, ApiError> {
        let text = self.send_unread(request).await?;
        self.decode(&text)
    }

    /// `request`, sent; the text of its 2xx answer, for [`ApiClient::decode`] to read
    /// later (a request sent before the code that reads its answer has arrived, in the
    /// split build). A GET is retried on gateway errors and network failures; a write is
    /// sent once, with its body.
    pub async fn send_unread(&self, request: &ApiRequest) -> Result<String, ApiError> {
        let url = self.url(&request.path);
        let query = request.query_pairs();
        match Method::of(request.method()) {
            Method::Get => self.get_text(&url, &query).await,
            // A write without a body (N31–N33, as the docs send them) goes without one.
            method => {
                self.exchange(method, &url, &query, request.body.clone())
                    .await
            }
        }
    }

    /// The body of a 2xx answer as `T`, unless it says it did not do it (`success: false`
    /// or `status: "failure"`): that is a refusal (spec neighbours §1.3 rule 2), for every
    /// operation but the exceptions of [`ApiClient::reading_failures_as_results`]. Errors
    /// are redacted like any other.
    pub fn decode<T: DeserializeOwned>(&self, text: &str) -> Result<T, ApiError> {
        if !self.failures_are_results {
            if let Some(declined) = ApiError::declined_in(text) {
                return Err(declined.redact(&self.api_key));
            }
        }
        serde_json::from_str(text)
            .map_err(|e| ApiError::Decode(e.to_string()).redact(&self.api_key))
    }

    /// The body of a GET's 2xx answer, after up to [`MAX_GET_ATTEMPTS`] tries.
    async fn get_text(&self, url: &str, query: &[(&str, &str)]) -> Result<String, ApiError> {
        let mut attempt = 1;
        loop {
            let result = self.exchange(Method::Get, url, query, None).await;
            match result {
                Err(error)
                    if error.is_transient()
                        && error.status() != Some(429)
                        && attempt < MAX_GET_ATTEMPTS =>
                {
                    gloo_timers::future::TimeoutFuture::new(backoff_ms(attempt)).await;
                    if self.is_aborted() {
                        return Err(ApiError::Aborted);
                    }
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    /// One request with `body` (already JSON) and the text of its 2xx answer; any other
    /// answer becomes an [`ApiError`], with the key redacted and a 401 judged. A 429 says
    /// nothing was done, with or without `Retry-After`, so any request is sent again when
    /// its endpoint's pace allows (a read's 503 with `Retry-After` too), up to
    /// [`MAX_RATE_LIMIT_RETRIES`] times; a write is never repeated otherwise.
    async fn exchange(
        &self,
        method: Method,
        url: &str,
        query: &[(&str, &str)],
        body: Option<String>,
    ) -> Result<String, ApiError> {
        let endpoint = Endpoint::of(method.name(), url);
        if let Some(answer) =
            super::first_reads::take(self, method.name(), url, query, body.as_deref()).await
        {
            // The service counted it: a pace begun soon after must wait its interval.
            self.pacer
                .borrow_mut()
                .answered_early(&endpoint, js_sys::Date::now());
            return Ok(answer);
        }
        if self.paced_from_the_start {
            self.pacer.borrow_mut().keep_public_pace(&endpoint);
        }
        let mut retries = 0;
        loop {
            let paced = self
                .pacer
                .borrow_mut()
                .reserve(&endpoint, js_sys::Date::now());
            self.wait(paced).await?;
            self.take_turn(&endpoint).await?;
            let (result, retry_after) = self.exchange_once(method, url, query, body.clone()).await;
            self.pacer
                .borrow_mut()
                .answered(&endpoint, js_sys::Date::now());
            let status = result.as_ref().err().and_then(ApiError::status);
            let may_repeat = match status {
                Some(429) => true,
                Some(status) => {
                    retry_after.is_some() && may_send_again(status, method == Method::Get)
                }
                None => false,
            };
            if !may_repeat || retries >= MAX_RATE_LIMIT_RETRIES {
                return result;
            }
            retries += 1;
            // The loop's next turn waits for the endpoint's next slot: at least this long
            // from now, later if other requests took the slots before.
            self.pacer
                .borrow_mut()
                .refused(&endpoint, retry_after, js_sys::Date::now());
        }
    }

    /// Waits until `endpoint`'s request may leave ([`Pacer::take_turn`]): its slot has
    /// come, but the one before may have left late. `Aborted` if the page was left.
    async fn take_turn(&self, endpoint: &Endpoint) -> Result<(), ApiError> {
        loop {
            let asked = self
                .pacer
                .borrow_mut()
                .take_turn(endpoint, js_sys::Date::now());
            match asked {
                Ok(()) => return Ok(()),
                Err(ms) => gloo_timers::future::TimeoutFuture::new(ms.ceil() as u32).await,
            }
            if self.is_aborted() {
                return Err(ApiError::Aborted);
            }
        }
    }

    /// Whether the page that owns this client was left (its requests' signal aborted).
    fn is_aborted(&self) -> bool {
        self.signal.as_ref().is_some_and(AbortSignal::aborted)
    }

    /// Waits `ms` for the rate limit, telling the wait hook; `Aborted` if the page was left.
    async fn wait(&self, ms: f64) -> Result<(), ApiError> {
        if ms < 1.0 {
            return Ok(());
        }
        if let Some(hook) = &self.on_wait {
            // Whole seconds as a person reads them; never "0 s" while waiting.
            hook(Some((ms / 1000.0).round().max(1.0) as u32));
        }
        gloo_timers::future::TimeoutFuture::new(ms.ceil() as u32).await;
        if let Some(hook) = &self.on_wait {
            hook(None);
        }
        if self.is_aborted() {
            return Err(ApiError::Aborted);
        }
        Ok(())
    }

    /// One request, its outcome and the seconds its `Retry-After` asks to wait, if any.
    async fn exchange_once(
        &self,
        method: Method,
        url: &str,
        query: &[(&str, &str)],
        body: Option<String>,
    ) -> (Result<String, ApiError>, Option<f64>) {
        let builder: RequestBuilder = match method {
            Method::Get => Request::get(url),
            Method::Post => Request::post(url),
            Method::Put => Request::put(url),
            Method::Delete => Request::delete(url),
        };
        // gloo-net adds a stray `&` unless query pairs go through `query`.
        let builder = if query.is_empty() {
            builder
        } else {
            builder.query(query.iter().copied())
        };
        let builder = self.authorised(builder);
        let request = match body {
            // What gloo-net's `json` does, without being generic over the body's type.
            Some(body) => builder
                .header("Content-Type", "application/json")
                .body(body)
                .map_err(|e| ApiError::Decode(e.to_string())),
            None => builder
                .build()
                .map_err(|e| ApiError::Network(e.to_string())),
        };
        let request = match request {
            Ok(request) => request,
            Err(error) => return (Err(error), None),
        };
        let in_flight = super::InFlight::start();
        let (result, retry_after) = match request.send().await {
            Ok(response) => read_response(response).await,
            Err(_) if self.is_aborted() => (Err(ApiError::Aborted), None),
            Err(_) => (
                Err(ApiError::Network(unreachable_hint(&self.base_url))),
                None,
            ),
        };
        drop(in_flight);
        let result = match result {
            Err(error) if method != Method::Get => Err(error.for_a_write_sent()),
            other => other,
        };
        let result = result.map_err(|e| e.redact(&self.api_key));
        let result = match result {
            Err(error) if error.is_unauthorised() => Err(self.judge_unauthorised(url, error).await),
            other => other,
        };
        (result, retry_after)
    }

    /// A 401 may be about the target rather than the key (the public service answers 401
    /// for what the caller does not own), so unless `users/current` itself answered, the
    /// key is checked there first; only a second 401 counts as the key refused.
    async fn judge_unauthorised(&self, url: &str, error: ApiError) -> ApiError {
        let about_the_key =
            url.starts_with(&self.url(paths::CURRENT_USER)) || !self.key_still_accepted().await;
        if !about_the_key {
            return ApiError::NotYours(error.message());
        }
        if let Some(callback) = &self.on_unauthorised {
            callback(&error);
        }
        error
    }

    /// What every request carries: JSON wanted, the key, and the page's abort signal.
    fn authorised(&self, builder: RequestBuilder) -> RequestBuilder {
        builder
            .header("Accept", "application/json")
            .header("Authorization", &format!("Bearer {}", self.api_key))
            .abort_signal(self.signal.as_ref())
    }

    /// Whether `users/current` accepts the key. No answer is not a refusal: the key is then
    /// given the benefit of the doubt rather than the person signed out.
    async fn key_still_accepted(&self) -> bool {
        let request = self.authorised(Request::get(&self.url(paths::CURRENT_USER)));
        match request.send().await {
            Ok(response) => response.status() != 401,
            Err(_) => true,
        }
    }
}

/// What to check when no answer came. The browser hides the reason (refused, offline,
/// cross-origin rules, the page's Content-Security-Policy) from scripts on purpose.
fn unreachable_hint(base_url: &str) -> String {
    let mut hint =
        format!("no answer from {base_url}; check the base URL and that the server is running");
    if !base_url.starts_with(&crate::session::own_origin()) {
        hint.push_str(
            ", and that this console may call another origin (the serving gpudeck-server's \
             --connect-src, and cross-origin access on that server)",
        );
    }
    hint
}

/// The text of a 2xx answer, or the error any other answer stands for, with the seconds
/// a 429's or 503's `Retry-After` asks to wait; a 429 not worth waiting out says so at once.
async fn read_response(response: Response) -> (Result<String, ApiError>, Option<f64>) {
    let status = response.status();
    let retry_after = matches!(status, 429 | 503)
        .then(|| response.headers().get("Retry-After"))
        .flatten()
        .and_then(|value| retry_after_seconds(&value, js_sys::Date::now() / 1000.0));
    let text = match response.text().await {
        Ok(text) => text,
        Err(e) => return (Err(ApiError::Network(e.to_string())), None),
    };
    if !(200..300).contains(&status) {
        let header = |name| response.headers().get(name);
        let error = ApiError::from_response(status, &response.status_text(), &text)
            .unless_too_long_to_wait(
                header("Retry-After").as_deref(),
                header("X-RateLimit-Reset").as_deref(),
                js_sys::Date::now() / 1000.0,
            );
        return (Err(error), retry_after);
    }
    (Ok(text), None)
}
