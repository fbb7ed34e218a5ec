-- Issue 30: a lease's renewal (once a second, every lease of its owner)
-- changes only expires_at. With expires_at indexed, every renewal was a
-- new tuple in every index of table_leases (no HOT update: 0 of 3,291 in
-- a load run), and the fence of each move, a point read of the lease by
-- its table, walked the dead versions (about 5 heap pages a move against
-- 1). No statement looks a lease up by expires_at alone: acquire and the
-- fence go by table_id, renew and release by owner.
DROP INDEX table_leases_expires_at_idx;
