-- Back to the status set of 0002: the statuses of the lifecycle map to the
-- nearest old one (a cancelled tournament becomes finished, it is over, or a
-- draft again if it was cancelled before it ever opened). The set-up,
-- referees, event log and idempotency keys are dropped.
DROP TABLE tournament_idempotency;
DROP TABLE tournament_events;
DROP TABLE tournament_referees;

ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
UPDATE tournaments SET status = CASE status
        WHEN 'registration_open' THEN 'published'
        WHEN 'registration_closed' THEN 'published'
        WHEN 'results_published' THEN 'finished'
        WHEN 'cancelled' THEN CASE WHEN opened_at IS NULL THEN 'draft' ELSE 'finished' END
        ELSE status
    END;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check CHECK (status IN ('draft', 'published', 'running', 'finished'));
ALTER TABLE tournaments
    DROP COLUMN movement,
    DROP COLUMN rounds,
    DROP COLUMN mitchell_step,
    DROP COLUMN target_score,
    DROP COLUMN vp_table,
    DROP COLUMN tie_breaks,
    DROP COLUMN rest_vp,
    DROP COLUMN rest_mp,
    DROP COLUMN abandon_vp,
    DROP COLUMN remaining_gets_rest,
    DROP COLUMN forbid_same_club,
    DROP COLUMN late_entry_round,
    DROP COLUMN team_pairs,
    DROP COLUMN lots_seed,
    DROP COLUMN cancel_reason,
    DROP COLUMN opened_at,
    DROP COLUMN version;
