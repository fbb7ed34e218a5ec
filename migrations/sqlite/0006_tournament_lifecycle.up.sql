-- Tournaments from registration to published results (issue 8): the
-- lifecycle as the status set, the set-up of the event, its referees, the
-- append-only log of what happened in it (its state is the fold of the log)
-- and the first answers to requests sent with an Idempotency-Key.
--
-- SQLite cannot change a CHECK constraint, so tournaments is rebuilt: the
-- rows (ids, search column and the AUTOINCREMENT counter included) are
-- copied, "published" becoming "registration_open". Nothing references
-- tournaments yet, so the rebuild needs no foreign-key dance. The domain
-- validates the set-up (movement, VP table, tie-breaks, ...) so that a new
-- movement needs no rebuild; only the status, the state machine, is
-- checked here too.
--
-- deals_per_round is now 2, 3 or 4 (RULES §10): values outside are brought
-- to the nearest. opened_at is when the tournament first left draft; a
-- tournament is public once it has one (a draft cancelled before it opened
-- stays hidden). lots_seed is the seed of the recorded draw of lots (a
-- uint64 in decimal); this migration's Go step draws one for every existing
-- row. version is the sequence number of the last event of the log.

CREATE TABLE tournaments_new (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id             INTEGER  NOT NULL REFERENCES clubs (id) ON DELETE RESTRICT,
    name                TEXT     NOT NULL,
    description         TEXT     NOT NULL DEFAULT '',
    rules               TEXT     NOT NULL,
    options             TEXT     NOT NULL DEFAULT '{}',
    players_per_table   INTEGER  NOT NULL CHECK (players_per_table IN (2, 4)),
    kind                TEXT     NOT NULL,
    deals_per_round     INTEGER  NOT NULL DEFAULT 3,
    starts_at           DATETIME NOT NULL,
    status              TEXT     NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'registration_open',
                            'registration_closed', 'running', 'finished', 'results_published', 'cancelled')),
    created_at          DATETIME NOT NULL,
    updated_at          DATETIME NOT NULL,
    search              TEXT     NOT NULL DEFAULT '',
    movement            TEXT     NOT NULL DEFAULT 'modified_danish',
    rounds              INTEGER  NOT NULL DEFAULT 4,
    mitchell_step       INTEGER  NOT NULL DEFAULT 1,
    target_score        INTEGER  NOT NULL DEFAULT 2005,
    vp_table            TEXT,
    tie_breaks          TEXT,
    rest_vp             INTEGER  NOT NULL DEFAULT 14,
    rest_mp             INTEGER  NOT NULL DEFAULT 355,
    abandon_vp          INTEGER  NOT NULL DEFAULT 0,
    remaining_gets_rest BOOLEAN  NOT NULL DEFAULT 0,
    forbid_same_club    BOOLEAN  NOT NULL DEFAULT 0,
    late_entry_round    INTEGER  NOT NULL DEFAULT 0,
    team_pairs          INTEGER  NOT NULL DEFAULT 0,
    lots_seed           TEXT     NOT NULL DEFAULT '0',
    cancel_reason       TEXT     NOT NULL DEFAULT '',
    opened_at           DATETIME,
    version             BIGINT   NOT NULL DEFAULT 0
);
INSERT INTO tournaments_new (id, club_id, name, description, rules, options, players_per_table, kind,
        deals_per_round, starts_at, status, created_at, updated_at, search, team_pairs, opened_at)
    SELECT id, club_id, name, description, rules, options, players_per_table, kind,
        MIN(MAX(deals_per_round, 2), 4), starts_at,
        CASE status WHEN 'published' THEN 'registration_open' ELSE status END,
        created_at, updated_at, search,
        CASE kind WHEN 'teams' THEN 2 ELSE 0 END,
        CASE status WHEN 'draft' THEN NULL ELSE updated_at END
    FROM tournaments;
-- Keep the AUTOINCREMENT counter, so that the id of a deleted tournament is
-- never handed out again.
DELETE FROM sqlite_sequence WHERE name = 'tournaments_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'tournaments_new', seq FROM sqlite_sequence WHERE name = 'tournaments';
DROP TABLE tournaments;
ALTER TABLE tournaments_new RENAME TO tournaments;
CREATE INDEX tournaments_club_id_idx ON tournaments (club_id);
CREATE INDEX tournaments_status_starts_at_idx ON tournaments (status, starts_at);

-- The referees (arbitri) assigned to a tournament: members of its club with
-- the referee role or higher (the domain checks the role).
CREATE TABLE tournament_referees (
    tournament_id INTEGER  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    assigned_at   DATETIME NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_referees_user_id_idx ON tournament_referees (user_id);

-- Append-only: rows are inserted, never updated nor deleted (but with their
-- tournament). seq runs 1, 2, ... per tournament; the primary key and the
-- version check on tournaments make two writers that read the same version
-- conflict. by_user_id is who acted (NULL: the server itself); it is no
-- foreign key, so that the audit trail outlives a deleted account. data is
-- the event's JSON.
CREATE TABLE tournament_events (
    tournament_id INTEGER  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq           INTEGER  NOT NULL CHECK (seq >= 1),
    at            DATETIME NOT NULL,
    by_user_id    INTEGER,
    kind          TEXT     NOT NULL,
    data          TEXT     NOT NULL DEFAULT '{}',
    reason        TEXT     NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, seq)
);

-- The first answer to a tournament request sent with an Idempotency-Key,
-- per user and key; purged after a day (domain.IdempotencyTTL).
CREATE TABLE tournament_idempotency (
    user_id       INTEGER  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    idem_key      TEXT     NOT NULL,
    tournament_id INTEGER  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    request_hash  TEXT     NOT NULL,
    status        INTEGER  NOT NULL,
    body          TEXT     NOT NULL,
    created_at    DATETIME NOT NULL,
    PRIMARY KEY (user_id, idem_key)
);
CREATE INDEX tournament_idempotency_created_at_idx ON tournament_idempotency (created_at);
CREATE INDEX tournament_idempotency_tournament_id_idx ON tournament_idempotency (tournament_id);
