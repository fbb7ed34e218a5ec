ALTER TABLE table_moves
    ALTER COLUMN idx TYPE INTEGER,
    ADD CONSTRAINT table_moves_idx_check CHECK (idx >= 0);

ALTER TABLE tables
    ALTER COLUMN status TYPE TEXT,
    ALTER COLUMN result TYPE TEXT,
    ALTER COLUMN players TYPE INTEGER,
    ALTER COLUMN absent_policy TYPE TEXT,
    ALTER COLUMN cancelled TYPE TEXT,
    ALTER COLUMN claim_policy TYPE TEXT,
    ALTER COLUMN outcome TYPE TEXT,
    ADD CONSTRAINT tables_status_check CHECK (status IN ('open', 'playing', 'finished')),
    ADD CONSTRAINT tables_result_check CHECK (result IN ('', 'played', 'lost_on_time', 'abandoned')),
    ADD CONSTRAINT tables_players_check CHECK (players IN (2, 4)),
    ADD CONSTRAINT tables_absent_policy_check CHECK (absent_policy IN ('forfeit', 'bot')),
    ADD CONSTRAINT tables_cancelled_check CHECK (cancelled IN ('', 'creator', 'empty', 'expired')),
    ADD CONSTRAINT tables_claim_policy_check CHECK (claim_policy IN ('win', 'draw', 'bot', 'none')),
    ADD CONSTRAINT tables_outcome_check CHECK (outcome IN ('', 'claimed', 'aborted'));

DROP DOMAIN move_index;
DROP DOMAIN table_outcome;
DROP DOMAIN table_claim_policy;
DROP DOMAIN table_cancelled;
DROP DOMAIN table_absent_policy;
DROP DOMAIN table_players;
DROP DOMAIN table_result;
DROP DOMAIN table_status;
