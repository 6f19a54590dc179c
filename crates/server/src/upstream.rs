//! Forwarding mode: every `/api/v0/...` request goes verbatim to an upstream service (the
//! public marketplace, or another instance of this server), and its answer comes back
//! as it was. The local database and keys are not consulted.

use crate::error::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{ACCEPT, AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderName, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::time::Duration;

/// Request headers passed on; everything else (cookies, hop-by-hop headers) stays here.
const REQUEST_HEADERS: [HeaderName; 3] = [AUTHORIZATION, CONTENT_TYPE, ACCEPT];
/// Response headers passed back.
const RESPONSE_HEADERS: [HeaderName; 3] = [CONTENT_TYPE, CACHE_CONTROL, RETRY_AFTER];

/// The upstream's base URL and an HTTP client for it.
#[derive(Debug, Clone)]
pub struct Upstream {
    base: String,
    /// The base URL's host (and port, when it names one): all the console is told.
    host: String,
    client: reqwest::Client,
}

/// Marks a response as the upstream's own, so local error shaping leaves it alone.
#[derive(Debug, Clone, Copy)]
pub struct Forwarded;

impl Upstream {
    pub fn new(base: &str) -> anyhow::Result<Self> {
        let parsed: reqwest::Url = base
            .parse()
            .map_err(|e| anyhow::anyhow!("--upstream {base:?} is not a URL: {e}"))?;
        anyhow::ensure!(
            matches!(parsed.scheme(), "http" | "https"),
            "--upstream must be an http:// or https:// URL"
        );
        let host = match (parsed.host_str(), parsed.port()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (Some(host), None) => host.to_owned(),
            (None, _) => anyhow::bail!("--upstream {base:?} names no host"),
        };
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(Self {
            base: base.trim_end_matches('/').to_owned(),
            host,
            client,
        })
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    pub fn host(&self) -> &str {
        &self.host
    }

    /// Fails, saying why, when the upstream does not answer HTTP at all. Any answer will
    /// do, a refusal of the missing key included: it only tells that something listens.
    pub async fn check_answers(&self) -> anyhow::Result<()> {
        let url = format!("{}{}", self.base, gpudeck_wire::paths::CURRENT_USER);
        match self
            .client
            .get(url)
            .timeout(Duration::from_secs(15))
            .send()
            .await
        {
            Ok(_) => Ok(()),
            Err(error) => anyhow::bail!(
                "the upstream {} does not answer ({}); check the URL and your network",
                self.base,
                error.without_url()
            ),
        }
    }

    /// Forwards one request. `original` is the URI the client sent (before the trailing
    /// slash was trimmed), so the upstream sees exactly what the client asked for.
    pub async fn forward(&self, original: &Uri, request: Request, body_limit: usize) -> Response {
        let (parts, body) = request.into_parts();
        let body = match axum::body::to_bytes(body, body_limit).await {
            Ok(bytes) => bytes,
            Err(_) => return ApiError::too_large(body_limit).into_response(),
        };
        let path_and_query = original
            .path_and_query()
            .map(|pq| pq.as_str())
            .unwrap_or("/");
        let url = format!("{}{}", self.base, path_and_query);
        let mut outgoing = self.client.request(parts.method.clone(), url).body(body);
        for name in REQUEST_HEADERS {
            for value in parts.headers.get_all(&name) {
                outgoing = outgoing.header(&name, value);
            }
        }
        let answer = match outgoing.send().await {
            Ok(answer) => answer,
            Err(error) => {
                tracing::warn!(error = %error.without_url(), "upstream request failed");
                return ApiError::new(
                    StatusCode::BAD_GATEWAY,
                    "upstream_unreachable",
                    "the upstream service could not be reached",
                )
                .into_response();
            }
        };
        let mut response = Response::builder().status(answer.status().as_u16());
        for name in RESPONSE_HEADERS {
            if let Some(value) = answer.headers().get(&name) {
                response = response.header(&name, value.as_bytes());
            }
        }
        match response
            .extension(Forwarded)
            .body(Body::from_stream(answer.bytes_stream()))
        {
            Ok(response) => response,
            Err(error) => ApiError::internal(format!("building the forwarded answer: {error}"))
                .into_response(),
        }
    }
}
