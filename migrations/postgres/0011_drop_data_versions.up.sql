-- The players' data version (0007) fed a cache of the players list that a
-- club evening's mix of requests did not need (docs/performance.md): the
-- cache is gone, and so are the version and the trigger every write of a
-- player paid for.
DROP TRIGGER players_version ON players;
DROP FUNCTION bump_data_version();
DROP TABLE data_versions;
