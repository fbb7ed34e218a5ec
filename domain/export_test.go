package domain

// CanRefereeTournament asks canRefereeTournament, for the tests of package
// domain_test (which reach a real store).
func CanRefereeTournament(tx Tx, actor Actor, t Tournament) (bool, error) {
	return accessFor(tx, actor).canRefereeTournament(t)
}
