package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/burraco/burraco/engine"
)

// playedRecord deals a fibur deal and plays it to the end with a plain
// policy (lay what can be laid, else take or discard the first legal move),
// recording every move.
func playedRecord(t *testing.T) engine.Record {
	t.Helper()
	rules, err := engine.NewRules(engine.Fibur, 4)
	if err != nil {
		t.Fatal(err)
	}
	const dealer, seed = 3, 20261121
	g, err := engine.Deal(rules, dealer, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecord(rules, dealer, seed, nil)
	for n := 0; !g.Over(); n++ {
		if n > 2000 {
			t.Fatal("the deal did not end")
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

func pickMove(moves []engine.Move) engine.Move {
	for _, k := range []engine.MoveKind{engine.MeldCards, engine.AttachCards} {
		for _, m := range moves {
			if m.Kind == k {
				return m
			}
		}
	}
	return moves[0]
}

func writeJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "file.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReplay replays a recorded deal, checks its final position, and
// refuses a record with an illegal move, naming the move.
func TestReplay(t *testing.T) {
	ctx := context.Background()
	rec := playedRecord(t)
	recFile := writeJSON(t, rec)
	want, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("ReplaysToTheEnd", func(t *testing.T) {
		var out, errOut bytes.Buffer
		if code := run(ctx, []string{"replay", recFile}, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var got struct {
			Moves int            `json:"moves"`
			Over  bool           `json:"over"`
			Score []engine.Score `json:"score"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		if got.Moves != len(rec.Moves) || !got.Over || len(got.Score) != 2 || got.Score[0] != want.Score()[0] {
			t.Errorf("replay printed %+v; want %d moves, over, score %+v", got, len(rec.Moves), want.Score())
		}
	})
	t.Run("CheckMatchingPosition", func(t *testing.T) {
		var out, errOut bytes.Buffer
		pos := writeJSON(t, want.Position())
		if code := run(ctx, []string{"replay", "-check", pos, recFile}, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
	})
	t.Run("CheckDifferentPositionFails", func(t *testing.T) {
		other := rec
		other.Moves = rec.Moves[:len(rec.Moves)-1]
		early, err := other.Replay()
		if err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		pos := writeJSON(t, early.Position())
		if code := run(ctx, []string{"replay", "-check", pos, recFile}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "differs") {
			t.Fatalf("exit %d, stderr %q; want 1 and a difference", code, errOut.String())
		}
	})
	t.Run("IllegalMoveIsNamed", func(t *testing.T) {
		bad := rec
		bad.Moves = append([]engine.SeatMove(nil), rec.Moves...)
		bad.Moves[1].Seat = (bad.Moves[1].Seat + 1) % 4 // out of turn
		var out, errOut bytes.Buffer
		code := run(ctx, []string{"replay", writeJSON(t, bad)}, &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), "move 1 ") || !strings.Contains(errOut.String(), "not_your_turn") {
			t.Fatalf("exit %d, stderr %q; want 1, move 1, not_your_turn", code, errOut.String())
		}
	})
	t.Run("UnreadableRecord", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "bad.json")
		if err := os.WriteFile(path, []byte(`{"rules":"scopa"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		if code := run(ctx, []string{"replay", path}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "bad_option") {
			t.Fatalf("exit %d, stderr %q", code, errOut.String())
		}
	})
}

// TestReplayRefusesCardsThatDisagreeWithSeed: `burraco replay` replays a
// record carrying its dealt cards, refuses one whose cards were changed
// (exit 1, naming the seed and the first card that differs, no position
// printed), and still replays a record written before records had cards.
func TestReplayRefusesCardsThatDisagreeWithSeed(t *testing.T) {
	ctx := context.Background()
	rec := playedRecord(t)
	if rec.Cards == nil {
		t.Fatal("the record carries no cards")
	}
	t.Run("CardsThatAgreeReplay", func(t *testing.T) {
		var out, errOut bytes.Buffer
		if code := run(ctx, []string{"replay", writeJSON(t, rec)}, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
	})
	t.Run("ChangedCardIsRefused", func(t *testing.T) {
		bad := rec
		cards := *rec.Cards
		cards.Stock = append([]engine.Card(nil), cards.Stock...)
		cards.Stock[5], cards.Stock[6] = cards.Stock[6], cards.Stock[5]
		if cards.Stock[5] == cards.Stock[6] {
			t.Skip("the swapped cards are alike")
		}
		bad.Cards = &cards
		var out, errOut bytes.Buffer
		code := run(ctx, []string{"replay", writeJSON(t, bad)}, &out, &errOut)
		msg := errOut.String()
		if code != 1 || out.Len() != 0 || !strings.Contains(msg, "disagree with seed 20261121") || !strings.Contains(msg, "stock: card 5 is") {
			t.Fatalf("exit %d, stdout %q, stderr %q; want 1, nothing printed, the seed and stock card 5 named", code, out.String(), msg)
		}
	})
	t.Run("RecordWithoutCardsReplays", func(t *testing.T) {
		old := rec
		old.Cards = nil
		var out, errOut bytes.Buffer
		if code := run(ctx, []string{"replay", writeJSON(t, old)}, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		if code := run(ctx, []string{"replay", "../../testdata/records/fibur-4.json"}, &out, &errOut); code != 0 {
			t.Fatalf("the sample record: exit %d: %s", code, errOut.String())
		}
	})
}
