DROP INDEX tables_tournament_key;
ALTER TABLE tables DROP COLUMN tournament_table;
ALTER TABLE tables DROP COLUMN tournament_round;
ALTER TABLE tables DROP COLUMN tournament_id;
ALTER TABLE tournaments DROP COLUMN online;
ALTER TABLE tournaments DROP COLUMN played;
