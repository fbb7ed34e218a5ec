-- Each move is its own table version (bot moves included), so that a
-- client can follow a deal move by move: GET /tables/{id}/moves?since=V
-- reads the moves past a version. taken holds what the move brought into
-- the mover's hand that its notation does not name (engine.Taken JSON: the
-- card drawn, the pile, the pot), secret like the deal's seed: the service
-- shows each viewer only their part. Moves stored before this migration
-- have version 0 and no taken.
ALTER TABLE table_moves ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE table_moves ADD COLUMN taken TEXT NOT NULL DEFAULT '';
CREATE INDEX table_moves_version_idx ON table_moves (table_id, version);
