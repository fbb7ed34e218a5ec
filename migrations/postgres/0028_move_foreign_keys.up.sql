-- Issue 30: every move inserts a row of table_moves and, sent with an
-- Idempotency-Key, one of idempotency_keys. On PostgreSQL each of their
-- foreign keys runs a query of its own after the insert (an RI trigger:
-- SELECT 1 … FOR KEY SHARE of the deal's row, of the user's row), which
-- locks that row and writes a WAL record for the lock: a tenth of the
-- backends' CPU in a load run (perf: AfterTriggerEndQuery →
-- SPI_execute_snapshot). Neither check can fail on the move's path: the
-- move's statement inserts its row only when it has locked the table's
-- row at the version its owner holds (the deal's row is written before
-- its first move, in the transaction that deals it), and a key's owner
-- is the signed-in user making the request.
--
-- What the two keys did besides is kept: their ON DELETE CASCADE. A
-- statement trigger deletes the moves of the deals a statement deleted
-- (a table's purge deletes its deals through tables' own cascade), and
-- the keys of the users deleted. SQLite keeps its foreign keys: its
-- checks are a lookup in the same process.
ALTER TABLE table_moves DROP CONSTRAINT table_moves_table_id_deal_fkey;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_owner_id_fkey;

CREATE FUNCTION table_deals_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM table_moves m USING gone g WHERE m.table_id = g.table_id AND m.deal = g.number;
    RETURN NULL;
END $$;
CREATE TRIGGER table_deals_delete_moves AFTER DELETE ON table_deals
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION table_deals_deleted();

CREATE FUNCTION users_deleted_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM idempotency_keys k USING gone g WHERE k.owner_id = g.id;
    RETURN NULL;
END $$;
CREATE TRIGGER users_delete_idempotency_keys AFTER DELETE ON users
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION users_deleted_keys();
