package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/engine"
	"github.com/burraco/burraco/internal/servertest"
)

// TestOnlineTournamentCrashLosesNoSheetEntry: a real server runs a round
// of a tournament played online; a scripted client plays its table (its
// partner and the other pairs are bots) while the server it plays through
// is killed (SIGKILL) mid-round. After the restart the round plays to its
// end, and every table's sheet holds exactly the deals of its online
// table, each equal to its record replayed by the engine: no deal that
// ended was lost from a sheet, none written twice. On a SQLite file, and
// on PostgreSQL with two server processes sharing the round (the director
// works through the other one, which stays up).
func TestOnlineTournamentCrashLosesNoSheetEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Run("sqlite", func(t *testing.T) {
		srv := servertest.Start(t, servertest.Options{})
		testOnlineCrash(t, srv, srv)
	})
	t.Run("postgres", func(t *testing.T) {
		env := []string{"DATABASE_URL=" + storetest.PostgresURL(t), "JWT_SECRET=" + strings.Repeat("k", 40)}
		a := servertest.Start(t, servertest.Options{Env: env})
		b := servertest.Start(t, servertest.Options{Env: env})
		testOnlineCrash(t, a, b)
		if code := b.Stop(); code != 0 {
			t.Fatalf("the other serve exited with %d", code)
		}
	})
}

// testOnlineCrash plays the round with the client on srv, which is killed
// and restarted, and the director on other (srv itself, or a second
// process on the same database).
func testOnlineCrash(t *testing.T, srv, other *servertest.Server) {
	dir := newPlayer(t, other.URL, "director@example.com")
	cl := player{t: t, base: srv.URL}
	{
		reg := newPlayer(t, srv.URL, "client@example.com")
		cl.token = reg.token
	}
	var club, me struct {
		ID int64 `json:"id"`
	}
	dir.must("POST", "/api/v1/clubs", map[string]string{"name": "Circolo", "city": "Roma"}, 201, &club)
	cl.must("GET", "/api/v1/me", nil, 200, &me)
	profile := func(p player, body map[string]any) int64 {
		var out struct {
			ID int64 `json:"id"`
		}
		p.must("POST", "/api/v1/players", body, 201, &out)
		return out.ID
	}
	var tm struct {
		ID int64 `json:"id"`
	}
	dir.must("POST", fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID), map[string]any{"name": "Online", "rules": "fibur",
		"players_per_table": 4, "kind": "pairs", "deals_per_round": 3, "starts_at": "2030-01-01T18:00:00Z",
		"movement": "modified_danish", "rounds": 1, "played": "online"}, 201, &tm)
	tpath := func(rest string) string { return fmt.Sprintf("/api/v1/tournaments/%d%s", tm.ID, rest) }
	dir.must("POST", tpath("/lifecycle"), map[string]string{"action": "open_registration"}, 200, nil)
	mine := profile(cl, map[string]any{"name": "Cliente", "user_id": me.ID})
	for i := range 4 {
		a := mine
		if i > 0 {
			a = profile(dir, map[string]any{"name": fmt.Sprintf("Bot %dA", i), "club_id": club.ID})
		}
		b := profile(dir, map[string]any{"name": fmt.Sprintf("Bot %dB", i), "club_id": club.ID})
		dir.must("POST", tpath("/entries"), map[string]any{"players": []int64{a, b}}, 201, nil)
	}
	dir.must("POST", tpath("/lifecycle"), map[string]string{"action": "close_registration"}, 200, nil)
	dir.must("POST", tpath("/lifecycle"), map[string]string{"action": "start"}, 200, nil)
	dir.must("POST", tpath("/rounds"), nil, 201, nil)
	dir.must("POST", tpath("/rounds/1/start"), nil, 200, nil)
	var my struct {
		Items []struct {
			Seats []struct {
				OnlineTable int64 `json:"online_table"`
			} `json:"seats"`
		} `json:"items"`
	}
	cl.must("GET", "/api/v1/me/tournaments", nil, 200, &my)
	if len(my.Items) != 1 || len(my.Items[0].Seats) != 1 || my.Items[0].Seats[0].OnlineTable == 0 {
		t.Fatalf("/me/tournaments: %+v", my)
	}
	table := my.Items[0].Seats[0].OnlineTable

	play := func(stopAfter int) (int, error) { // moves acknowledged, until the match ends or stopAfter
		for n := 0; n < stopAfter; n++ {
			var st tableState
			code, b, err := cl.send("GET", tablesPath(table, "state"), nil)
			if err == nil && code == 200 {
				err = json.Unmarshal(b, &st)
			}
			if err != nil {
				return n, err
			}
			if st.Table.Status == "finished" {
				return n, nil
			}
			if _, err := cl.playTurn(st); err != nil {
				return n, err
			}
		}
		return stopAfter, nil
	}
	done := make(chan struct{})
	go func() { // plays on until the server goes away
		defer close(done)
		_, _ = play(1 << 20)
	}()
	// Kill once the first deal is on the sheet: mid-round, between deals
	// written and deals to come.
	for {
		var tb struct {
			DealNumber int `json:"deal_number"`
		}
		dir.must("GET", tablesPath(table), nil, 200, &tb)
		if tb.DealNumber >= 2 {
			break
		}
	}
	srv.Kill()
	<-done
	srv.Restart()
	if _, err := play(1 << 20); err != nil {
		t.Fatal(err)
	}

	var round struct {
		Tables []struct {
			Number      int   `json:"number"`
			OnlineTable int64 `json:"online_table"`
			Deals       []struct {
				Number int `json:"number"`
				NS     struct {
					Total int `json:"total"`
				} `json:"ns"`
				EW struct {
					Total int `json:"total"`
				} `json:"ew"`
			} `json:"deals"`
			Result struct {
				Final bool `json:"final"`
			} `json:"result"`
		} `json:"tables"`
	}
	dir.must("GET", tpath("/rounds/1"), nil, 200, &round)
	for _, tb := range round.Tables {
		var online struct {
			DealNumber int    `json:"deal_number"`
			Status     string `json:"status"`
		}
		dir.must("GET", tablesPath(tb.OnlineTable), nil, 200, &online)
		if !tb.Result.Final || online.Status != "finished" || len(tb.Deals) != online.DealNumber {
			t.Fatalf("table %d: final %v with %d deals; online table %s with %d", tb.Number, tb.Result.Final, len(tb.Deals),
				online.Status, online.DealNumber)
		}
		for _, d := range tb.Deals {
			var rec engine.Record
			dir.must("GET", tablesPath(tb.OnlineTable, "deals", fmt.Sprint(d.Number), "record"), nil, 200, &rec)
			g, err := rec.Replay()
			if err != nil {
				t.Fatal(err)
			}
			if sc := g.Score(); sc[0].Total != d.NS.Total || sc[1].Total != d.EW.Total {
				t.Fatalf("table %d deal %d: sheet %d–%d, record %d–%d", tb.Number, d.Number, d.NS.Total, d.EW.Total, sc[0].Total, sc[1].Total)
			}
		}
	}
	dir.must("POST", tpath("/rounds/1/close"), nil, 200, nil)
	if code := srv.Stop(); code != 0 {
		t.Fatalf("serve exited with %d", code)
	}
}
