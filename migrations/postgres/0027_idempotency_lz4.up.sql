-- Issue 30: a stored answer (a move's state, a few kilobytes) was
-- compressed with pglz at every keyed move: a tenth of the backends' CPU
-- in a load run (perf: pglz_compress under heap_toast_insert_or_update).
-- lz4 compresses several times faster, to much the same size. PostgreSQL
-- 14 and later built with lz4 (Debian's, the project's images, most
-- distributions') have it; elsewhere the column keeps the default.
DO $$
BEGIN
    IF current_setting('server_version_num')::int >= 140000 THEN
        EXECUTE 'ALTER TABLE idempotency_keys ALTER COLUMN answer SET COMPRESSION lz4';
    END IF;
EXCEPTION WHEN feature_not_supported THEN
    NULL; -- built without lz4
END $$;
