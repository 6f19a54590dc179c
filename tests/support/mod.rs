//! Helpers shared by the browser test suites: mounting, waiting, and a scripted `fetch`.
#![allow(dead_code)]

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement};

/// A fresh container in the page; the mounted view is removed when this is dropped.
pub struct Mounted {
    pub root: HtmlElement,
    handle: Option<leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>>,
    owner: Owner,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.handle.take();
        // Unmounting alone leaves the reactive owner alive while any task still holds it,
        // and with it the router's window listeners; the next test would share them.
        self.owner.cleanup();
        self.root.remove();
        LIVE.with_borrow_mut(|live| live.retain(|(root, _)| root != &self.root));
    }
}

thread_local! {
    /// Views still mounted. A test that panics never drops its `Mounted` (wasm aborts
    /// instead of unwinding), so the next `mount` clears what it left behind.
    static LIVE: std::cell::RefCell<Vec<(HtmlElement, Owner)>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Mounted {
    pub fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    pub fn get(&self, selector: &str) -> Element {
        self.find(selector).unwrap_or_else(|| {
            panic!(
                "no element matches {selector}; page: {}",
                self.root.inner_html()
            )
        })
    }

    pub fn all(&self, selector: &str) -> Vec<Element> {
        let list = self.root.query_selector_all(selector).unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i))
            .map(|n| n.unchecked_into())
            .collect()
    }

    pub fn text(&self, selector: &str) -> String {
        self.get(selector).text_content().unwrap_or_default()
    }

    pub fn click(&self, selector: &str) {
        self.get(selector).unchecked_into::<HtmlElement>().click();
    }

    /// Waits until an element matches `selector`, and returns it.
    pub async fn wait_for(&self, selector: &str) -> Element {
        if !wait_until(WAIT_MS, || self.find(selector).is_some()).await {
            self.gave_up(&format!("no element matches {selector}"));
        }
        self.get(selector)
    }

    /// Waits until exactly `count` elements match `selector`: a table's rows, once loaded.
    pub async fn wait_for_count(&self, selector: &str, count: usize) {
        if !wait_until(WAIT_MS, || self.all(selector).len() == count).await {
            let found = self.all(selector).len();
            self.gave_up(&format!("{found} elements match {selector}, not {count}"));
        }
    }

    /// Waits until no element matches `selector`.
    pub async fn wait_for_gone(&self, selector: &str) {
        if !wait_until(WAIT_MS, || self.find(selector).is_none()).await {
            self.gave_up(&format!("an element still matches {selector}"));
        }
    }

    /// Waits until the text of the element matching `selector` is `expected`.
    pub async fn wait_for_text(&self, selector: &str, expected: &str) {
        if !wait_until(WAIT_MS, || self.text_of(selector) == expected).await {
            let found = self.text_of(selector);
            self.gave_up(&format!("{selector} says {found:?}, not {expected:?}"));
        }
    }

    /// Waits until the text of the element matching `selector` contains `part`.
    pub async fn wait_for_text_containing(&self, selector: &str, part: &str) {
        if !wait_until(WAIT_MS, || self.text_of(selector).contains(part)).await {
            let found = self.text_of(selector);
            self.gave_up(&format!("{selector} says {found:?}, without {part:?}"));
        }
    }

    /// The text of the element matching `selector`; empty while there is none.
    fn text_of(&self, selector: &str) -> String {
        self.find(selector)
            .and_then(|element| element.text_content())
            .unwrap_or_default()
    }

    fn gave_up(&self, what: &str) -> ! {
        panic!(
            "{what} after {WAIT_MS} ms; page: {}",
            self.root.inner_html()
        )
    }

    /// Types `value` into an input as a person would: sets it and fires `input`.
    pub fn type_into(&self, selector: &str, value: &str) {
        let input: web_sys::HtmlInputElement = self.get(selector).unchecked_into();
        input.set_value(value);
        let event = web_sys::Event::new_with_event_init_dict("input", &{
            let init = web_sys::EventInit::new();
            init.set_bubbles(true);
            init
        })
        .unwrap();
        input.dispatch_event(&event).unwrap();
    }
}

/// What the served page has before the console's code runs: `first_reads.js`, loaded once,
/// with whatever an earlier test started through it dropped.
pub fn load_first_reads_script() {
    let window = web_sys::window().unwrap();
    let loaded = js_sys::Reflect::get(&window, &"gpudeckFirstReads".into()).unwrap();
    if loaded.is_undefined() {
        js_sys::eval(include_str!("../../first_reads.js")).unwrap();
    }
    gpudeck::api::first_reads::abandon();
    offer_first_reads_for(None);
}

/// Keeps the answers `first_reads.js` starts from now on `ms` milliseconds (`None`: its own
/// ten seconds), so that a test sees them dropped without waiting seconds.
pub fn offer_first_reads_for(ms: Option<u32>) {
    let window = web_sys::window().unwrap();
    let reads = js_sys::Reflect::get(&window, &"gpudeckFirstReads".into()).unwrap();
    let offer_for: js_sys::Function = js_sys::Reflect::get(&reads, &"offerFor".into())
        .unwrap()
        .unchecked_into();
    offer_for
        .call1(&reads, &ms.map_or(JsValue::UNDEFINED, JsValue::from))
        .unwrap();
}

pub fn mount<F, N>(view: F) -> Mounted
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    load_first_reads_script();
    mount_keeping_first_reads(view)
}

/// [`mount`], keeping the reads a test started through `first_reads.js` as the served
/// page would have.
pub fn mount_keeping_first_reads<F, N>(view: F) -> Mounted
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    for (root, owner) in LIVE.with_borrow_mut(std::mem::take) {
        owner.cleanup();
        root.remove();
    }
    let root: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let owner = Owner::new();
    let handle = owner.with(|| leptos::mount::mount_to(root.clone(), move || view().into_any()));
    LIVE.with_borrow_mut(|live| live.push((root.clone(), owner.clone())));
    Mounted {
        root,
        handle: Some(handle),
        owner,
    }
}

/// Lets effects, the router and pending futures run, and the browser draw a frame: a
/// table builds its first row, the rows on the first screen in the next frame and the rest
/// of its view after it.
pub async fn settle() {
    for round in 0..5 {
        leptos::task::tick().await;
        gloo_timers::future::TimeoutFuture::new(0).await;
        if round == 1 {
            next_frame().await;
        }
    }
}

/// Waits for the browser's next frame: its animation frame callbacks have run, its paint
/// not yet (a timer set then runs after it).
pub async fn next_frame() {
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .request_animation_frame(&resolve)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(frame).await.unwrap();
}

/// The longest the `wait_for` helpers wait for the page to reach a state: an upper bound
/// for a slow machine, never reached by a test that passes.
pub const WAIT_MS: u32 = 10_000;

/// Waits until `check` holds, up to about `ms` milliseconds. For an element or its text,
/// [`Mounted::wait_for`] and its siblings say what they waited for when they give up.
pub async fn wait_until(ms: u32, mut check: impl FnMut() -> bool) -> bool {
    for _ in 0..(ms / 10).max(1) {
        if check() {
            return true;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
        leptos::task::tick().await;
    }
    check()
}

/// One scripted answer of the fake `fetch`.
pub struct Reply {
    pub status: u16,
    pub body: &'static str,
    pub content_type: &'static str,
    /// The `Retry-After` header, when not empty.
    pub retry_after: &'static str,
    /// How long the answer takes to arrive.
    pub delay_ms: u32,
}

pub fn json(status: u16, body: &'static str) -> Reply {
    Reply {
        status,
        body,
        content_type: "application/json",
        retry_after: "",
        delay_ms: 0,
    }
}

/// `reply`, arriving `delay_ms` milliseconds after the request.
pub fn after(delay_ms: u32, reply: Reply) -> Reply {
    Reply { delay_ms, ..reply }
}

/// A JSON refusal with `status` that asks to retry after `retry_after`.
pub fn asked_to_wait(status: u16, retry_after: &'static str) -> Reply {
    Reply {
        retry_after,
        ..json(
            status,
            r#"{"error": "rate_limited", "msg": "too many requests"}"#,
        )
    }
}

pub fn text(status: u16, body: &'static str) -> Reply {
    Reply {
        status,
        body,
        content_type: "text/plain",
        retry_after: "",
        delay_ms: 0,
    }
}

/// Status 0 stands for a network failure: `fetch` rejects.
pub fn network_failure() -> Reply {
    Reply {
        status: 0,
        body: "",
        content_type: "",
        retry_after: "",
        delay_ms: 0,
    }
}

/// Status 1 stands for a server that never answers: `fetch` stays pending.
pub fn no_answer() -> Reply {
    Reply {
        status: 1,
        body: "",
        content_type: "",
        retry_after: "",
        delay_ms: 0,
    }
}

/// Whether the signal of the `index`th request the fake saw has fired.
pub fn request_aborted(index: u32) -> bool {
    let window = web_sys::window().unwrap();
    let requests: js_sys::Array = js_sys::Reflect::get(&window, &"__fakeRequests".into())
        .unwrap()
        .unchecked_into();
    let request: web_sys::Request = requests.get(index).unchecked_into();
    request.signal().aborted()
}

/// A recorded request: method, URL, Authorization header and body.
#[derive(Debug, Clone)]
pub struct Call {
    pub method: String,
    pub url: String,
    pub authorization: String,
    pub content_type: String,
    pub body: String,
    /// When the request was sent, in ms (`performance.now()`): pacing is checked by the
    /// spacing of what was sent, never by how long a test took.
    pub at: f64,
}

/// Puts the browser's own `fetch` back and returns it. A test that panics never runs
/// `Drop` (wasm aborts), so the real one is kept aside once and restored from there.
pub fn real_fetch() -> JsValue {
    let window = web_sys::window().unwrap();
    let saved = js_sys::Reflect::get(&window, &"__realFetch".into()).unwrap();
    let real = if saved.is_undefined() {
        let current = js_sys::Reflect::get(&window, &"fetch".into()).unwrap();
        js_sys::Reflect::set(&window, &"__realFetch".into(), &current).unwrap();
        current
    } else {
        saved
    };
    js_sys::Reflect::set(&window, &"fetch".into(), &real).unwrap();
    real
}

/// Replaces `window.fetch` with one that answers `replies` in order and records calls.
/// Dropping the returned guard restores the real `fetch`.
pub struct FakeFetch {
    original: JsValue,
}

impl FakeFetch {
    pub fn install(replies: Vec<Reply>) -> Self {
        Self::install_routes(replies.into_iter().map(|reply| ("", reply)).collect())
    }

    /// Like [`FakeFetch::install`], but each request gets the first unused reply whose
    /// pattern is part of its URL, so that requests made in no fixed order (the shell's
    /// `users/current` and a page's own) each get theirs.
    pub fn install_by_url(routes: Vec<(&'static str, Reply)>) -> Self {
        Self::install_routes(routes)
    }

    fn install_routes(routes: Vec<(&'static str, Reply)>) -> Self {
        let original = real_fetch();
        let window = web_sys::window().unwrap();
        let script = js_sys::Array::new();
        for (pattern, reply) in routes {
            let entry = js_sys::Object::new();
            js_sys::Reflect::set(&entry, &"pattern".into(), &pattern.into()).unwrap();
            js_sys::Reflect::set(&entry, &"status".into(), &reply.status.into()).unwrap();
            js_sys::Reflect::set(&entry, &"body".into(), &reply.body.into()).unwrap();
            js_sys::Reflect::set(&entry, &"type".into(), &reply.content_type.into()).unwrap();
            js_sys::Reflect::set(&entry, &"retryAfter".into(), &reply.retry_after.into()).unwrap();
            js_sys::Reflect::set(&entry, &"delayMs".into(), &reply.delay_ms.into()).unwrap();
            script.push(&entry);
        }
        js_sys::Reflect::set(&window, &"__fakeReplies".into(), &script).unwrap();
        js_sys::Reflect::set(&window, &"__fakeCalls".into(), &js_sys::Array::new()).unwrap();
        js_sys::Reflect::set(&window, &"__fakeRequests".into(), &js_sys::Array::new()).unwrap();
        let fake = js_sys::Function::new_with_args(
            "request",
            r#"
            window.__fakeRequests.push(request);
            const at = performance.now();
            return request.clone().text().then((body) => {
                window.__fakeCalls.push({
                    method: request.method,
                    url: request.url,
                    authorization: request.headers.get('Authorization') || '',
                    contentType: request.headers.get('Content-Type') || '',
                    body: body,
                    at: at,
                });
                const index = window.__fakeReplies.findIndex((r) => request.url.includes(r.pattern));
                const reply = index < 0 ? undefined : window.__fakeReplies.splice(index, 1)[0];
                if (!reply) { return Promise.reject(new TypeError('no scripted reply left')); }
                if (reply.status === 0) { return Promise.reject(new TypeError('Failed to fetch')); }
                if (reply.status === 1) { return new Promise(() => {}); }
                const headers = { 'Content-Type': reply.type };
                if (reply.retryAfter) { headers['Retry-After'] = reply.retryAfter; }
                const answer = new Response(reply.body, { status: reply.status, headers });
                if (!reply.delayMs) { return answer; }
                return new Promise((resolve) => setTimeout(() => resolve(answer), reply.delayMs));
            });
            "#,
        );
        js_sys::Reflect::set(&window, &"fetch".into(), &fake).unwrap();
        FakeFetch { original }
    }

    /// The recorded requests whose URL holds `part`.
    pub fn calls_to(&self, part: &str) -> Vec<Call> {
        self.calls()
            .into_iter()
            .filter(|call| call.url.contains(part))
            .collect()
    }

    pub fn calls(&self) -> Vec<Call> {
        let window = web_sys::window().unwrap();
        let calls: js_sys::Array = js_sys::Reflect::get(&window, &"__fakeCalls".into())
            .unwrap()
            .unchecked_into();
        let field = |call: &JsValue, name: &str| {
            js_sys::Reflect::get(call, &name.into())
                .unwrap()
                .as_string()
                .unwrap_or_default()
        };
        calls
            .iter()
            .map(|call| Call {
                method: field(&call, "method"),
                url: field(&call, "url"),
                authorization: field(&call, "authorization"),
                content_type: field(&call, "contentType"),
                body: field(&call, "body"),
                at: js_sys::Reflect::get(&call, &"at".into())
                    .unwrap()
                    .as_f64()
                    .unwrap_or_default(),
            })
            .collect()
    }
}

impl Drop for FakeFetch {
    fn drop(&mut self) {
        let window = web_sys::window().unwrap();
        js_sys::Reflect::set(&window, &"fetch".into(), &self.original).unwrap();
    }
}

pub fn session_storage() -> web_sys::Storage {
    web_sys::window()
        .unwrap()
        .session_storage()
        .unwrap()
        .unwrap()
}

pub fn local_storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// Sets the page's address without reloading, as the router would.
pub fn go_to(path: &str) {
    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some(path))
        .unwrap();
}

pub fn current_path() -> String {
    let location = web_sys::window().unwrap().location();
    format!(
        "{}{}",
        location.pathname().unwrap(),
        location.search().unwrap()
    )
}

/// A stored session acting with `key` as `user` (JSON of `users/current`), and the
/// address to start at.
pub fn signed_in_as(key: &str, user: &str, path: &str) {
    session_storage().clear().unwrap();
    session_storage()
        .set_item(
            "gpudeck.session",
            &format!(
                r#"{{"api_key": "{key}", "base_url": "{}", "user": {user}}}"#,
                gpudeck::session::own_origin()
            ),
        )
        .unwrap();
    go_to(path);
}

/// What the page reported as going wrong since [`record_page_errors`]: `console.error`
/// calls (a panic's message goes there) and uncaught errors (the trap that follows).
pub fn page_errors() -> Vec<String> {
    let recorded = js_sys::Reflect::get(&web_sys::window().unwrap(), &"__testPageErrors".into())
        .unwrap_or(JsValue::UNDEFINED);
    if recorded.is_undefined() {
        return vec!["the recorder is missing".into()];
    }
    js_sys::Array::from(&recorded)
        .iter()
        .map(|entry| entry.as_string().unwrap_or_default())
        .collect()
}

/// Starts (or restarts) the record that [`page_errors`] reads.
pub fn record_page_errors() {
    let install = js_sys::Function::new_no_args(
        r#"
        window.__testPageErrors = [];
        if (!window.__testRecorderInstalled) {
            window.__testRecorderInstalled = true;
            const originalError = console.error;
            console.error = (...args) => {
                window.__testPageErrors.push(args.map(String).join(' '));
                originalError.apply(console, args);
            };
            window.addEventListener('error', e => window.__testPageErrors.push(`error: ${e.message}`));
            window.addEventListener('unhandledrejection', e => window.__testPageErrors.push(`unhandled rejection: ${e.reason}`));
        }
        "#,
    );
    install.call0(&JsValue::NULL).unwrap();
}

/// The `data-key` of every column of the table inside `scope`, in order (the width
/// policy's "More" column, last while columns are folded, is not one of them).
pub fn column_keys(page: &Mounted, scope: &str) -> Vec<String> {
    page.all(&format!("{scope} thead th:not(.more)"))
        .iter()
        .map(|th| th.get_attribute("data-key").unwrap_or_default())
        .collect()
}

/// A table's shown rows, without the windowing's spacers.
pub const BODY_ROWS: &str = "tbody tr:not(.spacer)";

/// The text of each shown row's cell in the column `key` of the table inside `scope`.
pub fn column_texts(page: &Mounted, scope: &str, key: &str) -> Vec<String> {
    let index = column_keys(page, scope)
        .iter()
        .position(|k| k == key)
        .unwrap_or_else(|| panic!("no column {key} in {scope}"));
    page.all(&format!("{scope} {BODY_ROWS}"))
        .iter()
        .filter_map(|row| row.children().item(index as u32))
        .map(|cell| cell.text_content().unwrap_or_default())
        .collect()
}

/// The keys of the columns whose cells hold a button, in the table inside `scope`.
pub fn columns_with_buttons(page: &Mounted, scope: &str) -> Vec<String> {
    let keys = column_keys(page, scope);
    let mut found: Vec<String> = Vec::new();
    for row in page.all(&format!("{scope} {BODY_ROWS}")) {
        let cells = row.children();
        for index in 0..cells.length() {
            let cell = cells.item(index).unwrap();
            let more = cell.class_list().contains("more");
            if !more && cell.query_selector("button").unwrap().is_some() {
                let key = keys.get(index as usize).cloned().unwrap_or_default();
                if !found.contains(&key) {
                    found.push(key);
                }
            }
        }
    }
    found
}

/// The current value of the form field matching `selector` (input, textarea or select).
pub fn value_of(page: &Mounted, selector: &str) -> String {
    js_sys::Reflect::get(&page.get(selector), &"value".into())
        .unwrap()
        .as_string()
        .unwrap_or_default()
}

/// One machine of N1's answer: 4 RTX 4090s, `rentals` running, GPUs as `occupancy` says.
pub fn machine_json(id: i64, rentals: i64, occupancy: &str) -> String {
    format!(
        r#"{{"id": {id}, "machine_id": {id}, "hostname": "host-{id}", "gpu_name": "RTX 4090",
        "cpu_name": "EPYC", "driver_version": "550.54.14", "num_gpus": 4, "cpu_cores": 32,
        "current_rentals_running": {rentals}, "gpu_ram": 24564, "cpu_ram": 128000,
        "disk_space": 2000, "listed": true, "verification": "verified", "reliability2": 0.995,
        "gpu_occupancy": "{occupancy}", "geolocation": "Sweden, SE", "public_ipaddr": null,
        "timeout": 0, "listed_gpu_cost": 0.4, "min_bid_price": 0.2, "earn_day": 12.5}}"#
    )
}

/// One active window of seed op 1's answer: `hours` long from `start`, category `other`.
pub fn window_json(id: i64, machine_id: i64, start: f64, hours: i64) -> String {
    format!(
        r#"{{"id": {id}, "machine_id": {machine_id}, "start_time": {start},
        "duration_hours": {hours}, "maintenance_category": "other", "maintenance_reason": null,
        "created_at": {}, "cancelled_at": null, "end_time": {}}}"#,
        now(),
        start + hours as f64 * 3600.0
    )
}

/// A scripted reply's body made at run time (replies hold `&'static str`).
pub fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// Unix seconds, now.
pub fn now() -> f64 {
    js_sys::Date::now() / 1000.0
}

/// `2026-11-23T14:00` for Unix seconds `t`, in UTC: a `datetime-local` value.
pub fn typed(t: f64) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(t * 1000.0));
    String::from(date.to_iso_string())[..16].to_owned()
}

/// N1 (list machines)'s answer for a fleet of one machine, 1001, with one rental running.
pub const ONE_MACHINE: &str = r#"{"machines": [{"id": 1001, "machine_id": 1001,
    "hostname": "host-1001", "gpu_name": "RTX 4090", "cpu_name": "EPYC",
    "driver_version": "550.54.14", "num_gpus": 4, "cpu_cores": 32,
    "current_rentals_running": 1, "gpu_ram": 24564, "cpu_ram": 128000, "disk_space": 2000,
    "listed": true, "verification": "verified", "reliability2": 0.995,
    "gpu_occupancy": "D x x x", "geolocation": "Sweden, SE", "public_ipaddr": null,
    "timeout": 0, "listed_gpu_cost": 0.4, "min_bid_price": 0.2, "earn_day": 12.5}]}"#;
