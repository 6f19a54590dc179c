-- The maintenance list reads only active windows (not cancelled, ending after now). Over
-- time most of a machine's windows are history; an index over the uncancelled ones keyed
-- by machine and end lets the list skip the expired ones without reading them, so its
-- cost follows the ids asked and their active windows, not the size of the table.
-- The expression must stay identical to the one in the list's query for SQLite to use it.
DROP INDEX maintenances_machine_start;
CREATE INDEX maintenances_active_by_end
    ON maintenances(machine_id, (start_time + duration_hours * 3600.0))
    WHERE cancelled_at IS NULL;
