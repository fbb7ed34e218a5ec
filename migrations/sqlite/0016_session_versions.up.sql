-- Session versions (issue 27): a password reset bumps the user's session
-- version; an access token carries the version it was minted at, and one
-- minted before the reset is refused, so that the reset ends the sessions
-- it promises to end, access tokens included.
ALTER TABLE users ADD COLUMN session_version INTEGER NOT NULL DEFAULT 0;
