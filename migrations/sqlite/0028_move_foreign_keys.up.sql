-- Issue 30: PostgreSQL's 0028 replaces the foreign keys of table_moves and
-- idempotency_keys with delete triggers (each key's check was a query of
-- its own at every move); SQLite's checks are a lookup in the process and
-- stay. The version exists so that both dialects count alike.
SELECT 1;
