-- Team management (N13–N19): the owner role is a flag, not a name; built-in roles carry a
-- system identifier; invitations are recorded (never e-mailed). Every new column has a
-- default, so existing rows stay valid.

-- One owner role per team, marked by a flag that no operation sets, clears or gives.
ALTER TABLE team_roles ADD COLUMN is_owner   INTEGER NOT NULL DEFAULT 0 CHECK (is_owner IN (0, 1));
-- `team_manager` / `team_member` for the built-in roles (N13's `identifier`); NULL for custom ones.
ALTER TABLE team_roles ADD COLUMN identifier TEXT;
-- Databases made before this migration knew the built-in roles only by their names: mark
-- them once, here. From now on the flag and the identifier, never the name, decide.
UPDATE team_roles SET is_owner = 1 WHERE name = 'owner';
UPDATE team_roles SET identifier = 'team_manager' WHERE name = 'manager';
UPDATE team_roles SET identifier = 'team_member' WHERE name = 'member';
CREATE UNIQUE INDEX team_roles_one_owner ON team_roles(team_id) WHERE is_owner = 1;
CREATE INDEX team_member_roles_role ON team_member_roles(role_id);

-- Invitations (N17, N17a). Only the SHA-256 of the random token is kept. A pending
-- invitation has expires_at > now; a newer one to the same address ends it (expires_at =
-- now). Rows are kept after they end: the last hour's rows are the team's quota. Deleting
-- a role ends its pending invitations first, then leaves role_id NULL.
CREATE TABLE team_invitations (
    id          INTEGER PRIMARY KEY,
    team_id     INTEGER NOT NULL REFERENCES teams(id),
    email       TEXT    NOT NULL,
    role_id     INTEGER REFERENCES team_roles(id) ON DELETE SET NULL,
    invited_by  INTEGER NOT NULL REFERENCES users(id),
    created_at  REAL    NOT NULL,
    expires_at  REAL    NOT NULL,
    token_hash  TEXT    NOT NULL UNIQUE
);
CREATE INDEX team_invitations_team ON team_invitations(team_id, created_at);
