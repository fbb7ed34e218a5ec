-- Issue 30, one owner process per table (docs/SCALE-OUT.md §4.1): the
-- same tables as on PostgreSQL, so that both schemas stay one. SQLite is
-- one process by design: serve on SQLite owns every table without asking
-- and never writes them.
CREATE TABLE server_processes (
    owner         TEXT PRIMARY KEY,
    internal_addr TEXT NOT NULL,
    started_at    DATETIME NOT NULL,
    seen_at       DATETIME NOT NULL
);

CREATE TABLE table_leases (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    owner      TEXT NOT NULL,
    epoch      INTEGER NOT NULL,
    expires_at DATETIME NOT NULL
);
CREATE INDEX table_leases_owner_idx ON table_leases (owner);
CREATE INDEX table_leases_expires_at_idx ON table_leases (expires_at);
