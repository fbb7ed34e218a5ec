-- Online tables: a table of 2 or 4 seats plays a match of deals. Every
-- accepted move is appended to table_moves in the same transaction that
-- stores the deal's position snapshot and advances tables.version, so that a
-- restarted server continues each table exactly. The domain validates rules,
-- options and the match format (with the engine).

CREATE TABLE tables (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    creator_id           INTEGER  NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    club_id              INTEGER  REFERENCES clubs (id) ON DELETE RESTRICT,
    rules                TEXT     NOT NULL,
    options              TEXT     NOT NULL,
    players              INTEGER  NOT NULL CHECK (players IN (2, 4)),
    match_deals          INTEGER  NOT NULL DEFAULT 0,
    match_target         INTEGER  NOT NULL DEFAULT 0,
    match_require_winner BOOLEAN  NOT NULL DEFAULT 0,
    private              BOOLEAN  NOT NULL DEFAULT 0,
    invite_code          TEXT     NOT NULL,
    auto_start           BOOLEAN  NOT NULL DEFAULT 0,
    turn_seconds         INTEGER  NOT NULL DEFAULT 0,
    match_seconds        INTEGER  NOT NULL DEFAULT 0,
    grace_seconds        INTEGER  NOT NULL DEFAULT 300,
    status               TEXT     NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'playing', 'finished')),
    free_seats           INTEGER  NOT NULL,
    version              BIGINT   NOT NULL DEFAULT 1,
    deal_number          INTEGER  NOT NULL DEFAULT 0,
    winner               INTEGER,
    draw                 BOOLEAN  NOT NULL DEFAULT 0,
    lost_on_time         INTEGER,
    result               TEXT     NOT NULL DEFAULT '' CHECK (result IN ('', 'played', 'lost_on_time', 'abandoned')),
    abandoned_by         INTEGER,
    turn_started_at      DATETIME,
    clock_used           TEXT     NOT NULL DEFAULT '[]',
    created_at           DATETIME NOT NULL,
    updated_at           DATETIME NOT NULL,
    started_at           DATETIME,
    finished_at          DATETIME
);
CREATE UNIQUE INDEX tables_invite_code_key ON tables (invite_code);
CREATE INDEX tables_status_idx ON tables (status, id);
CREATE INDEX tables_club_id_idx ON tables (club_id);
CREATE INDEX tables_creator_id_idx ON tables (creator_id);

CREATE TABLE table_seats (
    table_id  INTEGER  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat      INTEGER  NOT NULL CHECK (seat >= 0 AND seat < 4),
    user_id   INTEGER  REFERENCES users (id) ON DELETE RESTRICT,
    bot       BOOLEAN  NOT NULL DEFAULT 0,
    joined_at DATETIME,
    PRIMARY KEY (table_id, seat),
    CHECK (NOT (bot AND user_id IS NOT NULL))
);
CREATE UNIQUE INDEX table_seats_table_id_user_id_key ON table_seats (table_id, user_id);
CREATE INDEX table_seats_user_id_idx ON table_seats (user_id);

-- seed is the deal's shuffle seed (a uint64 in decimal): secret until the
-- deal ends. position is the engine Position JSON after the last move.
CREATE TABLE table_deals (
    table_id   INTEGER  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    number     INTEGER  NOT NULL CHECK (number >= 1),
    dealer     INTEGER  NOT NULL,
    seed       TEXT     NOT NULL,
    totals     TEXT     NOT NULL,
    tie_break  BOOLEAN  NOT NULL DEFAULT 0,
    position   TEXT     NOT NULL,
    moves      INTEGER  NOT NULL DEFAULT 0,
    score      TEXT,
    timeout_at INTEGER,
    started_at DATETIME NOT NULL,
    ended_at   DATETIME,
    PRIMARY KEY (table_id, number)
);

-- Append-only: rows are inserted, never updated nor deleted (but with their table).
CREATE TABLE table_moves (
    table_id INTEGER  NOT NULL,
    deal     INTEGER  NOT NULL,
    idx      INTEGER  NOT NULL CHECK (idx >= 0),
    seat     INTEGER  NOT NULL,
    move     TEXT     NOT NULL,
    auto     BOOLEAN  NOT NULL DEFAULT 0,
    at       DATETIME NOT NULL,
    PRIMARY KEY (table_id, deal, idx),
    FOREIGN KEY (table_id, deal) REFERENCES table_deals (table_id, number) ON DELETE CASCADE
);

-- The first answer to a move sent with an Idempotency-Key, per user and key.
CREATE TABLE table_idempotency (
    user_id      INTEGER  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    idem_key     TEXT     NOT NULL,
    table_id     INTEGER  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    request_hash TEXT     NOT NULL,
    status       INTEGER  NOT NULL,
    body         TEXT     NOT NULL,
    created_at   DATETIME NOT NULL,
    PRIMARY KEY (user_id, idem_key)
);
CREATE INDEX table_idempotency_created_at_idx ON table_idempotency (created_at);
