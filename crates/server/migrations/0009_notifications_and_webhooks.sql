-- Notifications (spec fleet-health §3): preferences per user, type and channel, and
-- webhooks. Both belong to a user, never to a team. The type catalog is fixed in code
-- (src/notifications/catalog.rs), so keys are stored as text.

-- A channel's stored value for one type; a type never set reads as its defaults.
CREATE TABLE notification_preferences (
    user_id  INTEGER NOT NULL REFERENCES users(id),
    key      TEXT    NOT NULL,
    channel  TEXT    NOT NULL,
    enabled  INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (user_id, key, channel)
);

-- The secret is kept in clear: the server signs every delivery with it. `event_types` is
-- a JSON array of full keys, in the order subscribed. A URL is stored as given, once per
-- user.
CREATE TABLE webhooks (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users(id),
    name         TEXT,
    webhook_url  TEXT    NOT NULL,
    event_types  TEXT    NOT NULL,
    secret       TEXT    NOT NULL,
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    UNIQUE (user_id, webhook_url)
);
