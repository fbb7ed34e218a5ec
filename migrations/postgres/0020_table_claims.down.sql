ALTER TABLE tables DROP COLUMN bank_left;
ALTER TABLE tables DROP COLUMN bank_seconds;
ALTER TABLE tables DROP COLUMN outcome;
ALTER TABLE tables DROP COLUMN claim_policy;
ALTER TABLE tables DROP COLUMN reconnect_seconds;
