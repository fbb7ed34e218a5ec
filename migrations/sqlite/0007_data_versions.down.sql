DROP TRIGGER players_version_delete;
DROP TRIGGER players_version_update;
DROP TRIGGER players_version_insert;
DROP TABLE data_versions;
