-- A modified Danish refuses only the previous round's rematch (RULES §10);
-- an event may choose to avoid every earlier opponent while it can.
ALTER TABLE tournaments ADD COLUMN avoid_repeat_opponents BOOLEAN NOT NULL DEFAULT FALSE;
