package domain

import (
	"os"
	"testing"

	"github.com/burraco/burraco/domain/tourney"
)

// FuzzImportReplay: whatever the document, reading and replaying it (the
// import's work but the storage) refuses or succeeds, and never panics.
// The seed is the format's example, docs/results-format.example.json.
func FuzzImportReplay(f *testing.F) {
	example, err := os.ReadFile("../docs/results-format.example.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	f.Add([]byte(`{"format":"burraco-results","version":1}`))
	f.Add([]byte(`{"format":"burraco-results","version":1,"rounds":[{"number":1,"tables":[{"ns":[],"ew":[1]}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		doc, err := ParseResults(body)
		if err != nil {
			return
		}
		tm, in := importedTournament(1, doc)
		if importedValid(&tm, in, doc) != nil {
			return
		}
		st, err := newState(tm)
		if err != nil {
			return
		}
		players := make([][]int64, len(doc.Entries))
		next := int64(0)
		for i, e := range doc.Entries {
			for range e.Players {
				next++
				players[i] = append(players[i], next)
			}
		}
		r := &replay{st: st, who: tourney.Actor{UserID: 1, Director: true, Referee: true}, doc: doc, players: players, ids: map[int]int64{}}
		_ = r.run()
	})
}

// TestImportReplaysTheExample: the format's example replays without a
// refusal to the standings it states.
func TestImportReplaysTheExample(t *testing.T) {
	example, err := os.ReadFile("../docs/results-format.example.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ParseResults(example)
	if err != nil {
		t.Fatal(err)
	}
	tm, in := importedTournament(1, doc)
	if err := importedValid(&tm, in, doc); err != nil {
		t.Fatal(err)
	}
	st, err := newState(tm)
	if err != nil {
		t.Fatal(err)
	}
	players := make([][]int64, len(doc.Entries))
	for i := range doc.Entries {
		players[i] = []int64{int64(2*i + 1), int64(2*i + 2)}
	}
	r := &replay{st: st, who: tourney.Actor{UserID: 1, Director: true, Referee: true}, doc: doc, players: players, ids: map[int]int64{}}
	if err := r.run(); err != nil {
		t.Fatal(err)
	}
	got, err := st.Standings()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != len(doc.Standings) {
		t.Fatalf("%d rows, the example %d", len(got.Rows), len(doc.Standings))
	}
	for i, row := range got.Rows {
		want := doc.Standings[i]
		if int(row.Entry) != want.Entry || row.Rank != want.Rank || row.VP != want.VP || row.MPDiff != want.MPDiff {
			t.Errorf("row %d: entry %d rank %d VP %d MP %d; the example: %+v", i, row.Entry, row.Rank, row.VP, row.MPDiff, want)
		}
	}
}
