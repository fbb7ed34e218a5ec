DROP TABLE settings;
DROP TABLE players;
DROP TABLE memberships;
DROP TABLE clubs;
DROP TABLE refresh_tokens;
DROP TABLE users;
