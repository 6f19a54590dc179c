-- Fleet health §1.1 and §3.5. N1's report counts are read from `machine_reports` (all of a
-- machine's reports, and those of the last 7 days), so the stored counts go: they could
-- only drift from the reports D2 adds. SQLite drops a column whose CHECK constraint is its
-- own (0008's `num_recent_reports >= 0`); neither is indexed or named elsewhere.
ALTER TABLE machines DROP COLUMN num_reports;
ALTER TABLE machines DROP COLUMN num_recent_reports;

-- 1 while the machine is `deverified` only because D1 set an error on it when it was
-- verified: clearing that error restores `verified`. A machine deverified for any other
-- reason (the demo's, or D1's `verification`) keeps its state when its error clears.
ALTER TABLE machines ADD COLUMN deverified_by_error INTEGER NOT NULL DEFAULT 0
    CHECK (deverified_by_error IN (0, 1));
