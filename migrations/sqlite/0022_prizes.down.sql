ALTER TABLE tournaments DROP COLUMN prizes;
ALTER TABLE players DROP COLUMN categories;
