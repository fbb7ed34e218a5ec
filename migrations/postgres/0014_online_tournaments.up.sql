-- Online tournaments (issue 17): a tournament is played live (paper score
-- sheets, as before) or online (its rounds at online tables, scored by the
-- engine); online carries its settings as a JSON object (domain
-- OnlineSettings). An online table created for a tournament's round names
-- the tournament, the round and the table number of the draw, so that the
-- deal that ends there writes itself into that table's sheet.
ALTER TABLE tournaments ADD COLUMN played TEXT NOT NULL DEFAULT 'live';
ALTER TABLE tournaments ADD COLUMN online TEXT;
ALTER TABLE tables ADD COLUMN tournament_id BIGINT REFERENCES tournaments (id) ON DELETE RESTRICT;
ALTER TABLE tables ADD COLUMN tournament_round INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN tournament_table INTEGER NOT NULL DEFAULT 0;
-- One online table per table of a round: a retried start never makes two.
CREATE UNIQUE INDEX tables_tournament_key ON tables (tournament_id, tournament_round, tournament_table)
    WHERE tournament_id IS NOT NULL;
