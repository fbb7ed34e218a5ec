DROP TABLE table_idempotency;
DROP TABLE table_moves;
DROP TABLE table_deals;
DROP TABLE table_seats;
DROP TABLE tables;
