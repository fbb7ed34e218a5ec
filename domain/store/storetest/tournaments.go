package storetest

import (
	"testing"
	"time"

	"github.com/burraco/burraco/domain/store"
)

// SetTournamentStatus puts a tournament in a lifecycle status for a test,
// as if its log had moved it there: the status column, and the opening
// time of a tournament that has left draft (at), so that it is public. It
// writes no event: tests of what is above the event log use it until the
// lifecycle actions exist; they should then move tournaments by those
// actions instead.
func SetTournamentStatus(t testing.TB, db *store.DB, id int64, status string, at time.Time) {
	t.Helper()
	q := `UPDATE tournaments SET status = $1,
		opened_at = CASE WHEN opened_at IS NULL AND $1 NOT IN ('draft', 'cancelled') THEN $2 ELSE opened_at END
		WHERE id = $3`
	res, err := db.SQL().ExecContext(t.Context(), q, status, at.UTC().Truncate(time.Microsecond), id)
	if err != nil {
		t.Fatalf("storetest: set tournament %d to %s: %v", id, status, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("storetest: set tournament %d to %s: no such tournament", id, status)
	}
}
