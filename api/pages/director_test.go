package pages_test

// A director's steps through the HTTP API, for the browser tests whose
// subject is not the director (the hall display, the session): the
// end-to-end scenario (flow_test.go) does the director's steps in the
// console (console_browser_test.go), but for opening the club, which the
// console does not do.

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// club is a club with its director (owner) and a referee, on a server.
type club struct {
	t        *testing.T
	base     string
	id       int64
	director *user
	referee  *user
}

// directorOpensClub registers the director and a referee and makes the club.
func directorOpensClub(t *testing.T, base string) *club {
	t.Helper()
	c := &club{t: t, base: base}
	c.director = register(t, base, "direttore@example.com", "Direttore")
	c.referee = register(t, base, "arbitro@example.com", "Arbitro")
	var out struct {
		ID int64 `json:"id"`
	}
	c.director.api.call("POST", "/clubs", map[string]string{"name": "Circolo del Burraco", "city": "Roma"}, &out, http.StatusCreated)
	c.id = out.ID
	c.director.api.call("POST", fmt.Sprintf("/clubs/%d/members", c.id),
		map[string]any{"user_id": c.referee.ID, "role": "referee"}, nil, http.StatusCreated)
	return c
}

// directorCreatesTournament creates a pairs tournament of FIBUR Burraco
// with rounds rounds of deals deals and the referee assigned, and opens
// its registration.
func (c *club) directorCreatesTournament(name string, rounds, deals int) int64 {
	c.t.Helper()
	var out struct {
		ID int64 `json:"id"`
	}
	c.director.api.call("POST", fmt.Sprintf("/clubs/%d/tournaments", c.id), map[string]any{
		"name": name, "rules": "fibur", "players_per_table": 4, "kind": "pairs",
		"deals_per_round": deals, "starts_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339),
		"movement": "modified_danish", "rounds": rounds,
	}, &out, http.StatusCreated)
	c.director.api.call("PUT", fmt.Sprintf("/tournaments/%d/referees/%d", out.ID, c.referee.ID), nil, nil, http.StatusOK)
	c.lifecycle(out.ID, "open_registration")
	return out.ID
}

func (c *club) lifecycle(id int64, action string) {
	c.t.Helper()
	c.director.api.call("POST", fmt.Sprintf("/tournaments/%d/lifecycle", id),
		map[string]string{"action": action, "reason": "browser test"}, nil, http.StatusOK)
}

// profile makes a player profile: the user's own when u is given, else
// one of the club's made by the director.
func (c *club) profile(name string, u *user) int64 {
	c.t.Helper()
	var p struct {
		ID int64 `json:"id"`
	}
	if u != nil {
		u.api.call("POST", "/players", map[string]any{"name": name, "user_id": u.ID}, &p, http.StatusCreated)
	} else {
		c.director.api.call("POST", "/players", map[string]any{"name": name, "club_id": c.id}, &p, http.StatusCreated)
	}
	return p.ID
}

// directorEntersPair enters a pair of two profiles and returns the entry's id.
func (c *club) directorEntersPair(id int64, a, b int64) int64 {
	c.t.Helper()
	var e struct {
		ID int64 `json:"id"`
	}
	c.director.api.call("POST", fmt.Sprintf("/tournaments/%d/entries", id), map[string]any{"players": []int64{a, b}}, &e, http.StatusCreated)
	return e.ID
}

// directorStarts closes the registration and starts the tournament.
func (c *club) directorStarts(id int64) {
	c.t.Helper()
	c.lifecycle(id, "close_registration")
	c.lifecycle(id, "start")
}

// apiTable is a table of a round as the API gives it (the fields used here).
type apiTable struct {
	Number  int   `json:"number"`
	Version int64 `json:"version"`
	NS      struct {
		Entries []struct {
			ID int64 `json:"id"`
		} `json:"entries"`
	} `json:"ns"`
	EW struct {
		Entries []struct {
			ID int64 `json:"id"`
		} `json:"entries"`
	} `json:"ew"`
	Deals []struct {
		Number int    `json:"number"`
		Status string `json:"status"`
		NS     struct {
			Total int `json:"total"`
		} `json:"ns"`
		EW struct {
			Total int `json:"total"`
		} `json:"ew"`
	} `json:"deals"`
}

// directorDrawsAndStartsRound draws the next round and starts it; it
// returns the round's tables.
func (c *club) directorDrawsAndStartsRound(id int64) (int, []apiTable) {
	c.t.Helper()
	var r struct {
		Number int        `json:"number"`
		Tables []apiTable `json:"tables"`
	}
	c.director.api.call("POST", fmt.Sprintf("/tournaments/%d/rounds", id), nil, &r, http.StatusCreated)
	c.director.api.call("POST", fmt.Sprintf("/tournaments/%d/rounds/%d/start", id, r.Number), nil, &r, http.StatusOK)
	return r.Number, r.Tables
}

// standings are the API's standings (the fields used here).
type standings struct {
	Version     int64 `json:"version"`
	Provisional bool  `json:"provisional"`
	Status      string
	Rows        []struct {
		Rank  int `json:"rank"`
		VP    int `json:"vp"`
		Entry struct {
			ID     int64  `json:"id"`
			Number int    `json:"number"`
			Name   string `json:"name"`
		} `json:"entry"`
	} `json:"rows"`
}

func (c *club) standings(id int64) standings {
	c.t.Helper()
	var s standings
	(&apiClient{t: c.t, base: c.base}).call("GET", fmt.Sprintf("/tournaments/%d/standings", id), nil, &s, http.StatusOK)
	return s
}

// auditCount counts the tournament's audit events of kind at a table.
func (c *club) auditCount(id int64, kind string, round, table int) int {
	c.t.Helper()
	var a struct {
		Items []struct {
			Kind string         `json:"kind"`
			Data map[string]any `json:"data"`
		} `json:"items"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/audit?limit=500", id), nil, &a, http.StatusOK)
	n := 0
	for _, e := range a.Items {
		if e.Kind == kind && e.Data["round"] == float64(round) && e.Data["table"] == float64(table) {
			n++
		}
	}
	return n
}
