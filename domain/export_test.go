package domain

// CanRefereeTournament asks canRefereeTournament, for the tests of package
// domain_test (which reach a real store).
func CanRefereeTournament(tx Tx, actor Actor, t Tournament) (bool, error) {
	return accessFor(tx, actor).canRefereeTournament(t)
}

// AnnounceTableChange tells svc's notifier of a table change made by
// another process, as the PostgreSQL feed does (Follow).
func AnnounceTableChange(svc TableService, id, version int64) {
	svc.(*tableService).notes.stale(id, version)
}

// CachedPosition reports whether svc's game cache holds table id's running
// deal, and how many bytes of stored position that entry keeps.
func CachedPosition(svc TableService, id int64) (held bool, positionBytes int) {
	c := svc.(*tableService).views.games
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[id]
	if e == nil {
		return false, 0
	}
	return true, len(e.p.deal.Position)
}
