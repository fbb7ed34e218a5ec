-- Issue 30, one owner process per table (docs/SCALE-OUT.md §4.1).
-- server_processes: every serve process on PostgreSQL, registered at
-- start with the address its peers forward a table's requests to. owner
-- is new at every start (not the host name): a restarted process must not
-- take the leases of its previous life for its own, their games are not
-- in its memory. table_leases: the process that serves a table from
-- memory; epoch grows at every change of owner and never decreases (the
-- fencing of §4.3 checks it). owner has no foreign key: a dead process's
-- row may be deleted before its leases expire. Times are the database's
-- (now()): no process compares its own clock with them.
CREATE TABLE server_processes (
    owner         TEXT PRIMARY KEY,
    internal_addr TEXT NOT NULL,
    started_at    TIMESTAMPTZ NOT NULL,
    seen_at       TIMESTAMPTZ NOT NULL
);

CREATE TABLE table_leases (
    table_id   BIGINT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    owner      TEXT NOT NULL,
    epoch      BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX table_leases_owner_idx ON table_leases (owner);
CREATE INDEX table_leases_expires_at_idx ON table_leases (expires_at);
