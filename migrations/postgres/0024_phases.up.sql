-- Issue 32, tournaments in phases and groups (docs/PHASES.md). phases: the
-- JSON array of the set-up's phases (tourney.Phase: name, movement, rounds,
-- deals, VP table, carry-over, groups), NULL for a tournament of one phase,
-- which every tournament before this version is.
ALTER TABLE tournaments ADD COLUMN phases TEXT;
