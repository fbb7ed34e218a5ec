-- One store for the first answers to requests sent with an Idempotency-Key
-- (domain/idempotency.go), whatever they address: it replaces
-- table_idempotency (0005) and tournament_idempotency (0006). A key is its
-- owner's: scope names what the request addressed ("tables/12",
-- "tournaments/5"), fingerprint the request (the old request_hash, the
-- same hash), answer what it answered (every stored status was 200), and
-- expires_at when a retry becomes a new request (created_at plus
-- domain.IdempotencyTTL, 24 h).
--
-- The rows of both old tables are kept. Times are the driver's text
-- (UTC, "2026-03-01 12:00:00.5+00:00"): a day is added to the date part
-- only, so expires_at compares as text with what the store writes. A user
-- who sent one key to a table and to a tournament keeps the later answer.
CREATE TABLE idempotency_keys (
    owner_id    INTEGER  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    idem_key    TEXT     NOT NULL,
    scope       TEXT     NOT NULL,
    fingerprint TEXT     NOT NULL,
    answer      TEXT     NOT NULL,
    expires_at  DATETIME NOT NULL,
    PRIMARY KEY (owner_id, idem_key)
);
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);

INSERT OR IGNORE INTO idempotency_keys (owner_id, idem_key, scope, fingerprint, answer, expires_at)
SELECT user_id, idem_key, scope, request_hash, body, date(substr(created_at, 1, 10), '+1 day') || substr(created_at, 11)
FROM (
    SELECT user_id, idem_key, 'tables/' || table_id AS scope, request_hash, body, created_at FROM table_idempotency
    UNION ALL
    SELECT user_id, idem_key, 'tournaments/' || tournament_id, request_hash, body, created_at FROM tournament_idempotency
)
ORDER BY created_at DESC;

DROP TABLE table_idempotency;
DROP TABLE tournament_idempotency;
