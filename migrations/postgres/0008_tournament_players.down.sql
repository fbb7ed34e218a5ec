DROP TABLE tournament_players;
ALTER TABLE tournaments DROP COLUMN avoid_repeat_opponents;
