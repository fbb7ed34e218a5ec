ALTER TABLE tournaments RENAME COLUMN kind TO event;
ALTER TABLE tournaments RENAME COLUMN players_per_table TO players;
