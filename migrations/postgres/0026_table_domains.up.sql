-- Issue 30: the CHECKs of tables as domains. PostgreSQL evaluates every
-- CHECK constraint of a table on every UPDATE of a row, whatever columns
-- it sets, and reads each constraint's expression from its stored text
-- again at every statement (ExecRelCheck builds them per execution): a
-- move's UPDATE of tables (version, clocks, updated_at) parsed and checked
-- the seven enumerations below each time, a quarter of the backend's CPU
-- for an owner's one-statement move (BenchmarkAnOwnersMoveOnPostgres:
-- 277-335 µs a move with them, 200-250 with domains). A domain's
-- constraint is checked only where a value of the column is written (an
-- INSERT, or an UPDATE that sets it), from an expression the backend
-- parsed once (the type cache). The same values are refused as before; the
-- columns stay text and integer to every client (a domain's values are
-- sent as its base type). table_moves.idx likewise: each move inserts a
-- row.
CREATE DOMAIN table_status AS TEXT CHECK (VALUE IN ('open', 'playing', 'finished'));
CREATE DOMAIN table_result AS TEXT CHECK (VALUE IN ('', 'played', 'lost_on_time', 'abandoned'));
CREATE DOMAIN table_players AS INTEGER CHECK (VALUE IN (2, 4));
CREATE DOMAIN table_absent_policy AS TEXT CHECK (VALUE IN ('forfeit', 'bot'));
CREATE DOMAIN table_cancelled AS TEXT CHECK (VALUE IN ('', 'creator', 'empty', 'expired'));
CREATE DOMAIN table_claim_policy AS TEXT CHECK (VALUE IN ('win', 'draw', 'bot', 'none'));
CREATE DOMAIN table_outcome AS TEXT CHECK (VALUE IN ('', 'claimed', 'aborted'));
CREATE DOMAIN move_index AS INTEGER CHECK (VALUE >= 0);

ALTER TABLE tables
    DROP CONSTRAINT tables_status_check,
    DROP CONSTRAINT tables_result_check,
    DROP CONSTRAINT tables_players_check,
    DROP CONSTRAINT tables_absent_policy_check,
    DROP CONSTRAINT tables_cancelled_check,
    DROP CONSTRAINT tables_claim_policy_check,
    DROP CONSTRAINT tables_outcome_check,
    ALTER COLUMN status TYPE table_status,
    ALTER COLUMN result TYPE table_result,
    ALTER COLUMN players TYPE table_players,
    ALTER COLUMN absent_policy TYPE table_absent_policy,
    ALTER COLUMN cancelled TYPE table_cancelled,
    ALTER COLUMN claim_policy TYPE table_claim_policy,
    ALTER COLUMN outcome TYPE table_outcome;

ALTER TABLE table_moves
    DROP CONSTRAINT table_moves_idx_check,
    ALTER COLUMN idx TYPE move_index;
