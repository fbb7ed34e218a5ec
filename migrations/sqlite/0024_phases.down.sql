ALTER TABLE players DROP COLUMN region;
ALTER TABLE tournaments DROP COLUMN phases;
