-- The version of a table's data: a number that grows with every change of
-- its rows, bumped by triggers, so that it also counts changes made by
-- another process, by a foreign key's ON DELETE action, or by hand. A
-- process keeps what it read of the table (a page of players) with the
-- version it read it at, and reads the version alone to know whether what
-- it kept still holds.
CREATE TABLE data_versions (
    name    TEXT   PRIMARY KEY,
    version BIGINT NOT NULL DEFAULT 0
);
INSERT INTO data_versions (name) VALUES ('players');

-- The table's name is the trigger's argument; data_versions is found on
-- the search path, as the tables are.
CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE data_versions SET version = version + 1 WHERE name = TG_ARGV[0];
    RETURN NULL;
END
$$;

CREATE TRIGGER players_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON players
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version('players');
