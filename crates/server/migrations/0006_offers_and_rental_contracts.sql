-- Neighbours §1.7, N22 and N23: a machine's offer with all its terms, and rental contracts
-- that lock their price and rental end date.

-- At most one offer per machine. The terms stay when the offer is withdrawn (N23) or its
-- end date passes, so the machine can be listed again. N1's `listed`: the row exists,
-- `withdrawn_at` is null and the end date (`end_date`, or now + `duration`) is null or
-- later than now.
CREATE TABLE offers (
    machine_id          INTEGER PRIMARY KEY REFERENCES machines(id),
    price_gpu           REAL    NOT NULL CHECK (price_gpu >= 0),
    price_min_bid       REAL    NOT NULL CHECK (price_min_bid >= 0),
    price_disk          REAL    NOT NULL DEFAULT 0.10 CHECK (price_disk >= 0),
    price_inetu         REAL    CHECK (price_inetu >= 0),
    price_inetd         REAL    CHECK (price_inetd >= 0),
    min_chunk           INTEGER NOT NULL DEFAULT 1 CHECK (min_chunk >= 1),
    credit_discount_max REAL    NOT NULL DEFAULT 0.4 CHECK (credit_discount_max BETWEEN 0 AND 1),
    -- The offer end date (Unix seconds); NULL: open-ended, or rolling when `duration` is set.
    end_date            REAL,
    -- A rolling offer's length in seconds: the end date is now + duration at every read.
    duration            REAL    CHECK (duration > 0),
    vol_size            INTEGER CHECK (vol_size >= 0),
    vol_price           REAL    CHECK (vol_price >= 0),
    -- Set by N23 (unlisting); NULL while the offer is up.
    withdrawn_at        REAL,
    CHECK (end_date IS NULL OR duration IS NULL)
);

-- The listings of migration 0003 become offers; an unlisted machine's prices were never
-- kept, so only priced machines get one.
INSERT INTO offers (machine_id, price_gpu, price_min_bid, withdrawn_at)
    SELECT id, listed_gpu_cost, COALESCE(min_bid_price, listed_gpu_cost),
           CASE WHEN listed = 1 THEN NULL ELSE 0 END
    FROM machines WHERE listed_gpu_cost IS NOT NULL;
ALTER TABLE machines DROP COLUMN listed;
ALTER TABLE machines DROP COLUMN listed_gpu_cost;
ALTER TABLE machines DROP COLUMN min_bid_price;

-- A contract locks the offer's price_gpu ($/GPU-hour) and takes its end date as the rental
-- end date (NULL: none, it ends when the renter stops it). Active while end_date is NULL or
-- later than now; an ended contract is no running rental and holds no GPU slot.
-- Contracts from before this migration have neither.
ALTER TABLE contracts ADD COLUMN price_gpu REAL CHECK (price_gpu >= 0);
ALTER TABLE contracts ADD COLUMN end_date  REAL;
