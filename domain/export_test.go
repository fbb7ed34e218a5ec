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
