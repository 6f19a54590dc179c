//! One error for every way a request can fail, shown the same way on every page.

use gpudeck_wire::ErrorBody;

/// The longest server text kept in an error; some answers are whole HTML pages.
const MAX_MESSAGE_CHARS: usize = 300;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The server answered with a failure status.
    #[error("{status}{}: {msg}", code_suffix(.error))]
    Http {
        status: u16,
        /// The `error` field of a JSON body, when there was one.
        error: Option<String>,
        /// The `msg` of a JSON body, else the plain-text body, else the status text.
        msg: String,
    },
    /// The server answered 2xx, but not with the shape the interface specifies.
    #[error("unexpected answer from the server: {0}")]
    Decode(String),
    /// The request did not reach the server, or no answer came back.
    #[error("could not reach the server: {0}")]
    Network(String),
    /// The page that asked was left; nobody is waiting for the answer.
    #[error("request cancelled")]
    Aborted,
}

fn code_suffix(error: &Option<String>) -> String {
    match error {
        Some(code) if !code.is_empty() => format!(" {code}"),
        _ => String::new(),
    }
}

impl ApiError {
    /// Builds the error for a failure status from whatever body came with it: JSON
    /// `{error, msg}` (extra fields or only one of the two are fine) or plain text.
    pub fn from_response(status: u16, status_text: &str, body: &str) -> Self {
        let (error, msg) = match serde_json::from_str::<ErrorBody>(body) {
            Ok(parsed) if !parsed.msg.is_empty() || !parsed.error.is_empty() => {
                let msg = if parsed.msg.is_empty() {
                    parsed.error.clone()
                } else {
                    parsed.msg
                };
                (Some(parsed.error).filter(|e| !e.is_empty()), msg)
            }
            _ if !body.trim().is_empty() => (None, body.trim().to_owned()),
            _ if !status_text.is_empty() => (None, status_text.to_owned()),
            _ => (None, format!("the server answered {status}")),
        };
        ApiError::Http {
            status,
            error,
            msg: truncate(&msg),
        }
    }

    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The sentence to show people.
    pub fn message(&self) -> String {
        match self {
            ApiError::Http { msg, .. } => msg.clone(),
            other => other.to_string(),
        }
    }

    pub fn is_unauthorised(&self) -> bool {
        self.status() == Some(401)
    }

    /// Whether trying a read again may help: rate limits, gateway trouble, the network.
    pub fn is_transient(&self) -> bool {
        match self {
            ApiError::Http { status, .. } => matches!(status, 429 | 502 | 503 | 504),
            ApiError::Network(_) => true,
            ApiError::Decode(_) | ApiError::Aborted => false,
        }
    }

    /// Replaces any occurrence of `secret` in the texts, so a server that echoes the key
    /// can not put it on screen.
    pub fn redact(self, secret: &str) -> Self {
        if secret.len() < 4 {
            return self;
        }
        let clean = |text: String| text.replace(secret, "[redacted]");
        match self {
            ApiError::Http { status, error, msg } => ApiError::Http {
                status,
                error: error.map(clean),
                msg: clean(msg),
            },
            ApiError::Decode(text) => ApiError::Decode(clean(text)),
            ApiError::Network(text) => ApiError::Network(clean(text)),
            ApiError::Aborted => ApiError::Aborted,
        }
    }
}

fn truncate(text: &str) -> String {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}
