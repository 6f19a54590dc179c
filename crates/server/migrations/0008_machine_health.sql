-- The health signals of N1 (fleet-health §1.1). NULL in a column whose value the reference
-- server derives (temperature, ports, disk, TFLOPS) means "derive it": db/fleet.rs does,
-- so a machine stores only what differs from the specified default.

-- The machine's current error, and an error about its VM instances; NULL when none.
ALTER TABLE machines ADD COLUMN error_description  TEXT;
ALTER TABLE machines ADD COLUMN vm_error_msg       TEXT;
-- Renter reports of the last 7 days (num_reports counts them all).
ALTER TABLE machines ADD COLUMN num_recent_reports INTEGER NOT NULL DEFAULT 0
    CHECK (num_recent_reports >= 0);
-- Disk in GB: total (NULL: disk_space), allocated to rentals (NULL: 100 per rented GPU)
-- and free (NULL: total less allocated).
ALTER TABLE machines ADD COLUMN max_disk_space     REAL;
ALTER TABLE machines ADD COLUMN alloc_disk_space   REAL;
ALTER TABLE machines ADD COLUMN avail_disk_space   REAL;
-- Host OS versions.
ALTER TABLE machines ADD COLUMN kernel_version     TEXT DEFAULT '6.8.0-45-generic';
ALTER TABLE machines ADD COLUMN ubuntu_version     TEXT DEFAULT '22.04';
-- The hottest GPU's temperature in °C (NULL: 40 + (id × 7) mod 36).
ALTER TABLE machines ADD COLUMN gpu_max_cur_temp   REAL;
-- Open ports (NULL: 100 per GPU) and PCIe bandwidth in GB/s.
ALTER TABLE machines ADD COLUMN direct_port_count  INTEGER;
ALTER TABLE machines ADD COLUMN pcie_bw            REAL DEFAULT 24.6;
