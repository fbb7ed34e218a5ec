-- Back to a table of keys per kind of request (0005, 0006), each row to
-- the table of its scope while what it addressed still exists.
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

INSERT INTO table_idempotency (user_id, idem_key, table_id, request_hash, status, body, created_at)
SELECT owner_id, idem_key, CAST(substr(scope, 8) AS INTEGER), fingerprint, 200, answer,
       date(substr(expires_at, 1, 10), '-1 day') || substr(expires_at, 11)
FROM idempotency_keys
WHERE scope LIKE 'tables/%' AND CAST(substr(scope, 8) AS INTEGER) IN (SELECT id FROM tables);

INSERT INTO tournament_idempotency (user_id, idem_key, tournament_id, request_hash, status, body, created_at)
SELECT owner_id, idem_key, CAST(substr(scope, 13) AS INTEGER), fingerprint, 200, answer,
       date(substr(expires_at, 1, 10), '-1 day') || substr(expires_at, 11)
FROM idempotency_keys
WHERE scope LIKE 'tournaments/%' AND CAST(substr(scope, 13) AS INTEGER) IN (SELECT id FROM tournaments);

DROP TABLE idempotency_keys;
