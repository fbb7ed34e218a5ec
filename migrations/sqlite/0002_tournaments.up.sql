-- Tournaments of clubs: the minimal resource (entries, rounds, pairings,
-- standings and score sheets come in later migrations). The domain validates
-- rules, options, event and deals_per_round, so that a new rule set or event
-- needs no table rebuild; the status is the state machine, checked here too.

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id         INTEGER     NOT NULL REFERENCES clubs (id) ON DELETE RESTRICT,
    name            TEXT        NOT NULL,
    description     TEXT        NOT NULL DEFAULT '',
    rules           TEXT        NOT NULL,
    options         TEXT        NOT NULL DEFAULT '{}',
    players         INTEGER     NOT NULL CHECK (players IN (2, 4)),
    event           TEXT        NOT NULL,
    deals_per_round INTEGER     NOT NULL DEFAULT 3,
    starts_at       DATETIME    NOT NULL,
    status          TEXT        NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'running', 'finished')),
    created_at      DATETIME    NOT NULL,
    updated_at      DATETIME    NOT NULL
);
CREATE INDEX tournaments_club_id_idx ON tournaments (club_id);
CREATE INDEX tournaments_status_starts_at_idx ON tournaments (status, starts_at);
