-- The names the domain and the API use: "players" (per table) would be
-- mistaken for the tournament's entries, and "event" for table events.
ALTER TABLE tournaments RENAME COLUMN players TO players_per_table;
ALTER TABLE tournaments RENAME COLUMN event TO kind;
