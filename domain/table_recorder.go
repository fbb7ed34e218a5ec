package domain

// dealRecorder is what the tables tell the tournament that plays one of
// them, in the transaction of the change: the deals that end there, a
// side's forfeit, a referee's stand-in. It is declared here, on the tables'
// side, so that the tables know nothing else of tournaments; the
// tournaments' service implements it (tournament_online_tables.go) and
// NewServices wires it. What a write returns to run once the transaction
// has committed (nil: nothing) the table keeps in playing.committed.
type dealRecorder interface {
	// recordPlayedDeal writes deal d, which just ended at tb, into the
	// sheet of tb's tournament. closed reports a table the tournament no
	// longer plays: its play ends with this deal.
	recordPlayedDeal(tx Tx, tb *Table, d TableDeal) (closed bool, committed func(), err error)
	// recordForfeit rules that seat's side forfeited tb's match (result).
	recordForfeit(tx Tx, tb *Table, seat int, result TableResult) error
	// recordStandIn notes that the referee by put a bot in the place of
	// seat's player at tb, with reason.
	recordStandIn(tx Tx, tb *Table, seat int, by int64, reason string) (committed func(), err error)
}

// afterCommit runs what the tournaments asked to run once the transaction
// that played p has committed, once.
func (p *playing) afterCommit() {
	for _, fn := range p.committed {
		fn()
	}
	p.committed = nil
}
