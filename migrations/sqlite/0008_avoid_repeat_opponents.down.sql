ALTER TABLE tournaments DROP COLUMN avoid_repeat_opponents;
