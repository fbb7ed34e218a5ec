DO $$
BEGIN
    IF current_setting('server_version_num')::int >= 140000 THEN
        EXECUTE 'ALTER TABLE idempotency_keys ALTER COLUMN answer SET COMPRESSION default';
    END IF;
END $$;
