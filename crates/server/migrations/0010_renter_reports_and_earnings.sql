-- Fleet health §2 and §4 (N24, N34): what renters reported on a machine, and what each
-- machine earned per day. Both are seeded by the demo; reports are also added by D2.

-- A renter's report on a machine. `message` is kept to 512 characters, as the public
-- service truncates it; `created_at` is Unix seconds.
CREATE TABLE machine_reports (
    id           INTEGER PRIMARY KEY,
    machine_id   INTEGER NOT NULL REFERENCES machines(id),
    reporter_id  INTEGER NOT NULL REFERENCES users(id),
    instance_id  INTEGER,
    problem      TEXT    NOT NULL CHECK (length(problem) BETWEEN 1 AND 200),
    message      TEXT    NOT NULL CHECK (length(message) <= 512),
    created_at   REAL    NOT NULL
);
-- N24 reads a machine's newest 20.
CREATE INDEX machine_reports_newest ON machine_reports(machine_id, created_at DESC, id DESC);

-- Earnings of one machine on one UTC day (days since 1970-01-01), in US dollars. A day
-- without a row earned nothing.
CREATE TABLE machine_earnings (
    machine_id  INTEGER NOT NULL REFERENCES machines(id),
    day         INTEGER NOT NULL CHECK (day >= 0),
    gpu_earn    REAL    NOT NULL DEFAULT 0 CHECK (gpu_earn >= 0),
    sto_earn    REAL    NOT NULL DEFAULT 0 CHECK (sto_earn >= 0),
    bwu_earn    REAL    NOT NULL DEFAULT 0 CHECK (bwu_earn >= 0),
    bwd_earn    REAL    NOT NULL DEFAULT 0 CHECK (bwd_earn >= 0),
    sla_earn    REAL    NOT NULL DEFAULT 0,
    PRIMARY KEY (machine_id, day)
) WITHOUT ROWID;
