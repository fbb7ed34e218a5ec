-- Back to a table of keys per kind of request (0005, 0006), each row to
-- the table of its scope while what it addressed still exists.
CREATE TABLE table_idempotency (
    user_id      BIGINT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    idem_key     TEXT     NOT NULL,
    table_id     BIGINT   NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    request_hash TEXT     NOT NULL,
    status       INTEGER  NOT NULL,
    body         TEXT     NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, idem_key)
);
CREATE INDEX table_idempotency_created_at_idx ON table_idempotency (created_at);

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

INSERT INTO table_idempotency (user_id, idem_key, table_id, request_hash, status, body, created_at)
SELECT owner_id, idem_key, substr(scope, 8)::BIGINT, fingerprint, 200, answer, expires_at - INTERVAL '24 hours'
FROM idempotency_keys
WHERE scope LIKE 'tables/%' AND substr(scope, 8)::BIGINT IN (SELECT id FROM tables);

INSERT INTO tournament_idempotency (user_id, idem_key, tournament_id, request_hash, status, body, created_at)
SELECT owner_id, idem_key, substr(scope, 13)::BIGINT, fingerprint, 200, answer, expires_at - INTERVAL '24 hours'
FROM idempotency_keys
WHERE scope LIKE 'tournaments/%' AND substr(scope, 13)::BIGINT IN (SELECT id FROM tournaments);

DROP TABLE idempotency_keys;
