-- Back to the status set of 0002: the statuses of the lifecycle map to the
-- nearest old one (a cancelled tournament becomes finished, it is over, or a
-- draft again if it was cancelled before it ever opened). The
-- set-up, referees, event log and idempotency keys are dropped.
DROP TABLE tournament_idempotency;
DROP TABLE tournament_events;
DROP TABLE tournament_referees;

CREATE TABLE tournaments_old (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id           INTEGER     NOT NULL REFERENCES clubs (id) ON DELETE RESTRICT,
    name              TEXT        NOT NULL,
    description       TEXT        NOT NULL DEFAULT '',
    rules             TEXT        NOT NULL,
    options           TEXT        NOT NULL DEFAULT '{}',
    players_per_table INTEGER     NOT NULL CHECK (players_per_table IN (2, 4)),
    kind              TEXT        NOT NULL,
    deals_per_round   INTEGER     NOT NULL DEFAULT 3,
    starts_at         DATETIME    NOT NULL,
    status            TEXT        NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'running', 'finished')),
    created_at        DATETIME    NOT NULL,
    updated_at        DATETIME    NOT NULL,
    search            TEXT        NOT NULL DEFAULT ''
);
INSERT INTO tournaments_old (id, club_id, name, description, rules, options, players_per_table, kind,
        deals_per_round, starts_at, status, created_at, updated_at, search)
    SELECT id, club_id, name, description, rules, options, players_per_table, kind, deals_per_round, starts_at,
        CASE status
            WHEN 'registration_open' THEN 'published'
            WHEN 'registration_closed' THEN 'published'
            WHEN 'results_published' THEN 'finished'
            WHEN 'cancelled' THEN CASE WHEN opened_at IS NULL THEN 'draft' ELSE 'finished' END
            ELSE status
        END,
        created_at, updated_at, search
    FROM tournaments;
DELETE FROM sqlite_sequence WHERE name = 'tournaments_old';
INSERT INTO sqlite_sequence (name, seq) SELECT 'tournaments_old', seq FROM sqlite_sequence WHERE name = 'tournaments';
DROP TABLE tournaments;
ALTER TABLE tournaments_old RENAME TO tournaments;
CREATE INDEX tournaments_club_id_idx ON tournaments (club_id);
CREATE INDEX tournaments_status_starts_at_idx ON tournaments (status, starts_at);
