DROP TABLE rating_history;
DROP TABLE ratings;
ALTER TABLE tables DROP COLUMN rematch_id;
ALTER TABLE tables DROP COLUMN rematch_wishes;
ALTER TABLE tables DROP COLUMN rated;
