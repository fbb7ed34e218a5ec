package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/burraco/burraco/engine"
)

var updateRecords = flag.Bool("update", false, "regenerate the sample records in testdata/records")

// recordsDir is the repository's testdata/records.
var recordsDir = filepath.Join("..", "..", "testdata", "records")

// timeOutRecord deals like playedRecord and plays with the same policy,
// until the referee's time-out is called in the middle of seat's turn
// (after its take, move 21), then plays the last round out.
func timeOutRecord(t *testing.T) engine.Record {
	t.Helper()
	rules, err := engine.NewRules(engine.Fibur, 4)
	if err != nil {
		t.Fatal(err)
	}
	const dealer, seed, at = 3, 20261121, 21
	g, err := engine.Deal(rules, dealer, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecord(rules, dealer, seed, nil)
	for n := 0; !g.Over(); n++ {
		if n == at {
			if g.Phase() != engine.PhasePlay {
				t.Fatalf("move %d is not in the middle of a turn", at)
			}
			if err := g.CallTimeOut(); err != nil {
				t.Fatal(err)
			}
			a := n
			rec.TimeOutAt = &a
		}
		seat := g.Turn()
		m := pickMove(g.LegalMoves(seat))
		if err := g.Apply(seat, m); err != nil {
			t.Fatalf("move %d %s: %v", n, m, err)
		}
		rec.Moves = append(rec.Moves, engine.SeatMove{Seat: seat, Move: m})
	}
	return rec
}

// TestSampleRecords replays the records shipped in testdata/records with
// `burraco replay` (go test -update writes them again from the generators
// above): a complete deal, and a deal ended by the last round of a
// time-out, whose replay must end the same way.
func TestSampleRecords(t *testing.T) {
	samples := []struct {
		file    string
		gen     func(*testing.T) engine.Record
		wantEnd string
	}{
		{"fibur-4.json", playedRecord, ""},
		{"fibur-4-timeout.json", timeOutRecord, "timeout"},
	}
	for _, s := range samples {
		t.Run(s.file, func(t *testing.T) {
			path := filepath.Join(recordsDir, s.file)
			if *updateRecords {
				if err := os.WriteFile(path, recordFile(t, s.gen(t)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var out, errOut bytes.Buffer
			if code := run(context.Background(), []string{"replay", path}, &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			var got struct {
				Over     bool            `json:"over"`
				Position engine.Position `json:"position"`
				Score    []engine.Score  `json:"score"`
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if !got.Over || len(got.Score) != 2 {
				t.Fatalf("the sample does not replay to the end of the deal: %s", out.String())
			}
			if s.wantEnd != "" && got.Position.End != s.wantEnd {
				t.Fatalf("ended %q, want %q", got.Position.End, s.wantEnd)
			}
			if s.wantEnd == "timeout" {
				for _, sc := range got.Score {
					if sc.Closing != 0 {
						t.Fatalf("closing bonus after a time-out: %+v", got.Score)
					}
				}
				// The same moves without the time-out do not end the deal:
				// the record's timeout_at is what ended it.
				data, _ := os.ReadFile(path)
				var rec engine.Record
				if err := json.Unmarshal(data, &rec); err != nil {
					t.Fatal(err)
				}
				rec.TimeOutAt = nil
				if g, err := rec.Replay(); err != nil || g.Over() {
					t.Fatalf("without the time-out: over %v, %v", g.Over(), err)
				}
			}
		})
	}
}

// TestReplayUnreadableRecordSaysWhatARecordIs: a file that is not a record
// gets a message in the record's own terms and a description of a record,
// not Go's unmarshalling vocabulary.
func TestReplayUnreadableRecordSaysWhatARecordIs(t *testing.T) {
	for name, data := range map[string]string{
		"not JSON":        `{"rules":"fibur",`,
		"a list":          `[1]`,
		"wrong type":      `{"rules":"fibur","players":"4","dealer":0,"seed":1,"moves":[]}`,
		"unknown field":   `{"rules":"fibur","players":4,"dealer":0,"seed":1,"move":[]}`,
		"no moves":        `{"rules":"fibur","players":4,"dealer":0,"seed":1}`,
		"bad seat":        `{"rules":"fibur","players":4,"dealer":0,"seed":1,"moves":[{"seat":"x","move":"draw"}]}`,
		"a position file": `{"rules":"fibur","turn":0,"hands":[[],[]]}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.json")
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"replay", path}, &out, &errOut)
			msg := errOut.String()
			if code != 1 || !strings.Contains(msg, "is not a deal record") || !strings.Contains(msg, `"moves":[{"seat":0,"move":"draw"}`) ||
				!strings.Contains(msg, "timeout_at") {
				t.Fatalf("exit %d, stderr:\n%s", code, msg)
			}
			for _, goWords := range []string{"Go struct", "unmarshal", ".plain"} {
				if strings.Contains(msg, goWords) {
					t.Errorf("stderr speaks Go (%q):\n%s", goWords, msg)
				}
			}
		})
	}
}

// recordFile writes a record with one move a line.
func recordFile(t *testing.T, rec engine.Record) []byte {
	t.Helper()
	moves := rec.Moves
	rec.Moves = []engine.SeatMove{}
	head, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	lines := make([]string, len(moves))
	for i, m := range moves {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		lines[i] = string(b)
	}
	body := strings.Replace(string(head), `"moves":[]`, "\n \"moves\":[\n  "+strings.Join(lines, ",\n  ")+"\n ]", 1)
	return []byte(body + "\n")
}
