-- Folded copies of the searched text (lower case, without accents), which
-- the store writes with every row, so that a search compares the same way
-- on SQLite and PostgreSQL: "niccolo" finds "Niccolò". SQL cannot fold
-- accents portably, so the rows that exist are filled by this migration's
-- Go step (migrations/search.go).
ALTER TABLE clubs ADD COLUMN search TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN search TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN search TEXT NOT NULL DEFAULT '';
