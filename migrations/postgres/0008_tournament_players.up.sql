-- A modified Danish refuses only the previous round's rematch (RULES §10);
-- an event may choose to avoid every earlier opponent while it can.
ALTER TABLE tournaments ADD COLUMN avoid_repeat_opponents BOOLEAN NOT NULL DEFAULT FALSE;

-- The players ever entered in a tournament (an entry's players never
-- change; a withdrawn entry keeps its row): what /me/tournaments looks up,
-- the event log being the record. Filled from the log's entry_added events.
CREATE TABLE tournament_players (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id     BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX tournament_players_player_id_idx ON tournament_players (player_id);

INSERT INTO tournament_players (tournament_id, player_id)
SELECT DISTINCT e.tournament_id, p.value::BIGINT
FROM tournament_events e
CROSS JOIN LATERAL jsonb_array_elements_text(e.data -> 'entry' -> 'players') AS p(value)
WHERE e.kind = 'entry_added'
ON CONFLICT DO NOTHING;
