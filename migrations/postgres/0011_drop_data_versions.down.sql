-- 0007's data version again, counted from now.
CREATE TABLE data_versions (
    name    TEXT   PRIMARY KEY,
    version BIGINT NOT NULL DEFAULT 0
);
INSERT INTO data_versions (name) VALUES ('players');

CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE data_versions SET version = version + 1 WHERE name = TG_ARGV[0];
    RETURN NULL;
END
$$;

CREATE TRIGGER players_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON players
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version('players');
