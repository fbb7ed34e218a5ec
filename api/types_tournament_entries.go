package api

import (
	"strings"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// TournamentPlayer is a player of an entry, named so that a frontend need
// not look the player up.
type TournamentPlayer struct {
	ID   int64  `json:"id" example:"31"`
	Name string `json:"name" example:"Anna Rossi"`
} // @name TournamentPlayer

// TournamentEntryRef names an entry where another resource refers to it.
type TournamentEntryRef struct {
	ID     int64 `json:"id" example:"3"`
	Number int   `json:"number" example:"3"`
	// The entry's name, or its players' names joined with " – " when it has none.
	Name string `json:"name" example:"Rossi – Bianchi"`
} // @name TournamentEntryRef

// TournamentEntry is a pair, a team or (individual events) a player of a
// tournament.
type TournamentEntry struct {
	// Given in order of entry, from 1.
	ID int64 `json:"id" example:"3"`
	// The entry's number in the event (table cards, standings); unique.
	Number int `json:"number" example:"3"`
	// Seed for a knockout's bracket (1 is the strongest); absent when unseeded.
	Seed int `json:"seed,omitempty" example:"1"`
	// The name given, if any.
	Name string `json:"name,omitempty" example:"Le Pinelle"`
	// The name to show: the name given, or the players' names joined with " – ".
	DisplayName string `json:"display_name" example:"Le Pinelle"`
	// The club the entry plays for (forbidden same-club pairings use it).
	Club string `json:"club,omitempty" example:"Circolo Roma"`
	// The players: a pair's two (one at 2-player tables), a team's pairs one after the other, or the player of an individual entry.
	Players []TournamentPlayer `json:"players"`
	// Whether the fee is paid: shown to the tournament's referees and directors only.
	FeePaid *bool `json:"fee_paid,omitempty" example:"true"`
	// Present at check-in; when some entry checked in, the others are left out at the start.
	CheckedIn bool `json:"checked_in" example:"true"`
	Withdrawn bool `json:"withdrawn" example:"false"`
	// For a withdrawn entry: the rounds drawn when it withdrew.
	WithdrawnAfterRound int `json:"withdrawn_after_round,omitempty" example:"2"`
	// For a late entry: the first round it plays.
	FirstRound int `json:"first_round,omitempty" example:"2"`
} // @name TournamentEntry

// TournamentEntryList is a tournament's entries, in order of entry.
type TournamentEntryList struct {
	Items []TournamentEntry `json:"items"`
	// The tournament's version these were read at.
	Version int64 `json:"version" example:"42"`
} // @name TournamentEntryList

// TournamentEntryRequest enters a pair, a team or a player. A player may
// enter themself while registration is open (they must be one of the
// players), leaving number, seed and fee_paid to the staff; the
// tournament's referees and directors any time before the start, and while
// it runs up to the late-entry round.
type TournamentEntryRequest struct {
	// Player profile ids: 2 per pair (1 at 2-player tables), team_pairs pairs per team, 1 for an individual event.
	Players []int64 `json:"players" example:"31,32"`
	Name    string  `json:"name,omitempty" maxLength:"200" example:"Le Pinelle"`
	Club    string  `json:"club,omitempty" maxLength:"200" example:"Circolo Roma"`
	// Absent or 0: the next free number. Staff only.
	Number int `json:"number,omitempty" minimum:"0" example:"0"`
	// Absent or 0: unseeded. Staff only.
	Seed int `json:"seed,omitempty" minimum:"0" example:"0"`
	// Staff only.
	FeePaid bool `json:"fee_paid,omitempty" example:"false"`
} // @name TournamentEntryRequest

func (req TournamentEntryRequest) command() tourney.AddEntry {
	return tourney.AddEntry{Players: req.Players, Name: req.Name, Club: req.Club, Number: req.Number, Seed: req.Seed, FeePaid: req.FeePaid}
}

// TournamentEntryUpdateRequest changes an entry (referees and directors,
// before the end); absent fields stay.
type TournamentEntryUpdateRequest struct {
	Name    *string `json:"name,omitempty" maxLength:"200" example:"Le Pinelle"`
	Club    *string `json:"club,omitempty" maxLength:"200" example:"Circolo Roma"`
	Number  *int    `json:"number,omitempty" minimum:"1" example:"7"`
	Seed    *int    `json:"seed,omitempty" minimum:"0" example:"2"`
	FeePaid *bool   `json:"fee_paid,omitempty" example:"true"`
} // @name TournamentEntryUpdateRequest

func (req TournamentEntryUpdateRequest) command(entry int64) tourney.UpdateEntry {
	return tourney.UpdateEntry{Entry: entry, Name: req.Name, Club: req.Club, Number: req.Number, Seed: req.Seed, FeePaid: req.FeePaid}
}

// TournamentCheckInRequest checks an entry in (undo: out), by one of its
// players or the staff, before the start. The body may be left out.
type TournamentCheckInRequest struct {
	Undo bool `json:"undo,omitempty" example:"false"`
} // @name TournamentCheckInRequest

// TournamentWithdrawRequest withdraws an entry: before the start by one of
// its players or the staff, while running by the staff. The body may be
// left out.
type TournamentWithdrawRequest struct {
	Reason string `json:"reason,omitempty" example:"illness"`
} // @name TournamentWithdrawRequest

// playView converts a tournament's state for the wire: entries by id and
// the players' names, so that every entry is shown with its names.
type playView struct {
	read domain.TournamentRead
	snap *tourney.Snapshot
}

func newPlayView(read domain.TournamentRead) playView {
	v := playView{read: read, snap: read.Snapshot}
	if !v.finished() {
		v.snap = lotsHidden(v.snap)
	}
	return v
}

// entry is entry id. Ids are given in order of entry from 1, so entry id
// is at index id-1; the scan is only a guard.
func (v playView) entry(id int64) (tourney.Entry, bool) {
	if id >= 1 && id <= int64(len(v.snap.Entries)) && v.snap.Entries[id-1].ID == id {
		return v.snap.Entries[id-1], true
	}
	for _, e := range v.snap.Entries {
		if e.ID == id {
			return e, true
		}
	}
	return tourney.Entry{}, false
}

func (v playView) players(ids []int64) []TournamentPlayer {
	return mapSlice(ids, func(id int64) TournamentPlayer { return TournamentPlayer{ID: id, Name: v.read.Players[id]} })
}

// displayName is an entry's name, or its players' names joined.
func (v playView) displayName(e tourney.Entry) string {
	if e.Name != "" {
		return e.Name
	}
	names := make([]string, len(e.Players))
	for i, p := range e.Players {
		names[i] = v.read.Players[p]
	}
	return strings.Join(names, " – ")
}

// ref is entry id as a reference; nil for 0 (an empty seat or slot).
func (v playView) ref(id int64) *TournamentEntryRef {
	if id == 0 {
		return nil
	}
	e, ok := v.entry(id)
	if !ok {
		return &TournamentEntryRef{ID: id}
	}
	return &TournamentEntryRef{ID: id, Number: e.Number, Name: v.displayName(e)}
}

// refs is entries as references.
func (v playView) refs(ids []int64) []TournamentEntryRef {
	return mapSlice(ids, func(id int64) TournamentEntryRef { return *v.ref(id) })
}

func (v playView) entryOut(e tourney.Entry) TournamentEntry {
	out := TournamentEntry{ID: e.ID, Number: e.Number, Seed: e.Seed, Name: e.Name, DisplayName: v.displayName(e),
		Club: e.Club, Players: v.players(e.Players), CheckedIn: e.CheckedIn, Withdrawn: e.Withdrawn,
		WithdrawnAfterRound: e.WithdrawnAfter, FirstRound: e.FirstRound}
	if v.read.Staff {
		out.FeePaid = &e.FeePaid
	}
	return out
}

func (v playView) entries() TournamentEntryList {
	return TournamentEntryList{Items: mapSlice(v.snap.Entries, v.entryOut), Version: v.snap.Seq}
}
