-- The version of a table's data: a number that grows with every change of
-- its rows, bumped by triggers, so that it also counts changes made by
-- another process, by a foreign key's ON DELETE action, or by hand. A
-- process keeps what it read of the table (a page of players) with the
-- version it read it at, and reads the version alone to know whether what
-- it kept still holds.
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
