-- Nothing to undo (0026_table_domains.up.sql).
SELECT 1;
