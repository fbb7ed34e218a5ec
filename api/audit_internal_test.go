package api

import (
	"encoding/json"
	"testing"

	"github.com/burraco/burraco/domain/tourney"
)

// TestAuditScoreCorrectedAlwaysCarriesBothLists: a score_corrected event
// logged before redrawn_rounds and kept_rounds were always written shows
// them as empty lists, never absent; lists present are kept; other kinds
// are untouched.
func TestAuditScoreCorrectedAlwaysCarriesBothLists(t *testing.T) {
	tests := []struct {
		name, kind, data, want string
	}{
		{"OldCorrectionGetsEmptyLists", tourney.EventScoreCorrected, `{"round":1,"table":2}`,
			`{"kept_rounds":[],"redrawn_rounds":[],"round":1,"table":2}`},
		{"ListsKept", tourney.EventScoreCorrected, `{"round":1,"table":2,"redrawn_rounds":[3],"kept_rounds":[]}`,
			`{"kept_rounds":[],"redrawn_rounds":[3],"round":1,"table":2}`},
		{"OtherKindsUntouched", tourney.EventRoundStarted, `{"round":1}`, `{"round":1}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := auditEventOut(tourney.Event{Seq: 1, Kind: tc.kind, Data: json.RawMessage(tc.data)})
			got, err := json.Marshal(out.Data)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("data %s, want %s", got, tc.want)
			}
		})
	}
}
