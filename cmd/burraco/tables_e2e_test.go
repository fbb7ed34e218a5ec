package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/engine"
)

// player is a scripted client of the tables' API: it sees only what the
// API shows its seat.
type player struct {
	t       *testing.T
	base    string
	token   string
	timeout time.Duration // of each request; default 10 s
}

// tableState is what the scripted client reads of a state.
type tableState struct {
	Version int64 `json:"version"`
	Seat    int   `json:"seat"`
	Table   struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
	} `json:"table"`
	View *struct {
		Turn  int      `json:"turn"`
		Phase string   `json:"phase"`
		Hand  []string `json:"hand"`
	} `json:"view"`
	Deals []struct {
		Number int `json:"number"`
	} `json:"deals"`
}

// send sends a request and returns the status and body; a transport error
// (the server is gone) is returned, not fatal.
func (p player) send(method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	timeout := 10 * time.Second
	if p.timeout > 0 {
		timeout = p.timeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// must sends a request and fails unless the status is want.
func (p player) must(method, path string, body any, want int, out any) {
	p.t.Helper()
	code, b, err := p.send(method, path, body)
	if err != nil || code != want {
		p.t.Fatalf("%s %s: %d (%v), want %d: %s", method, path, code, err, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			p.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// newPlayer registers a user on the server at base.
func newPlayer(t *testing.T, base, email string) player {
	t.Helper()
	p := player{t: t, base: base}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	p.must("POST", "/api/v1/auth/register", map[string]string{"email": email, "password": "long-enough-pw", "name": email}, 201, nil)
	p.must("POST", "/api/v1/auth/login", map[string]string{"email": email, "password": "long-enough-pw"}, 200, &tok)
	p.token = tok.AccessToken
	return p
}

func tablesPath(id int64, rest ...string) string {
	return fmt.Sprintf("/api/v1/tables/%d", id) + strings.Join(append([]string{""}, rest...), "/")
}

// ackedMove is a move the server acknowledged (200) and the version it
// answered.
type ackedMove struct {
	Move    map[string]any
	Version int64
}

// playTurn plays one move of the client's turn from st: a draw in the take
// phase, else the first card of the hand the rules let it discard. It
// returns the move acknowledged (nil when none was: the server went away).
func (p player) playTurn(st tableState) (*ackedMove, error) {
	moves := []map[string]any{{"move": "draw"}}
	if st.View.Phase != "take" {
		moves = moves[:0]
		for _, c := range st.View.Hand {
			moves = append(moves, map[string]any{"move": "discard", "card": c})
		}
	}
	for _, m := range moves {
		body := map[string]any{"version": st.Version}
		for k, v := range m {
			body[k] = v
		}
		code, b, err := p.send("POST", tablesPath(st.Table.ID, "moves"), body)
		switch {
		case err != nil:
			return nil, err
		case code == 200:
			var after tableState
			if err := json.Unmarshal(b, &after); err != nil {
				return nil, err
			}
			return &ackedMove{Move: m, Version: after.Version}, nil
		case code != 422:
			return nil, fmt.Errorf("move %v: %d %s", m, code, b)
		}
	}
	return nil, fmt.Errorf("no card of %v may be discarded", st.View.Hand)
}

// checkStoredReplay reads a table's running deal and move log as stored, and
// replays the log from the deal's seed: the stored position must be the
// replay of the first moves the deal row counts, fewer than
// domain.PositionEvery behind the log, and that position continued by the
// rest of the log must be the replay of the whole log. (Test code reading
// the database behind the server.)
func checkStoredReplay(t *testing.T, db *store.DB, id int64) {
	t.Helper()
	err := db.View(context.Background(), func(tx domain.Tx) error {
		tb, err := tx.Tables().Get(id)
		if err != nil {
			return err
		}
		d, err := tx.Tables().Deal(id, tb.DealNumber)
		if err != nil {
			return err
		}
		moves, err := tx.Tables().Moves(id, d.Number)
		if err != nil {
			return err
		}
		r, err := engine.NewRules(tb.Rules, tb.Players)
		if err != nil {
			return err
		}
		if r.Options, err = engine.ParseOptions(tb.Rules, tb.Options); err != nil {
			return err
		}
		rec := engine.NewRecord(r, d.Dealer, d.Seed, d.Totals)
		for _, m := range moves {
			var mv engine.Move
			if err := json.Unmarshal(m.Move, &mv); err != nil {
				return err
			}
			rec.Moves = append(rec.Moves, engine.SeatMove{Seat: m.Seat, Move: mv})
		}
		if d.Moves > len(moves) || len(moves)-d.Moves >= domain.PositionEvery {
			t.Errorf("deal %d: %d moves logged, the stored position holds %d", d.Number, len(moves), d.Moves)
			return nil
		}
		all := rec.Moves
		rec.Moves = all[:d.Moves]
		g, err := rec.Replay()
		if err != nil {
			return fmt.Errorf("replay: %w", err)
		}
		if a, b := canonicalJSON(g), canonicalJSON(json.RawMessage(d.Position)); a != b {
			t.Errorf("deal %d: the stored position is not the replay of its first %d moves:\nstored   %s\nreplayed %s", d.Number, d.Moves, b, a)
		}
		stored, err := engine.ParsePosition(d.Position)
		if err != nil {
			return err
		}
		for i, m := range all[d.Moves:] {
			if err := stored.Apply(m.Seat, m.Move); err != nil {
				return fmt.Errorf("move %d on the stored position: %w", d.Moves+i, err)
			}
		}
		rec.Moves = all
		if g, err = rec.Replay(); err != nil {
			return fmt.Errorf("replay: %w", err)
		}
		if a, b := canonicalJSON(g), canonicalJSON(stored); a != b {
			t.Errorf("deal %d: the stored position continued by the log is not the replay of its %d moves:\ncontinued %s\nreplayed  %s", d.Number, len(all), b, a)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// canonicalJSON is v's JSON with object keys sorted.
func canonicalJSON(v any) string {
	b, _ := json.Marshal(v)
	var a any
	_ = json.Unmarshal(b, &a)
	return mustMarshal(a)
}
