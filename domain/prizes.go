package domain

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Prize is one prize of a tournament's prize list (issue 32), given on its
// set-up and frozen with it once the tournament runs.
type Prize struct {
	Name string
	// Category is the tag an entry's players must all have (see
	// Player.Categories); "" for an overall prize.
	Category string
	// Places is how many entries get the prize (first, second, …).
	Places int
	// Cumulative lets an entry that already won a prize take this one
	// too; without it an entry gets one prize, and the next qualifying
	// entry takes its place.
	Cumulative bool
}

// Limits of a prize list.
const (
	MaxPrizes      = 20
	MaxPrizePlaces = 100
)

// checkPrizes records in v every problem of a prize list.
func checkPrizes(v *Validator, prizes []Prize) {
	v.Check(len(prizes) <= MaxPrizes, "prizes", "too_many", fmt.Sprintf("at most %d prizes", MaxPrizes))
	for i, p := range prizes {
		f := fmt.Sprintf("prizes[%d]", i)
		checkText(v, f+".name", p.Name, true, MaxNameLength)
		v.Check(p.Category == "" || categorySlug.MatchString(p.Category), f+".category", "invalid",
			"a category is a lowercase slug: a letter, then up to 23 letters, digits, - or _")
		v.Check(p.Places >= 1 && p.Places <= MaxPrizePlaces, f+".places", "out_of_range",
			fmt.Sprintf("places must be 1 to %d", MaxPrizePlaces))
	}
}

// normalPrizes is a prize list as stored: names trimmed, nil for none (so
// that a set-up without prizes compares equal however it was given).
func normalPrizes(in []Prize) []Prize {
	if len(in) == 0 {
		return nil
	}
	out := slices.Clone(in)
	for i := range out {
		out[i].Name = strings.TrimSpace(out[i].Name)
	}
	return out
}

// PrizeEntry is an entry in the order of the final standings, with the
// category tags of its players (one list per player).
type PrizeEntry struct {
	Entry   int64
	Rank    int
	Players [][]string
}

// qualifies reports whether every player of e has the tag.
func (e PrizeEntry) qualifies(tag string) bool {
	if len(e.Players) == 0 {
		return false
	}
	for _, tags := range e.Players {
		if !slices.Contains(tags, tag) {
			return false
		}
	}
	return true
}

// PrizeAward is a prize with the entries that won it, best first: fewer
// than its places when too few entries qualify.
type PrizeAward struct {
	Prize   Prize
	Winners []PrizeEntry
}

// AwardPrizes gives the prizes to the entries, which are in the order of
// the final standings: the overall prizes (no category) first, then the
// category prizes, each group in list order. An entry qualifies for a
// category when every one of its players has the tag. An entry gets one
// prize: a later prize skips an entry that won one, unless that prize is
// cumulative. Ties follow the standings' order. The awards are in the order
// they were given.
func AwardPrizes(prizes []Prize, entries []PrizeEntry) []PrizeAward {
	order := make([]Prize, 0, len(prizes))
	for _, p := range prizes {
		if p.Category == "" {
			order = append(order, p)
		}
	}
	for _, p := range prizes {
		if p.Category != "" {
			order = append(order, p)
		}
	}
	won := map[int64]bool{}
	out := make([]PrizeAward, 0, len(order))
	for _, p := range order {
		a := PrizeAward{Prize: p, Winners: []PrizeEntry{}}
		for _, e := range entries {
			if len(a.Winners) == p.Places {
				break
			}
			if (p.Category != "" && !e.qualifies(p.Category)) || (won[e.Entry] && !p.Cumulative) {
				continue
			}
			a.Winners = append(a.Winners, e)
		}
		for _, e := range a.Winners {
			won[e.Entry] = true
		}
		out = append(out, a)
	}
	return out
}

// TournamentPrizes is a tournament's prize list given from its final
// standings: its state as read, and the awards.
type TournamentPrizes struct {
	TournamentRead
	Awards []PrizeAward
}

// EStandingsNotFinal (KindConflict): prizes are given from the final
// standings, and these are still provisional.
const EStandingsNotFinal Code = "standings_not_final"

// Prizes implements TournamentPlayService.
func (s *tournamentPlayService) Prizes(ctx context.Context, actor Actor, id int64) (TournamentPrizes, error) {
	read, err := s.Read(ctx, actor, id)
	if err != nil {
		return TournamentPrizes{}, err
	}
	st := read.Snapshot.Standings
	if st.Provisional || len(st.Unsettled) > 0 {
		return TournamentPrizes{}, Errorf(EStandingsNotFinal,
			"the prizes are given from the final standings: the tournament is not finished, or a table is not final")
	}
	players := map[int64][]int64{}
	var ids []int64
	for _, e := range read.Snapshot.Entries {
		players[e.ID] = e.Players
		ids = append(ids, e.Players...)
	}
	var tags map[int64][]string
	err = s.st.View(ctx, func(tx Tx) error { // more than one query for a big field
		tags, err = tx.Players().Categories(ids)
		return err
	})
	if err != nil {
		return TournamentPrizes{}, err
	}
	entries := make([]PrizeEntry, 0, len(st.Rows))
	for _, r := range st.Rows {
		e := PrizeEntry{Entry: r.Entry, Rank: r.Rank}
		for _, p := range players[r.Entry] {
			e.Players = append(e.Players, tags[p])
		}
		entries = append(entries, e)
	}
	return TournamentPrizes{TournamentRead: read, Awards: AwardPrizes(read.Tournament.Prizes, entries)}, nil
}
