-- Nothing to undo (0027_idempotency_lz4.up.sql).
SELECT 1;
