-- Issue 32, prizes and categories. categories: a player's category tags
-- (short slugs like ladies, over65), sorted and joined by commas, '' for
-- none; set by the directors of the player's club. prizes: a tournament's
-- prize list (the JSON array of domain.Prize), NULL when it has none.
ALTER TABLE players ADD COLUMN categories TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN prizes TEXT;
