-- The players' data version (0007) fed a cache of the players list that a
-- club evening's mix of requests did not need (docs/performance.md): the
-- cache is gone, and so are the version and the triggers every write of a
-- player paid for.
DROP TRIGGER players_version_delete;
DROP TRIGGER players_version_update;
DROP TRIGGER players_version_insert;
DROP TABLE data_versions;
