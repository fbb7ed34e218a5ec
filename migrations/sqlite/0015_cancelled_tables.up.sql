-- Issue 27: an open table nobody plays is cancelled (by its creator, when
-- the last player leaves it, or when it was not started within the
-- server's open-table TTL), so that it leaves the lobby and its creator's
-- count of open tables. cancelled says why ('' for a table that was not).
-- A cancelled table is stored with status 'finished' and read back as
-- cancelled by the store: SQLite cannot widen the CHECK of status without
-- rebuilding tables, which table_seats, table_deals and table_idempotency
-- reference; both dialects store it alike.
ALTER TABLE tables ADD COLUMN cancelled TEXT NOT NULL DEFAULT '' CHECK (cancelled IN ('', 'creator', 'empty', 'expired'));
