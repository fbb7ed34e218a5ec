-- Issue 29, what players expect at an online table. reconnect_seconds is
-- how long a seat may be gone (no poll, no stream, no move) before the
-- others may claim the match; claim_policy is what a claim gives them:
-- win (the gone seat's team loses), draw, bot (a bot stands in for the
-- gone seat) or none (no claims: they wait). outcome says how a finished
-- match ended when it was neither played out nor forfeited: claimed (after
-- the window) or aborted (before any player's move: no result). A claimed
-- or aborted table is stored with result '' and read back with its
-- outcome: SQLite cannot widen the CHECK of result without rebuilding the
-- tables that reference tables (as migration 0015 did for cancelled).
ALTER TABLE tables ADD COLUMN reconnect_seconds INTEGER NOT NULL DEFAULT 120;
ALTER TABLE tables ADD COLUMN claim_policy TEXT NOT NULL DEFAULT 'win' CHECK (claim_policy IN ('win', 'draw', 'bot', 'none'));
ALTER TABLE tables ADD COLUMN outcome TEXT NOT NULL DEFAULT '' CHECK (outcome IN ('', 'claimed', 'aborted'));
-- The time bank (issue 29): with a turn clock, bank_seconds (0: none) is
-- a reserve per seat that a turn's overrun of turn_seconds draws from, and
-- that the unused part of a turn's turn_seconds fills again, never above
-- bank_seconds; bank_left is each seat's reserve (milliseconds, a JSON
-- array) as of the start of the current turn.
ALTER TABLE tables ADD COLUMN bank_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN bank_left TEXT NOT NULL DEFAULT '[]';
