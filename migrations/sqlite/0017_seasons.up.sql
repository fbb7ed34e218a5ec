-- Issue 28, a club's seasons (stagioni) and their rankings. A season's
-- dates are UTC days (YYYY-MM-DD), both included; its ranking is computed
-- from the standings of the club's tournaments finished within them, never
-- stored. scheme: how players are ranked (domain.SeasonScheme), with its
-- settings. An exclusion takes one tournament out, with who, when and why.
CREATE TABLE seasons (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id        INTEGER      NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    name           TEXT        NOT NULL,
    starts_on      TEXT        NOT NULL,
    ends_on        TEXT        NOT NULL CHECK (ends_on >= starts_on),
    scheme         TEXT        NOT NULL CHECK (scheme IN ('placing_points', 'total_vp', 'average_vp')),
    points_step    INTEGER     NOT NULL DEFAULT 1,
    reference_size INTEGER     NOT NULL DEFAULT 0,
    min_evenings   INTEGER     NOT NULL DEFAULT 1,
    created_at     DATETIME    NOT NULL,
    updated_at     DATETIME    NOT NULL
);
CREATE INDEX seasons_club_idx ON seasons (club_id, starts_on);

CREATE TABLE season_exclusions (
    season_id     INTEGER      NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    tournament_id INTEGER      NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    reason        TEXT        NOT NULL,
    excluded_by   INTEGER      NOT NULL, -- the user's id; kept when the user is deleted
    created_at    DATETIME    NOT NULL,
    PRIMARY KEY (season_id, tournament_id)
);
CREATE INDEX season_exclusions_tournament_idx ON season_exclusions (tournament_id);
