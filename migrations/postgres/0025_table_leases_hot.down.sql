CREATE INDEX table_leases_expires_at_idx ON table_leases (expires_at);
