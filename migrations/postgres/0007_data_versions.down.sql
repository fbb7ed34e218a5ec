DROP TRIGGER players_version ON players;
DROP FUNCTION bump_data_version();
DROP TABLE data_versions;
