package api_test

import (
	"fmt"
	"testing"

	"github.com/burraco/burraco/domain/store/storetest"
)

// TestVersionConflictNamesCurrentVersion: a move sent against an old
// version is a 409 version_conflict whose current_version is the table's
// version, as stale_sheet names the sheet's.
func TestVersionConflictNamesCurrentVersion(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	tb, tokens := twoHumans(e)
	st, _ := e.state(tokens[0], tb.ID)
	body := fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version-1)
	res := e.must(409, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[st.View.Turn], Body: body}, nil)
	p := problemOf(t, res, "version_conflict")
	if p.CurrentVersion == nil || *p.CurrentVersion != st.Version {
		t.Errorf("current_version %v, want %d", p.CurrentVersion, st.Version)
	}
}
