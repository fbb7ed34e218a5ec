-- Issue 30: PostgreSQL's migration 0026 turns the CHECKs of tables into
-- domains (a CHECK there is parsed and evaluated at every UPDATE of the
-- row). SQLite compiles a statement's CHECKs once, when it is prepared,
-- and evaluates on an UPDATE only those whose columns it sets: nothing
-- to change. The version exists so that both dialects count alike.
SELECT 1;
