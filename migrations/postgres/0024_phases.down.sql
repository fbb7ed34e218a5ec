ALTER TABLE tournaments DROP COLUMN phases;
