DROP INDEX table_moves_version_idx;
ALTER TABLE table_moves DROP COLUMN taken;
ALTER TABLE table_moves DROP COLUMN version;
