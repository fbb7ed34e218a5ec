-- Users, sessions, clubs, memberships, players and settings.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    email         TEXT        NOT NULL CHECK (email = lower(email)),
    name          TEXT        NOT NULL,
    password_hash TEXT        NOT NULL,
    site_admin    BOOLEAN     NOT NULL DEFAULT 0,
    created_at    DATETIME    NOT NULL,
    updated_at    DATETIME    NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE INDEX users_site_admin_idx ON users (site_admin) WHERE site_admin = 1;

CREATE TABLE refresh_tokens (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family_id  TEXT        NOT NULL,
    token_hash TEXT        NOT NULL,
    created_at DATETIME    NOT NULL,
    expires_at DATETIME    NOT NULL,
    rotated_at DATETIME,
    revoked_at DATETIME
);
CREATE UNIQUE INDEX refresh_tokens_token_hash_key ON refresh_tokens (token_hash);
CREATE INDEX refresh_tokens_family_id_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_id_idx ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_expires_at_idx ON refresh_tokens (expires_at);

CREATE TABLE clubs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT        NOT NULL,
    city        TEXT        NOT NULL DEFAULT '',
    description TEXT        NOT NULL DEFAULT '',
    created_at  DATETIME    NOT NULL,
    updated_at  DATETIME    NOT NULL
);
CREATE INDEX clubs_name_idx ON clubs (name, id);

CREATE TABLE memberships (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id    INTEGER     NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    user_id    INTEGER     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT        NOT NULL CHECK (role IN ('member', 'referee', 'admin', 'owner')),
    created_at DATETIME    NOT NULL,
    updated_at DATETIME    NOT NULL
);
CREATE UNIQUE INDEX memberships_club_id_user_id_key ON memberships (club_id, user_id);
CREATE INDEX memberships_user_id_idx ON memberships (user_id);

CREATE TABLE players (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    name          TEXT        NOT NULL,
    federation_id TEXT,
    club_id       INTEGER REFERENCES clubs (id) ON DELETE SET NULL,
    created_at    DATETIME    NOT NULL,
    updated_at    DATETIME    NOT NULL
);
CREATE UNIQUE INDEX players_federation_id_key ON players (federation_id) WHERE federation_id IS NOT NULL;
CREATE UNIQUE INDEX players_user_id_key ON players (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX players_club_id_idx ON players (club_id);
CREATE INDEX players_name_idx ON players (name, id);

CREATE TABLE settings (
    name       TEXT PRIMARY KEY,
    value      TEXT        NOT NULL,
    created_at DATETIME    NOT NULL,
    updated_at DATETIME    NOT NULL
);
