-- Neighbours N1–N7 and N21: what a host sees of its machines, who scheduled a window, and
-- which users host. Every new column has a default, so existing rows stay valid.

-- Hardware, listing and earnings of a machine (N1). Units: gpu_ram per GPU in MB, cpu_ram
-- in MB, disk_space in GB, prices in $/GPU-hour, earnings in $, inet in Mbps.
ALTER TABLE machines ADD COLUMN gpu_name       TEXT    NOT NULL DEFAULT '';
ALTER TABLE machines ADD COLUMN gpu_ram        REAL    NOT NULL DEFAULT 0;
ALTER TABLE machines ADD COLUMN cpu_name       TEXT    NOT NULL DEFAULT '';
ALTER TABLE machines ADD COLUMN cpu_cores      INTEGER NOT NULL DEFAULT 1 CHECK (cpu_cores >= 1);
ALTER TABLE machines ADD COLUMN cpu_ram        REAL    NOT NULL DEFAULT 0;
ALTER TABLE machines ADD COLUMN disk_space     REAL    NOT NULL DEFAULT 0;
ALTER TABLE machines ADD COLUMN driver_version TEXT    NOT NULL DEFAULT '';
ALTER TABLE machines ADD COLUMN cuda_max_good  REAL;
ALTER TABLE machines ADD COLUMN geolocation    TEXT;
ALTER TABLE machines ADD COLUMN public_ipaddr  TEXT;
ALTER TABLE machines ADD COLUMN inet_up        REAL;
ALTER TABLE machines ADD COLUMN inet_down      REAL;
ALTER TABLE machines ADD COLUMN hosting_type   INTEGER;
-- Whether the machine has active offers, and at what prices.
ALTER TABLE machines ADD COLUMN listed          INTEGER NOT NULL DEFAULT 0 CHECK (listed IN (0, 1));
ALTER TABLE machines ADD COLUMN listed_gpu_cost REAL;
ALTER TABLE machines ADD COLUMN min_bid_price   REAL;
ALTER TABLE machines ADD COLUMN verification    TEXT NOT NULL DEFAULT 'unverified'
    CHECK (verification IN ('verified', 'unverified', 'deverified'));
ALTER TABLE machines ADD COLUMN reliability2    REAL NOT NULL DEFAULT 0
    CHECK (reliability2 BETWEEN 0 AND 1);
ALTER TABLE machines ADD COLUMN num_reports     INTEGER NOT NULL DEFAULT 0;
ALTER TABLE machines ADD COLUMN earn_hour       REAL NOT NULL DEFAULT 0;
ALTER TABLE machines ADD COLUMN earn_day        REAL NOT NULL DEFAULT 0;
-- When the machine was last seen, if it is offline; NULL while online. N1's `timeout` is
-- the seconds since then.
ALTER TABLE machines ADD COLUMN offline_since   REAL;

-- The kind of rental a contract is: D on-demand, R reserved, I interruptible. N1's
-- `gpu_occupancy` shows it on each slot the contract covers.
ALTER TABLE contracts ADD COLUMN kind TEXT NOT NULL DEFAULT 'D' CHECK (kind IN ('D', 'R', 'I'));

-- A window the marketplace itself scheduled; the host cannot cancel it (N5–N7). Set only by
-- seeding or administration.
ALTER TABLE maintenances ADD COLUMN scheduled_by_marketplace INTEGER NOT NULL DEFAULT 0
    CHECK (scheduled_by_marketplace IN (0, 1));

-- The user hosts machines (N21).
ALTER TABLE users ADD COLUMN host_agreement_accepted INTEGER NOT NULL DEFAULT 0
    CHECK (host_agreement_accepted IN (0, 1));
