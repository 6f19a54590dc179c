//! The answers to the reads a page makes as it opens, asked for before the console's code
//! had arrived: by the served page (`boot.js`) for a page opened cold, by sign-in for the
//! page it is about to open. `first_reads.js` sends them and keeps their answers a few
//! seconds, for the same server and key only; [`take`] gives the client an answer instead
//! of sending the same request again. See docs/load-path.md.
//!
//! Without the script (the browser tests that do not load it) nothing is started or
//! offered, and every request is sent as it always is.

use super::client::ApiClient;
use super::InFlight;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = gpudeckFirstReads, js_name = start)]
    fn start_reads(
        table: &JsValue,
        base: &str,
        key: &str,
        user_id: Option<f64>,
        address: &str,
    ) -> Result<js_sys::Promise, JsValue>;

    /// `null`, or a promise of the answer's text or of `null`.
    #[wasm_bindgen(catch, js_namespace = gpudeckFirstReads, js_name = take)]
    fn take_answer(
        base: &str,
        key: &str,
        method: &str,
        url: &str,
        body: Option<&str>,
    ) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_namespace = gpudeckFirstReads, js_name = abandon)]
    fn abandon_reads() -> Result<(), JsValue>;

    #[wasm_bindgen(catch, js_namespace = gpudeckFirstReads, js_name = waiting)]
    fn answers_waiting() -> Result<bool, JsValue>;
}

/// Starts, for `client`'s key and server, the first reads of the page at `address` (with
/// its query) that do not need the signed-in user: sign-in's, before the key is known to
/// be accepted. Nothing leaves before the returned future is first polled; it ends once
/// each read has been sent or given up.
pub async fn start(client: &ApiClient, address: &str) {
    let path = address.split('?').next().unwrap_or_default();
    let Some(page) = gpudeck_pages::Page::at(path) else {
        return;
    };
    let Ok(table) = js_sys::JSON::parse(&gpudeck_pages::first_reads_json(&[], &[page])) else {
        return;
    };
    if let Ok(started) = start_reads(&table, client.base_url(), client.api_key(), None, address) {
        let _ = JsFuture::from(started).await;
    }
}

/// Stops whatever was started and drops every answer on offer: the key was refused, or
/// the session ended.
pub fn abandon() {
    let _ = abandon_reads();
}

/// Whether an answer started early is still on offer (sent, or answered but not taken).
pub fn any_on_offer() -> bool {
    answers_waiting().unwrap_or(false)
}

/// The text of the 2xx answer to the request `method url?query body`, when it was started
/// early for `client`'s server and key and is still on offer; taken once. `None` when there
/// is none, or it failed: the client then sends the request itself.
pub async fn take(
    client: &ApiClient,
    method: &str,
    url: &str,
    query: &[(&str, &str)],
    body: Option<&str>,
) -> Option<String> {
    let url = full_url(url, query)?;
    let offered = take_answer(client.base_url(), client.api_key(), method, &url, body).ok()?;
    // Nothing on offer is said at once, so that a request not started early is sent
    // without waiting a turn.
    let answer: js_sys::Promise = offered.dyn_into().ok()?;
    // Data a person waits for: no other page's code is preloaded meanwhile.
    let _awaited = InFlight::start();
    JsFuture::from(answer).await.ok()?.as_string()
}

/// `url` with `query`, as the browser writes it once gloo-net has sent it: what the
/// script's request was keyed by.
fn full_url(url: &str, query: &[(&str, &str)]) -> Option<String> {
    let full = web_sys::Url::new(url).ok()?;
    if !query.is_empty() {
        let params = web_sys::UrlSearchParams::new().ok()?;
        for (name, value) in query {
            params.append(name, value);
        }
        full.set_search(&String::from(params.to_string()));
    }
    Some(full.href())
}
