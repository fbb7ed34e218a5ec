-- One store for the first answers to requests sent with an Idempotency-Key
-- (domain/idempotency.go), whatever they address: it replaces
-- table_idempotency (0005) and tournament_idempotency (0006). A key is its
-- owner's: scope names what the request addressed ("tables/12",
-- "tournaments/5"), fingerprint the request (the old request_hash, the
-- same hash), answer what it answered (every stored status was 200), and
-- expires_at when a retry becomes a new request (created_at plus
-- domain.IdempotencyTTL, 24 h).
--
-- The rows of both old tables are kept. A user who sent one key to a table
-- and to a tournament keeps the later answer.
CREATE TABLE idempotency_keys (
    owner_id    BIGINT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    idem_key    TEXT        NOT NULL,
    scope       TEXT        NOT NULL,
    fingerprint TEXT        NOT NULL,
    answer      TEXT        NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (owner_id, idem_key)
);
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);

INSERT INTO idempotency_keys (owner_id, idem_key, scope, fingerprint, answer, expires_at)
SELECT DISTINCT ON (user_id, idem_key) user_id, idem_key, scope, request_hash, body, created_at + INTERVAL '24 hours'
FROM (
    SELECT user_id, idem_key, 'tables/' || table_id AS scope, request_hash, body, created_at FROM table_idempotency
    UNION ALL
    SELECT user_id, idem_key, 'tournaments/' || tournament_id, request_hash, body, created_at FROM tournament_idempotency
) AS old
ORDER BY user_id, idem_key, created_at DESC;

DROP TABLE table_idempotency;
DROP TABLE tournament_idempotency;
