package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// tournamentRun is a round of a tournament played online (-tournament):
// the round's start opens the tables, the players find theirs in
// /me/tournaments, and at the end every table's sheet must hold its
// online table's deals.
type tournamentRun struct {
	director *client
	id       int64
	tables   []*table
	seats    map[int64][]*client
	started  time.Duration // the round's start: every table opened, in one transaction
}

// seatTournament signs up a director and four players per table, each
// with a player profile of their own; the director creates a pairs
// tournament played online (modified Danish, one round of o.deals deals),
// enters the pairs, starts it and starts round 1, which opens the tables.
func seatTournament(ctx context.Context, o options, servers []*server) (*tournamentRun, error) {
	base := servers[0].base
	dir, err := signUp(ctx, base, base, net.IPv4(127, 2, 0, 1), "director@load.test")
	if err != nil {
		return nil, err
	}
	var club, tm struct {
		ID int64 `json:"id"`
	}
	if err := dir.must(ctx, "POST", "/api/v1/clubs", map[string]string{"name": "Load", "city": "Roma"}, http.StatusCreated, &club); err != nil {
		return nil, err
	}
	in := map[string]any{"name": "Load", "rules": "fibur", "players_per_table": 4, "kind": "pairs", "deals_per_round": o.deals,
		"starts_at": "2030-01-01T18:00:00Z", "movement": "modified_danish", "rounds": 1, "played": "online"}
	if err := dir.must(ctx, "POST", fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID), in, http.StatusCreated, &tm); err != nil {
		return nil, err
	}
	path := func(rest string) string { return fmt.Sprintf("/api/v1/tournaments/%d%s", tm.ID, rest) }
	if err := dir.must(ctx, "POST", path("/lifecycle"), map[string]string{"action": "open_registration"}, http.StatusOK, nil); err != nil {
		return nil, err
	}
	players := make([]*client, 4*o.tables)
	profiles := make([]int64, 4*o.tables)
	errs := make(chan error, 2*o.tables)
	sem := make(chan struct{}, 8)
	for pair := range 2 * o.tables {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs <- enterPair(ctx, o, dir, servers, path("/entries"), pair, players, profiles)
		}()
	}
	for range 2 * o.tables {
		if err := <-errs; err != nil {
			return nil, err
		}
	}
	for _, step := range []struct {
		path string
		body any
		want int
	}{
		{path("/lifecycle"), map[string]string{"action": "close_registration"}, http.StatusOK},
		{path("/lifecycle"), map[string]string{"action": "start"}, http.StatusOK},
		{path("/rounds"), nil, http.StatusCreated},
	} {
		if err := dir.must(ctx, "POST", step.path, step.body, step.want, nil); err != nil {
			return nil, err
		}
	}
	begin := time.Now()
	if err := dir.must(ctx, "POST", path("/rounds/1/start"), nil, http.StatusOK, nil); err != nil {
		return nil, err
	}
	run := &tournamentRun{director: dir, id: tm.ID, seats: map[int64][]*client{}, started: time.Since(begin)}
	for _, p := range players {
		id, err := myTable(ctx, p)
		if err != nil {
			return nil, err
		}
		if run.seats[id] == nil {
			run.tables = append(run.tables, &table{id: id, ackedAt: map[int64]time.Time{}})
		}
		run.seats[id] = append(run.seats[id], p)
	}
	return run, nil
}

// enterPair finds the two players of pair n, who create their player
// profiles, and enters them (the director).
func enterPair(ctx context.Context, o options, dir *client, servers []*server, entries string, n int, players []*client, profiles []int64) error {
	for k := range 2 {
		i := 2*n + k
		ip := net.IPv4(127, 1, byte(i/2/250), byte(2+i/2%250)) // at most 10 auth requests at once per address
		cl, err := o.player(ctx, servers[0].base, servers[i%len(servers)].base, ip, i)
		if err != nil {
			return err
		}
		var me, profile struct {
			ID int64 `json:"id"`
		}
		if err := cl.must(ctx, "GET", "/api/v1/me", nil, http.StatusOK, &me); err != nil {
			return err
		}
		if err := cl.must(ctx, "POST", "/api/v1/players", map[string]any{"name": fmt.Sprintf("P%d", i), "user_id": me.ID},
			http.StatusCreated, &profile); err != nil {
			return err
		}
		players[i], profiles[i] = cl, profile.ID
	}
	return dir.must(ctx, "POST", entries, map[string]any{"players": []int64{profiles[2*n], profiles[2*n+1]}}, http.StatusCreated, nil)
}

// myTable is the online table /me/tournaments gives the player.
func myTable(ctx context.Context, p *client) (int64, error) {
	var mine struct {
		Items []struct {
			Seats []struct {
				OnlineTable int64 `json:"online_table"`
			} `json:"seats"`
		} `json:"items"`
	}
	if err := p.must(ctx, "GET", "/api/v1/me/tournaments", nil, http.StatusOK, &mine); err != nil {
		return 0, err
	}
	if len(mine.Items) != 1 || len(mine.Items[0].Seats) != 1 || mine.Items[0].Seats[0].OnlineTable == 0 {
		return 0, fmt.Errorf("/me/tournaments names no online table: %+v", mine)
	}
	return mine.Items[0].Seats[0].OnlineTable, nil
}

// checkSheets counts the round's tables whose sheet is not final or holds
// another number of deals than its online table dealt.
func (r *tournamentRun) checkSheets(ctx context.Context) (int, error) {
	var round struct {
		Tables []struct {
			OnlineTable int64 `json:"online_table"`
			Deals       []struct {
				Engine bool `json:"engine"`
			} `json:"deals"`
			Result struct {
				Final bool `json:"final"`
			} `json:"result"`
		} `json:"tables"`
	}
	if err := r.director.must(ctx, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", r.id), nil, http.StatusOK, &round); err != nil {
		return 0, err
	}
	bad := 0
	for _, tb := range round.Tables {
		var online struct {
			DealNumber int `json:"deal_number"`
		}
		if err := r.director.must(ctx, "GET", fmt.Sprintf("/api/v1/tables/%d", tb.OnlineTable), nil, http.StatusOK, &online); err != nil {
			return 0, err
		}
		if !tb.Result.Final || len(tb.Deals) != online.DealNumber {
			bad++
		}
	}
	return bad, nil
}
