package api

import (
	"slices"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// MyTournamentSeat is where one of the caller's entries sits in the
// tournament's current round.
type MyTournamentSeat struct {
	// The caller's entry.
	Entry TournamentEntryRef `json:"entry"`
	Round int                `json:"round" example:"2"`
	// The round's status: pairings_published, playing or closed.
	RoundStatus string `json:"round_status" enums:"pairings_published,playing,closed" example:"pairings_published"`
	// The entry sits out this round (scoring the rest score); no table.
	Bye bool `json:"bye" example:"false"`
	// The table number; absent with a bye.
	Table int `json:"table,omitempty" example:"4"`
	// A tournament played online, once the round started: the online table to play at (GET /api/v1/tables/{tableID}/state).
	OnlineTable int64 `json:"online_table,omitempty" example:"31"`
	// Team events: the team match and which of the teams' pairs sit at the table.
	Match int `json:"match,omitempty" example:"1"`
	Pair  int `json:"pair,omitempty" example:"2"`
	// ns or ew; absent with a bye.
	Side string `json:"side,omitempty" enums:"ns,ew" example:"ns"`
	// Individual events: the seat (n, s, e or w) and the partner's entry across.
	Seat    string              `json:"seat,omitempty" enums:"n,s,e,w" example:"n"`
	Partner *TournamentEntryRef `json:"partner,omitempty"`
	// The entries on the other side of the table.
	Opponents []TournamentEntryRef `json:"opponents"`
} // @name MyTournamentSeat

// MyTournament is a tournament in the caller's own list.
type MyTournament struct {
	Tournament Tournament `json:"tournament"`
	// player (entered through one of the caller's profiles) and/or referee (assigned to it).
	Roles []string `json:"roles" enums:"player,referee" example:"player"`
	// The caller's entries, withdrawn ones included.
	Entries []TournamentEntry `json:"entries"`
	// The latest round drawn (0 before the first).
	CurrentRound int `json:"current_round" example:"2"`
	// Where each of the caller's entries still in sits in the current round; empty before the first draw.
	Seats []MyTournamentSeat `json:"seats"`
	// The tournament's version this was read at.
	Version int64 `json:"version" example:"48"`
} // @name MyTournament

// MyTournamentList is the caller's tournaments, by start time.
type MyTournamentList struct {
	Items []MyTournament `json:"items"`
} // @name MyTournamentList

func myTournamentOut(m domain.MyTournament) MyTournament {
	v := newPlayView(m.TournamentRead)
	out := MyTournament{Tournament: tournamentOut(m.Tournament), Roles: []string{}, Entries: []TournamentEntry{},
		CurrentRound: v.snap.CurrentRound, Seats: []MyTournamentSeat{}, Version: v.snap.Seq}
	if len(m.Entries) > 0 {
		out.Roles = append(out.Roles, "player")
	}
	if m.Referee {
		out.Roles = append(out.Roles, "referee")
	}
	for _, id := range m.Entries {
		e, ok := v.entry(id)
		if !ok {
			continue
		}
		out.Entries = append(out.Entries, v.entryOut(e))
		if seat, ok := v.seatIn(e, m.Players); ok {
			out.Seats = append(out.Seats, seat)
		}
	}
	return out
}

// seatIn is where entry e sits in the current round: at a team match, the
// table of the pair the caller (players) plays in. None before the first
// draw, or when the entry is not in the round (withdrawn, a late entry).
func (v playView) seatIn(e tourney.Entry, players []int64) (MyTournamentSeat, bool) {
	n := len(v.snap.Rounds)
	if n == 0 {
		return MyTournamentSeat{}, false
	}
	r := v.snap.Rounds[n-1]
	seat := MyTournamentSeat{Entry: *v.ref(e.ID), Round: r.Number, RoundStatus: r.Status, Opponents: []TournamentEntryRef{}}
	if slices.Contains(r.Byes, e.ID) {
		seat.Bye = true
		return seat, true
	}
	for _, t := range r.Tables {
		if !v.sitsAt(t, e, players) {
			continue
		}
		seat.Table, seat.Match, seat.Pair, seat.OnlineTable = t.Number, t.Match, t.Pair, t.OnlineTable
		switch e.ID {
		case t.NS:
			seat.Side, seat.Opponents = "ns", v.refs([]int64{t.EW})
		case t.EW:
			seat.Side, seat.Opponents = "ew", v.refs([]int64{t.NS})
		default:
			v.individualSeat(&seat, t, e.ID)
		}
		return seat, true
	}
	return MyTournamentSeat{}, false
}

// sitsAt reports whether entry e sits at table t; a team only at the
// tables of the pair one of players plays in (any of its tables when none
// of them does: the caller may be the team's captain).
func (v playView) sitsAt(t tourney.TableView, e tourney.Entry, players []int64) bool {
	if e.ID != t.NS && e.ID != t.EW && e.ID != t.N && e.ID != t.S && e.ID != t.E && e.ID != t.W {
		return false
	}
	if t.Pair == 0 || !slices.ContainsFunc(e.Players, func(p int64) bool { return slices.Contains(players, p) }) {
		return true
	}
	return slices.ContainsFunc(v.seated(e, t.Pair), func(p int64) bool { return slices.Contains(players, p) })
}

// individualSeat fills an individual event's seat: N and S against E and W.
func (v playView) individualSeat(seat *MyTournamentSeat, t tourney.TableView, id int64) {
	pos := map[int64]string{t.N: "n", t.S: "s", t.E: "e", t.W: "w"}[id]
	partner := map[string]int64{"n": t.S, "s": t.N, "e": t.W, "w": t.E}[pos]
	seat.Seat, seat.Partner = pos, v.ref(partner)
	if pos == "n" || pos == "s" {
		seat.Side, seat.Opponents = "ns", v.refs([]int64{t.E, t.W})
	} else {
		seat.Side, seat.Opponents = "ew", v.refs([]int64{t.N, t.S})
	}
}
