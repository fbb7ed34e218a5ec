-- Issue 30: PostgreSQL's 0027 compresses a stored answer with lz4; SQLite
-- does not compress values: nothing to change. The version exists so that
-- both dialects count alike.
SELECT 1;
