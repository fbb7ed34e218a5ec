ALTER TABLE tables DROP COLUMN cancelled;
