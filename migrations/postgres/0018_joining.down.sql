DROP TABLE claim_failures;
DROP INDEX players_claim_code_key;
ALTER TABLE players DROP COLUMN claim_code;
DROP TABLE club_invitations;
