ALTER TABLE tournaments DROP COLUMN search;
ALTER TABLE players DROP COLUMN search;
ALTER TABLE clubs DROP COLUMN search;
