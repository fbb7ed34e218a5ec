-- 0007's data version again, counted from now.
CREATE TABLE data_versions (
    name    TEXT    PRIMARY KEY,
    version INTEGER NOT NULL DEFAULT 0
);
INSERT INTO data_versions (name) VALUES ('players');

CREATE TRIGGER players_version_insert AFTER INSERT ON players BEGIN
    UPDATE data_versions SET version = version + 1 WHERE name = 'players';
END;
CREATE TRIGGER players_version_update AFTER UPDATE ON players BEGIN
    UPDATE data_versions SET version = version + 1 WHERE name = 'players';
END;
CREATE TRIGGER players_version_delete AFTER DELETE ON players BEGIN
    UPDATE data_versions SET version = version + 1 WHERE name = 'players';
END;
