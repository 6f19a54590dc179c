//! The SQLite database: a connection pool, the schema migrations and one module of
//! queries per resource. Handlers run queries through [`Db::run`], which moves the work to
//! tokio's blocking pool.
//!
//! Queries take ids and return domain results: `Option` for "no such thing", a refusal
//! enum where an operation can be refused, and [`DbError`] only for storage faults. What
//! those mean in HTTP is decided by the routes, never here.

pub mod earnings;
mod error;
pub mod fleet;
pub mod listing;
pub mod machine_health;
pub mod machines;
pub mod maintenance;
pub mod min_bid;
pub mod notifications;
pub mod reports;
pub mod team;
pub mod team_invites;
pub mod team_members;
pub mod team_roles;
pub mod templates;
pub mod users;
pub mod volumes;

use crate::config::DbLocation;
use crate::keys;
use anyhow::Context;
use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, TransactionBehavior};
use rusqlite_migration::{Migrations, M};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

pub use error::DbError;

/// The schema, oldest first. A migration, once released, is never edited: add a new one.
const MIGRATIONS: &[M<'static>] = &[
    M::up(include_str!("../../migrations/0001_init.sql")),
    M::up(include_str!(
        "../../migrations/0002_active_maintenance_index.sql"
    )),
    M::up(include_str!("../../migrations/0003_machines_and_hosts.sql")),
    M::up(include_str!(
        "../../migrations/0004_templates_volumes_subaccounts.sql"
    )),
    M::up(include_str!("../../migrations/0005_team_management.sql")),
    M::up(include_str!(
        "../../migrations/0006_offers_and_rental_contracts.sql"
    )),
    M::up(include_str!(
        "../../migrations/0007_contracts_lock_every_price.sql"
    )),
    M::up(include_str!("../../migrations/0008_machine_health.sql")),
    M::up(include_str!(
        "../../migrations/0009_notifications_and_webhooks.sql"
    )),
    M::up(include_str!(
        "../../migrations/0010_renter_reports_and_earnings.sql"
    )),
    M::up(include_str!(
        "../../migrations/0011_report_counts_and_error_deverification.sql"
    )),
];

/// How long a writer waits for another writer's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A pool of connections to one database.
#[derive(Clone)]
pub struct Db {
    pool: Pool<SqliteConnectionManager>,
    /// Keeps an in-memory database alive while the pool recycles connections.
    _anchor: Option<Arc<Mutex<Connection>>>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("state", &self.pool.state())
            .finish()
    }
}

fn configure(conn: &mut Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // `rarray(?)`: a list of ids as one parameter, so a query's text (and its cached
    // prepared statement) is the same however many ids are asked for.
    rusqlite::vtab::array::load_module(conn)?;
    Ok(())
}

impl Db {
    /// Opens (creating if needed) the database and brings its schema up to date.
    ///
    /// A file database uses WAL so readers never wait for the writer. An in-memory
    /// database is a named shared-cache database reached through a single pooled
    /// connection: shared-cache locks are table-level and do not honour the busy timeout,
    /// so one connection (writes serialised by the pool) is the robust choice.
    pub fn open(location: &DbLocation) -> anyhow::Result<Db> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let (manager, max_size, anchor) = match location {
            DbLocation::File(path) => {
                {
                    let conn = Connection::open_with_flags(path, flags)
                        .with_context(|| format!("opening database {}", path.display()))?;
                    conn.pragma_update(None, "journal_mode", "WAL")?;
                }
                (SqliteConnectionManager::file(path), 8, None)
            }
            DbLocation::Memory => {
                let uri = format!(
                    "file:gpudeck_mem_{}?mode=memory&cache=shared",
                    keys::generate_key()
                );
                let anchor = Connection::open_with_flags(&uri, flags)?;
                (
                    SqliteConnectionManager::file(uri),
                    1,
                    Some(Arc::new(Mutex::new(anchor))),
                )
            }
        };
        let manager = manager.with_flags(flags).with_init(configure);
        let pool = Pool::builder()
            .max_size(max_size)
            .idle_timeout(None)
            .max_lifetime(None)
            .connection_timeout(Duration::from_secs(30))
            .build(manager)
            .context("opening the connection pool")?;
        let db = Db {
            pool,
            _anchor: anchor,
        };
        db.with_conn(|conn| {
            Migrations::from_slice(MIGRATIONS).to_latest(conn)?;
            ensure_secret(conn)
        })
        .map_err(|e| anyhow::anyhow!("preparing the database: {e}"))?;
        Ok(db)
    }

    /// Runs `work` on a pooled connection, on the current thread (blocking).
    pub fn with_conn<T>(
        &self,
        work: impl FnOnce(&mut Connection) -> Result<T, DbError>,
    ) -> Result<T, DbError> {
        let mut conn = self.pool.get()?;
        work(&mut conn)
    }

    /// Runs `work` on a pooled connection in tokio's blocking pool.
    pub async fn run<T, F>(&self, work: F) -> Result<T, DbError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, DbError> + Send + 'static,
    {
        let db = self.clone();
        tokio::task::spawn_blocking(move || db.with_conn(work)).await?
    }

    /// The secret subaccount keys are derived from.
    pub fn secret(&self) -> Result<Vec<u8>, DbError> {
        self.with_conn(|conn| {
            Ok(
                conn.query_row("SELECT secret FROM server_secret WHERE id = 1", [], |r| {
                    r.get(0)
                })?,
            )
        })
    }
}

fn ensure_secret(conn: &mut Connection) -> Result<(), DbError> {
    let present: Option<i64> = conn
        .query_row("SELECT id FROM server_secret WHERE id = 1", [], |r| {
            r.get(0)
        })
        .optional()?;
    if present.is_none() {
        conn.execute(
            "INSERT INTO server_secret (id, secret) VALUES (1, ?1)",
            [keys::generate_secret().to_vec()],
        )?;
    }
    Ok(())
}

/// Writers take turns here before SQLite's write lock. Without it, concurrent writers meet
/// SQLITE_BUSY and SQLite's busy handler sleeps and retries with growing pauses, which gives
/// writes a long tail; waiting on this mutex is first come, first served.
/// One per process rather than per database: a process serves one database (tests that
/// open several only queue their writes a little).
static WRITER_TURN: Mutex<()> = Mutex::new(());

/// A write transaction holding the writers' turn until it commits or is dropped.
pub struct WriteTx<'c> {
    // Declared first so it ends (commit or rollback) before the turn is handed on.
    tx: Transaction<'c>,
    _turn: MutexGuard<'static, ()>,
}

impl WriteTx<'_> {
    pub fn commit(self) -> rusqlite::Result<()> {
        let WriteTx { tx, _turn } = self;
        tx.commit()
    }
}

impl<'c> std::ops::Deref for WriteTx<'c> {
    type Target = Transaction<'c>;
    fn deref(&self) -> &Transaction<'c> {
        &self.tx
    }
}

/// Starts a write transaction that takes the write lock at once, so two requests can
/// never both read a state and then both act on it.
pub fn write_tx(conn: &mut Connection) -> Result<WriteTx<'_>, DbError> {
    // A writer that panicked left no transaction open (it was rolled back on drop).
    let turn = WRITER_TURN
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    Ok(WriteTx {
        tx: conn.transaction_with_behavior(TransactionBehavior::Immediate)?,
        _turn: turn,
    })
}

/// `ids` as one `rarray(?)` parameter.
pub fn id_array(ids: &[i64]) -> rusqlite::vtab::array::Array {
    std::rc::Rc::new(ids.iter().map(|&id| id.into()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_databases_are_private_and_migrated() {
        let a = Db::open(&DbLocation::Memory).unwrap();
        let b = Db::open(&DbLocation::Memory).unwrap();
        a.with_conn(|c| {
            c.execute(
                "INSERT INTO users (email, username, created_at) VALUES ('x', 'x', 0)",
                [],
            )?;
            Ok(())
        })
        .unwrap();
        let count = |db: &Db| {
            db.with_conn(|c| {
                Ok(c.query_row("SELECT COUNT(*) FROM users", [], |r| r.get::<_, i64>(0))?)
            })
            .unwrap()
        };
        assert_eq!(count(&a), 1);
        assert_eq!(count(&b), 0);
        assert_eq!(a.secret().unwrap().len(), 32);
        assert_ne!(a.secret().unwrap(), b.secret().unwrap());
    }

    #[test]
    fn migration_5_flags_the_owner_roles_that_were_known_by_name() {
        let mut conn = Connection::open_in_memory().unwrap();
        Migrations::from_slice(&MIGRATIONS[..4])
            .to_latest(&mut conn)
            .unwrap();
        conn.execute_batch(
            "INSERT INTO users (id, email, username, created_at) VALUES (1, 'a@x', 'a', 0);
             INSERT INTO teams (id, name, owner_id) VALUES (1, 't', 1), (2, 'u', 1);
             INSERT INTO team_roles (id, team_id, name, permissions) VALUES
                 (1, 1, 'owner', '{}'), (2, 1, 'manager', '{}'), (3, 1, 'member', '{}'),
                 (4, 1, 'custom', '{}'), (5, 2, 'owner', '{}');",
        )
        .unwrap();
        Migrations::from_slice(MIGRATIONS)
            .to_latest(&mut conn)
            .unwrap();
        let mut statement = conn
            .prepare("SELECT id, is_owner, identifier FROM team_roles ORDER BY id")
            .unwrap();
        let roles: Vec<(i64, bool, Option<String>)> = statement
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let some = |s: &str| Some(s.to_owned());
        assert_eq!(
            roles,
            vec![
                (1, true, None),
                (2, false, some("team_manager")),
                (3, false, some("team_member")),
                (4, false, None),
                (5, true, None),
            ]
        );
        // One owner role per team.
        assert!(conn
            .execute("UPDATE team_roles SET is_owner = 1 WHERE id = 4", [])
            .is_err());
    }

    #[test]
    fn migration_6_turns_priced_listings_into_offers() {
        let mut conn = Connection::open_in_memory().unwrap();
        Migrations::from_slice(&MIGRATIONS[..5])
            .to_latest(&mut conn)
            .unwrap();
        conn.execute_batch(
            "INSERT INTO users (id, email, username, created_at) VALUES (1, 'a@x', 'a', 0);
             INSERT INTO machines (id, owner_id, hostname, num_gpus, listed, listed_gpu_cost,
                                   min_bid_price)
             VALUES (1, 1, 'listed', 8, 1, 0.5, 0.3), (2, 1, 'no floor', 4, 1, 0.4, NULL),
                    (3, 1, 'unlisted, priced', 2, 0, 0.2, 0.1), (4, 1, 'never priced', 1, 0, NULL, NULL);
             INSERT INTO contracts (id, machine_id, renter_id, slot_start, gpu_count)
             VALUES (9, 1, 1, 0, 2);",
        )
        .unwrap();
        Migrations::from_slice(MIGRATIONS)
            .to_latest(&mut conn)
            .unwrap();
        let mut statement = conn
            .prepare(
                "SELECT machine_id, price_gpu, price_min_bid, price_disk, min_chunk, end_date,
                        withdrawn_at
                 FROM offers ORDER BY machine_id",
            )
            .unwrap();
        type Row = (i64, f64, f64, f64, i64, Option<f64>, Option<f64>);
        let offers: Vec<Row> = statement
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            offers,
            vec![
                (1, 0.5, 0.3, 0.1, 1, None, None),
                (2, 0.4, 0.4, 0.1, 1, None, None),
                (3, 0.2, 0.1, 0.1, 1, None, Some(0.0)),
            ]
        );
        // Old contracts have no locked price and no end date: they run until stopped.
        let contract: (Option<f64>, Option<f64>) = conn
            .query_row(
                "SELECT price_gpu, end_date FROM contracts WHERE id = 9",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(contract, (None, None));
        assert!(conn.prepare("SELECT listed FROM machines").is_err());
    }

    #[test]
    fn migration_7_locks_the_offers_other_prices_on_priced_contracts() {
        let mut conn = Connection::open_in_memory().unwrap();
        Migrations::from_slice(&MIGRATIONS[..6])
            .to_latest(&mut conn)
            .unwrap();
        conn.execute_batch(
            "INSERT INTO users (id, email, username, created_at) VALUES (1, 'a@x', 'a', 0);
             INSERT INTO machines (id, owner_id, hostname, num_gpus) VALUES (1, 1, 'm', 8);
             INSERT INTO offers (machine_id, price_gpu, price_min_bid, price_disk, price_inetu)
             VALUES (1, 0.5, 0.3, 0.2, 0.01);
             INSERT INTO contracts (id, machine_id, renter_id, slot_start, gpu_count, price_gpu,
                                    end_date)
             VALUES (8, 1, 1, 0, 2, 0.5, 100.0), (9, 1, 1, 2, 2, NULL, NULL);",
        )
        .unwrap();
        Migrations::from_slice(MIGRATIONS)
            .to_latest(&mut conn)
            .unwrap();
        let locked = |id: i64| -> (Option<f64>, Option<f64>, Option<f64>) {
            conn.query_row(
                "SELECT price_disk, price_inetu, price_inetd FROM contracts WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap()
        };
        assert_eq!(locked(8), (Some(0.2), Some(0.01), None));
        // A contract from before 0006 locked nothing, and still locks nothing.
        assert_eq!(locked(9), (None, None, None));
    }

    #[test]
    fn file_databases_keep_their_secret_and_use_wal() {
        let dir = tempfile::tempdir().unwrap();
        let location = DbLocation::File(dir.path().join("t.sqlite"));
        let first = Db::open(&location).unwrap().secret().unwrap();
        let db = Db::open(&location).unwrap();
        assert_eq!(db.secret().unwrap(), first);
        let mode: String = db
            .with_conn(|c| Ok(c.query_row("PRAGMA journal_mode", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(mode, "wal");
        let fk: i64 = db
            .with_conn(|c| Ok(c.query_row("PRAGMA foreign_keys", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(fk, 1);
    }
}
