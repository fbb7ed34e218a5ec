-- Issue 17, the table's side of online tournaments. absent_policy says
-- what happens to a player on turn who makes no move for grace_seconds:
-- forfeit (their team loses, as before) or bot (a bot stands in until they
-- come back). deadline is a time limit (a tournament round's): once the
-- clock passes it the server calls the RULES §10 time-out at the table
-- (deadline_passed) and the match ends with that deal.
ALTER TABLE tables ADD COLUMN absent_policy TEXT NOT NULL DEFAULT 'forfeit' CHECK (absent_policy IN ('forfeit', 'bot'));
ALTER TABLE tables ADD COLUMN deadline DATETIME;
ALTER TABLE tables ADD COLUMN deadline_passed BOOLEAN NOT NULL DEFAULT 0;
-- A bot standing in for a seat's player: why (absent after the grace
-- period, or put there by a referee with a reason), and whether the player
-- has come back (they take the seat back at their next turn).
ALTER TABLE table_seats ADD COLUMN stand_in TEXT NOT NULL DEFAULT '' CHECK (stand_in IN ('', 'absent', 'referee'));
ALTER TABLE table_seats ADD COLUMN stand_in_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE table_seats ADD COLUMN player_back BOOLEAN NOT NULL DEFAULT 0;
-- Who chose a move: the seat's player, a bot (a bot seat, or a bot
-- standing in for the player) or the turn clock (a time-out's moves).
-- Moves stored before this migration: the server's were a bot's or the
-- clock's, which the log did not tell apart; they read as bot.
ALTER TABLE table_moves ADD COLUMN played_by TEXT NOT NULL DEFAULT 'player';
UPDATE table_moves SET played_by = 'bot' WHERE "auto";
