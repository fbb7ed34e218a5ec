ALTER TABLE table_moves DROP COLUMN played_by;
ALTER TABLE table_seats DROP COLUMN player_back;
ALTER TABLE table_seats DROP COLUMN stand_in_reason;
ALTER TABLE table_seats DROP COLUMN stand_in;
ALTER TABLE tables DROP COLUMN deadline_passed;
ALTER TABLE tables DROP COLUMN deadline;
ALTER TABLE tables DROP COLUMN absent_policy;
