-- Tournaments from registration to published results (issue 8): the
-- lifecycle as the status set, the set-up of the event, its referees, the
-- append-only log of what happened in it (its state is the fold of the log)
-- and the first answers to requests sent with an Idempotency-Key.
--
-- The domain validates the set-up (movement, VP table, tie-breaks, ...) so
-- that a new movement needs no schema change; only the status, the state
-- machine, is checked here too. "published" becomes "registration_open".
-- vp_table and tie_breaks are the JSON text the domain wrote (TEXT, as
-- options, so that they read back byte for byte as on SQLite; NULL: the
-- built-in table, the default order).
--
-- deals_per_round is now 2, 3 or 4 (RULES §10): values outside are brought
-- to the nearest. opened_at is when the tournament first left draft; a
-- tournament is public once it has one (a draft cancelled before it opened
-- stays hidden). lots_seed is the seed of the recorded draw of lots (a
-- uint64 in decimal); this migration's Go step draws one for every existing
-- row. version is the sequence number of the last event of the log.

ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
UPDATE tournaments SET status = 'registration_open' WHERE status = 'published';
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check CHECK (status IN ('draft', 'registration_open',
    'registration_closed', 'running', 'finished', 'results_published', 'cancelled'));
ALTER TABLE tournaments
    ADD COLUMN movement            TEXT        NOT NULL DEFAULT 'modified_danish',
    ADD COLUMN rounds              INTEGER     NOT NULL DEFAULT 4,
    ADD COLUMN mitchell_step       INTEGER     NOT NULL DEFAULT 1,
    ADD COLUMN target_score        INTEGER     NOT NULL DEFAULT 2005,
    ADD COLUMN vp_table            TEXT,
    ADD COLUMN tie_breaks          TEXT,
    ADD COLUMN rest_vp             INTEGER     NOT NULL DEFAULT 14,
    ADD COLUMN rest_mp             INTEGER     NOT NULL DEFAULT 355,
    ADD COLUMN abandon_vp          INTEGER     NOT NULL DEFAULT 0,
    ADD COLUMN remaining_gets_rest BOOLEAN     NOT NULL DEFAULT FALSE,
    ADD COLUMN forbid_same_club    BOOLEAN     NOT NULL DEFAULT FALSE,
    ADD COLUMN late_entry_round    INTEGER     NOT NULL DEFAULT 0,
    ADD COLUMN team_pairs          INTEGER     NOT NULL DEFAULT 0,
    ADD COLUMN lots_seed           TEXT        NOT NULL DEFAULT '0',
    ADD COLUMN cancel_reason       TEXT        NOT NULL DEFAULT '',
    ADD COLUMN opened_at           TIMESTAMPTZ,
    ADD COLUMN version             BIGINT      NOT NULL DEFAULT 0;
UPDATE tournaments SET
    deals_per_round = LEAST(GREATEST(deals_per_round, 2), 4),
    team_pairs = CASE kind WHEN 'teams' THEN 2 ELSE 0 END,
    opened_at = CASE status WHEN 'draft' THEN NULL ELSE updated_at END;

-- The referees (arbitri) assigned to a tournament: members of its club with
-- the referee role or higher (the domain checks the role).
CREATE TABLE tournament_referees (
    tournament_id BIGINT      NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       BIGINT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    assigned_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_referees_user_id_idx ON tournament_referees (user_id);

-- Append-only: rows are inserted, never updated nor deleted (but with their
-- tournament). seq runs 1, 2, ... per tournament; the primary key and the
-- version check on tournaments make two writers that read the same version
-- conflict. by_user_id is who acted (NULL: the server itself); it is no
-- foreign key, so that the audit trail outlives a deleted account. data is
-- the event's JSON (JSONB: read back equal as JSON, not byte for byte).
CREATE TABLE tournament_events (
    tournament_id BIGINT      NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq           BIGINT      NOT NULL CHECK (seq >= 1),
    at            TIMESTAMPTZ NOT NULL,
    by_user_id    BIGINT,
    kind          TEXT        NOT NULL,
    data          JSONB       NOT NULL DEFAULT '{}',
    reason        TEXT        NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, seq)
);

-- The first answer to a tournament request sent with an Idempotency-Key,
-- per user and key; purged after a day (domain.IdempotencyTTL).
CREATE TABLE tournament_idempotency (
    user_id       BIGINT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    idem_key      TEXT        NOT NULL,
    tournament_id BIGINT      NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    request_hash  TEXT        NOT NULL,
    status        INTEGER     NOT NULL,
    body          TEXT        NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, idem_key)
);
CREATE INDEX tournament_idempotency_created_at_idx ON tournament_idempotency (created_at);
CREATE INDEX tournament_idempotency_tournament_id_idx ON tournament_idempotency (tournament_id);
