-- Players join by themselves (issue 28). A club's directors invite people
-- with a link: only the SHA-256 of its random token is kept (token_hash),
-- with an optional expiry and number of uses; revoking keeps the row, so
-- that the link says why it no longer works. A player profile made by a
-- director, without an account, carries a claim code, which its player
-- enters once to make it theirs; failed attempts are kept for an hour,
-- per user and per address, to bound guessing.
CREATE TABLE club_invitations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id    INTEGER  NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    token_hash TEXT     NOT NULL,
    created_by INTEGER  REFERENCES users (id) ON DELETE SET NULL,
    expires_at DATETIME,
    max_uses   INTEGER  CHECK (max_uses IS NULL OR max_uses > 0),
    uses       INTEGER  NOT NULL DEFAULT 0,
    revoked_at DATETIME,
    created_at DATETIME NOT NULL
);
CREATE UNIQUE INDEX club_invitations_token_hash_key ON club_invitations (token_hash);
CREATE INDEX club_invitations_club_id_idx ON club_invitations (club_id, id);

ALTER TABLE players ADD COLUMN claim_code TEXT;
CREATE UNIQUE INDEX players_claim_code_key ON players (claim_code) WHERE claim_code IS NOT NULL;

CREATE TABLE claim_failures (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address    TEXT     NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE INDEX claim_failures_user_id_idx ON claim_failures (user_id, created_at);
CREATE INDEX claim_failures_address_idx ON claim_failures (address, created_at);
