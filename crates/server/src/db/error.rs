//! What can go wrong in the storage layer itself, as opposed to a request being refused.
//!
//! A [`DbError`] is always the server's fault (a broken database, a full pool, a task that
//! died): the HTTP layer answers it with a 500 and logs the cause. Refusals (an unknown
//! template, a full volume ask) are not errors here; each query returns them as its own
//! domain type next to its result.

/// A storage fault. Its text names the cause for the log; it is never sent to a client.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("connection pool: {0}")]
    Pool(#[from] r2d2::Error),
    #[error("migrating: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// A JSON column (role permissions) that does not parse.
    #[error("stored json: {0}")]
    StoredJson(#[from] serde_json::Error),
    /// The blocking task running the query panicked or was cancelled.
    #[error("database task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}
