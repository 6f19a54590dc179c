-- gpudeck reference server: initial schema.
-- Times are Unix seconds (REAL). Money is US dollars (REAL).

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    email       TEXT    NOT NULL,
    username    TEXT    NOT NULL,
    fullname    TEXT    NOT NULL DEFAULT '',
    balance     REAL    NOT NULL DEFAULT 0,
    -- Set for subaccounts: the account that owns them.
    parent_id   INTEGER REFERENCES users(id),
    created_at  REAL    NOT NULL
);
CREATE INDEX users_parent ON users(parent_id);

CREATE TABLE teams (
    id        INTEGER PRIMARY KEY,
    name      TEXT    NOT NULL,
    owner_id  INTEGER NOT NULL REFERENCES users(id)
);
CREATE INDEX teams_owner ON teams(owner_id);

-- Only the SHA-256 of a key is stored. A key with team_id acts through the member's
-- roles in that team; without, it is a personal key with every permission.
CREATE TABLE api_keys (
    key_hash    TEXT    PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    team_id     INTEGER REFERENCES teams(id),
    created_at  REAL    NOT NULL
);

CREATE TABLE team_roles (
    id           INTEGER PRIMARY KEY,
    team_id      INTEGER NOT NULL REFERENCES teams(id),
    name         TEXT    NOT NULL,
    permissions  TEXT    NOT NULL,
    UNIQUE (team_id, name)
);

CREATE TABLE team_members (
    id          INTEGER PRIMARY KEY,
    team_id     INTEGER NOT NULL REFERENCES teams(id),
    user_id     INTEGER NOT NULL REFERENCES users(id),
    removed_at  REAL
);
CREATE INDEX team_members_team ON team_members(team_id, user_id);
CREATE INDEX team_members_user ON team_members(user_id);

CREATE TABLE team_member_roles (
    member_id  INTEGER NOT NULL REFERENCES team_members(id),
    role_id    INTEGER NOT NULL REFERENCES team_roles(id),
    PRIMARY KEY (member_id, role_id)
);

CREATE TABLE machines (
    id        INTEGER PRIMARY KEY,
    owner_id  INTEGER NOT NULL REFERENCES users(id),
    hostname  TEXT    NOT NULL,
    num_gpus  INTEGER NOT NULL CHECK (num_gpus >= 1)
);
CREATE INDEX machines_owner ON machines(owner_id);

-- GPU slot assignments: a contract holds slots [slot_start, slot_start + gpu_count).
CREATE TABLE contracts (
    id          INTEGER PRIMARY KEY,
    machine_id  INTEGER NOT NULL REFERENCES machines(id),
    renter_id   INTEGER NOT NULL REFERENCES users(id),
    slot_start  INTEGER NOT NULL CHECK (slot_start >= 0),
    gpu_count   INTEGER NOT NULL CHECK (gpu_count >= 1)
);
CREATE INDEX contracts_machine ON contracts(machine_id);

CREATE TABLE maintenances (
    id              INTEGER PRIMARY KEY,
    machine_id      INTEGER NOT NULL REFERENCES machines(id),
    start_time      REAL    NOT NULL,
    duration_hours  INTEGER NOT NULL CHECK (duration_hours >= 1),
    category        TEXT    NOT NULL
        CHECK (category IN ('power', 'internet', 'disk', 'gpu', 'software', 'other')),
    reason          TEXT,
    created_at      REAL    NOT NULL,
    cancelled_at    REAL
);
-- The list follows the ids asked for, then orders by start.
CREATE INDEX maintenances_machine_start ON maintenances(machine_id, start_time);

CREATE TABLE templates (
    id          INTEGER PRIMARY KEY,
    owner_id    INTEGER NOT NULL REFERENCES users(id),
    name        TEXT    NOT NULL,
    deleted_at  REAL
);
CREATE INDEX templates_owner ON templates(owner_id);

-- Other users' relationships to a template (e.g. instances created from it).
CREATE TABLE template_usage (
    template_id  INTEGER NOT NULL REFERENCES templates(id),
    user_id      INTEGER NOT NULL REFERENCES users(id),
    active       INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    PRIMARY KEY (template_id, user_id)
);

CREATE TABLE volume_asks (
    id          INTEGER PRIMARY KEY,
    machine_id  INTEGER NOT NULL REFERENCES machines(id),
    disk_space  INTEGER NOT NULL CHECK (disk_space >= 0)
);

CREATE TABLE volumes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    ask_id      INTEGER NOT NULL REFERENCES volume_asks(id),
    owner_id    INTEGER NOT NULL REFERENCES users(id),
    size        INTEGER NOT NULL CHECK (size >= 1),
    created_at  REAL    NOT NULL
);
CREATE INDEX volumes_ask ON volumes(ask_id);
-- Volume ids start high so names look like the public service's (`V.20118481`).
INSERT INTO sqlite_sequence (name, seq) VALUES ('volumes', 20118480);

-- One row: the secret subaccount keys are derived from.
CREATE TABLE server_secret (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    secret  BLOB    NOT NULL
);
