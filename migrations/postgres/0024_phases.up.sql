-- Issue 32, tournaments in phases and groups (docs/PHASES.md). phases: the
-- JSON array of the set-up's phases (tourney.Phase: name, movement, rounds,
-- deals, VP table, carry-over, groups), NULL for a tournament of one phase,
-- which every tournament before this version is. region: a player's region
-- (free text, '' for none), which a phase may make its groups by.
ALTER TABLE tournaments ADD COLUMN phases TEXT;
ALTER TABLE players ADD COLUMN region TEXT NOT NULL DEFAULT '';
