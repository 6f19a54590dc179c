-- Neighbours N8–N12 and N20: what template search and the library show, volume offers
-- with prices and lifetimes, deleted volumes and the instances that use them, and
-- subaccounts created through the interface. Every new column has a default, so existing
-- rows stay valid.

-- Templates (N8, N9). `hash_id` is 32 lower-case hex characters; `updated_at` orders the
-- library; `count_created` and `recent_create_date` count instances created from it.
ALTER TABLE templates ADD COLUMN hash_id                TEXT    NOT NULL DEFAULT '';
ALTER TABLE templates ADD COLUMN image                  TEXT    NOT NULL DEFAULT '';
ALTER TABLE templates ADD COLUMN tag                    TEXT    NOT NULL DEFAULT 'latest';
ALTER TABLE templates ADD COLUMN private                INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1));
ALTER TABLE templates ADD COLUMN created_at             REAL    NOT NULL DEFAULT 0;
ALTER TABLE templates ADD COLUMN updated_at             REAL    NOT NULL DEFAULT 0;
ALTER TABLE templates ADD COLUMN count_created          INTEGER NOT NULL DEFAULT 0 CHECK (count_created >= 0);
ALTER TABLE templates ADD COLUMN recent_create_date     REAL;
ALTER TABLE templates ADD COLUMN env                    TEXT;
ALTER TABLE templates ADD COLUMN onstart                TEXT;
ALTER TABLE templates ADD COLUMN description            TEXT;
ALTER TABLE templates ADD COLUMN runtype                TEXT    NOT NULL DEFAULT 'args'
    CHECK (runtype IN ('ssh', 'jupyter', 'args'));
ALTER TABLE templates ADD COLUMN recommended_disk_space REAL    NOT NULL DEFAULT 8;

-- Volume asks (N10): price in $/GB/month, lifetime, disk. Reliability, bandwidth, location,
-- driver and verification are the machine's. An ask is an offer while end_date > now.
ALTER TABLE volume_asks ADD COLUMN storage_cost REAL    NOT NULL DEFAULT 0.1 CHECK (storage_cost >= 0);
ALTER TABLE volume_asks ADD COLUMN start_date   REAL    NOT NULL DEFAULT 0;
ALTER TABLE volume_asks ADD COLUMN end_date     REAL    NOT NULL DEFAULT 0;
ALTER TABLE volume_asks ADD COLUMN disk_bw      REAL    NOT NULL DEFAULT 0;
ALTER TABLE volume_asks ADD COLUMN disk_name    TEXT    NOT NULL DEFAULT '';
ALTER TABLE volume_asks ADD COLUMN static_ip    INTEGER NOT NULL DEFAULT 0 CHECK (static_ip IN (0, 1));
ALTER TABLE volume_asks ADD COLUMN external     INTEGER NOT NULL DEFAULT 0 CHECK (external IN (0, 1));

-- Volumes (N11, N12): a label, a status, and soft deletion; a deleted volume's size
-- returns to its ask.
ALTER TABLE volumes ADD COLUMN label      TEXT;
ALTER TABLE volumes ADD COLUMN status     TEXT NOT NULL DEFAULT 'active';
ALTER TABLE volumes ADD COLUMN deleted_at REAL;
CREATE INDEX volumes_owner ON volumes(owner_id);

-- Instances, only as far as volumes need them: one using a volume (running or stopped)
-- blocks its deletion until the instance is destroyed.
CREATE TABLE instances (
    id            INTEGER PRIMARY KEY,
    owner_id      INTEGER NOT NULL REFERENCES users(id),
    machine_id    INTEGER NOT NULL REFERENCES machines(id),
    volume_id     INTEGER REFERENCES volumes(id),
    status        TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'stopped')),
    destroyed_at  REAL
);
CREATE INDEX instances_volume ON instances(volume_id);

-- Subaccounts created through the interface (N20): a salted slow hash of the password,
-- never the password; the account type and an optional SSH key.
ALTER TABLE users ADD COLUMN password_hash TEXT;
ALTER TABLE users ADD COLUMN host_only     INTEGER NOT NULL DEFAULT 0 CHECK (host_only IN (0, 1));
ALTER TABLE users ADD COLUMN ssh_key       TEXT;
