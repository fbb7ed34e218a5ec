package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestOnlineDanishPlayedByPollingClientsAndBotsToPublishedResults is issue
// 17's must-show through the HTTP API: a 16-pair online modified Danish, 4
// rounds of 3 deals, two pairs played by scripted clients over a real HTTP
// server (long polls of their table, then draw and discard), the other
// fourteen by bots, to published results. The standings equal what this
// test computes on its own from the deal records (replayed by the engine,
// not read from the sheets) converted by RULES §10's 3-deal VP table, the
// referee's adjusted score included. Along the way: the standings' ETag
// moves while the clients play; the referee calls the time-out at a
// clients' table (the deal ends, the table's play with it, as RULES §10
// says) and corrects an engine-confirmed deal with a reason; both are in
// the audit trail.
func TestOnlineDanishPlayedByPollingClientsAndBotsToPublishedResults(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineDanish)
}

func testOnlineDanish(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	srv := httptest.NewServer(te.h)
	defer srv.Close()
	// Pair A: two players with logins; pair B: one with a login, one
	// played by the bot.
	a1, a2 := te.player("Anna", true), te.player("Aldo", true)
	b1, b2 := te.player("Bice", true), te.player("Bruno", false)
	id, entries := te.onlineTournament(3, domain.SetupInput{Movement: new(domain.MovementModifiedDanish), Rounds: new(4)},
		14, [2]int64{a1, a2}, [2]int64{b1, b2})
	if len(entries) != 16 {
		t.Fatalf("%d entries", len(entries))
	}
	clients := []int64{a1, a2, b1}
	correction := struct {
		round, table, deal int
		ns, ew             int
	}{}
	for n := 1; n <= 4; n++ {
		r := te.draw(id)
		_, etag := te.standingsETag(id)
		var wg sync.WaitGroup
		var timedOut int64 // round 3: the referee's time-out at pair A's table
		for _, p := range clients {
			table := te.myOnlineTable(id, te.tokenOf[p], n)
			if n == 3 && p == a1 {
				timedOut = table
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				playByPolling(t, srv.URL, te.tokenOf[p], table)
			}()
		}
		if timedOut != 0 {
			te.timeOutDuringDeal(timedOut, 2)
		}
		wg.Wait()
		if _, after := te.standingsETag(id); after == etag {
			t.Fatalf("round %d: the standings' ETag did not move while the clients played", n)
		}
		r = te.round(id, r.Number)
		for _, tb := range r.Tables {
			if !tb.Result.Final {
				t.Fatalf("round %d table %d is not final: %s", n, tb.Number, jsonOf(tb))
			}
			if tb.OnlineTable == timedOut && (tb.Result.DecidedBy != "time_out" || len(tb.Deals) != 2 || !tb.Deals[1].TimeOut) {
				t.Fatalf("round %d: the timed-out table: %s", n, jsonOf(tb))
			}
		}
		if n == 2 { // the referee adjusts an engine-confirmed deal, with a reason
			tb := r.Tables[len(r.Tables)-1]
			d := tb.Deals[1]
			d.NS.Cards += 50
			d.NS.Total += 50
			correction.round, correction.table, correction.deal = n, tb.Number, d.Number
			correction.ns, correction.ew = d.NS.Total, d.EW.Total
			_, sheet := te.table(id, n, tb.Number)
			te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", n, "tables", tb.Number, "corrections"), Token: te.referee,
				Header: map[string]string{"If-Match": sheet}, Body: api.TournamentCorrectionRequest{
					Deal:   api.TournamentDealCorrection{Number: d.Number, NS: d.NS, EW: d.EW},
					Reason: "NS's last meld was not counted"}}, nil)
		}
		te.closeRound(id, n)
	}
	te.lifecycle(id, te.director, "finish")
	te.lifecycle(id, te.director, "publish_results")

	// The standings, computed here from the records.
	want := map[int64]int{}
	for n := 1; n <= 4; n++ {
		for _, tb := range te.round(id, n).Tables {
			var ns, ew int
			for _, d := range tb.Deals {
				rec := te.dealRecord(tb.OnlineTable, d.Number)
				if n == correction.round && tb.Number == correction.table && d.Number == correction.deal {
					rec = [2]int{correction.ns, correction.ew}
				}
				ns, ew = ns+rec[0], ew+rec[1]
			}
			vns, vew := vpOf(ns, ew)
			want[tb.NS.Entries[0].ID] += vns
			want[tb.EW.Entries[0].ID] += vew
		}
	}
	st := te.standings(id)
	if st.Status != "results_published" || st.Provisional || len(st.Rows) != 16 {
		t.Fatalf("standings: status %s, provisional %v, %d rows", st.Status, st.Provisional, len(st.Rows))
	}
	for _, row := range st.Rows {
		if row.VP != want[row.Entry.ID] {
			t.Errorf("entry %d: %d VP, the records make %d", row.Entry.ID, row.VP, want[row.Entry.ID])
		}
	}
	te.auditHas(id, "score_corrected", "NS's last meld was not counted")
	te.auditHas(id, "deal_played", "")
}

// myOnlineTable is the online table of the player's table of round n, as
// GET /me/tournaments shows it.
func (te *tourneyEnv) myOnlineTable(id int64, token string, n int) int64 {
	te.t.Helper()
	var mine api.MyTournamentList
	te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/me/tournaments", Token: token}, &mine)
	for _, m := range mine.Items {
		for _, s := range m.Seats {
			if m.Tournament.ID == id && s.Round == n && s.OnlineTable != 0 {
				return s.OnlineTable
			}
		}
	}
	te.t.Fatalf("round %d: no online table in /me/tournaments: %s", n, jsonOf(mine))
	return 0
}

func (te *tourneyEnv) standingsETag(id int64) (api.TournamentStandings, string) {
	te.t.Helper()
	var s api.TournamentStandings
	res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "standings")}, &s)
	return s, res.Header.Get("ETag")
}

// timeOutDuringDeal waits until the online table deals deal n, then the
// referee calls the time-out there.
func (te *tourneyEnv) timeOutDuringDeal(table int64, n int) {
	te.t.Helper()
	for range 2000 {
		var tb api.Table
		te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d", table), Token: te.referee}, &tb)
		if tb.DealNumber >= n {
			te.must(http.StatusOK, req{Method: "POST", Path: fmt.Sprintf("/api/v1/tables/%d/timeout", table), Token: te.referee}, nil)
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	te.t.Fatalf("table %d never dealt deal %d", table, n)
}

// auditHas fails unless the audit trail has an event of kind (with the
// reason, when given).
func (te *tourneyEnv) auditHas(id int64, kind, reason string) {
	te.t.Helper()
	for _, e := range te.audit(id) {
		if e.Kind == kind && (reason == "" || e.Reason == reason) {
			return
		}
	}
	te.t.Fatalf("the audit trail has no %s %q", kind, reason)
}

// pollState is what a scripted client reads of its table's state.
type pollState struct {
	Version int64 `json:"version"`
	Seat    int   `json:"seat"`
	Table   struct {
		Status string `json:"status"`
	} `json:"table"`
	View struct {
		Turn  int               `json:"turn"`
		Phase string            `json:"phase"`
		Hand  []json.RawMessage `json:"hand"`
	} `json:"view"`
}

// playByPolling is a scripted client over real HTTP: it long-polls its
// table's state and, on its turn, draws and then discards the first card
// of its hand (it never melds, so its hand never runs out), until the
// match is over.
func playByPolling(t *testing.T, base, token string, table int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	call := func(method, path string, body any) (int, []byte) {
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		rq, _ := http.NewRequestWithContext(ctx, method, base+path, rd)
		rq.Header.Set("Authorization", "Bearer "+token)
		if body != nil {
			rq.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(rq)
		if err != nil {
			t.Errorf("table %d: %s %s: %v", table, method, path, err)
			return 0, nil
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	since := int64(-1)
	for ctx.Err() == nil {
		path := fmt.Sprintf("/api/v1/tables/%d/state", table)
		if since >= 0 {
			path += fmt.Sprintf("?since=%d&wait=5", since)
		}
		code, body := call("GET", path, nil)
		if code == http.StatusNotModified {
			continue
		}
		var st pollState
		if code != http.StatusOK || json.Unmarshal(body, &st) != nil {
			t.Errorf("table %d: poll: %d %s", table, code, body)
			return
		}
		if st.Table.Status == "finished" {
			return
		}
		since = st.Version
		if st.View.Turn != st.Seat {
			continue
		}
		move := map[string]any{"move": "draw", "version": st.Version}
		if st.View.Phase != "take" {
			move = map[string]any{"move": "discard", "card": st.View.Hand[0], "version": st.Version}
		}
		code, body = call("POST", fmt.Sprintf("/api/v1/tables/%d/moves", table), move)
		switch code {
		case http.StatusOK, http.StatusConflict: // a conflict: the table moved on (a time-out); read again
			since = -1
		default:
			t.Errorf("table %d: move %v: %d %s", table, move, code, body)
			return
		}
	}
	t.Errorf("table %d: the match did not end in time", table)
}
