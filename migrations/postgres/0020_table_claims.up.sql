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
