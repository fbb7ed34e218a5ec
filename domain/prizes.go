package domain

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/tourney"
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
	// Group gives the prize from a group's standings (docs/PHASES.md):
	// those of Phase (0: the last phase with groups), overall (the VP
	// carried into it counted). "" for the whole field.
	Group string
	Phase int
}

// Limits of a prize list.
const (
	MaxPrizes      = 20
	MaxPrizePlaces = 100
)

// checkPrizes records in v every problem of a prize list, for a set-up
// of phases (none: one phase).
func checkPrizes(v *Validator, prizes []Prize, phases []tourney.Phase) {
	v.Check(len(prizes) <= MaxPrizes, "prizes", "too_many", fmt.Sprintf("at most %d prizes", MaxPrizes))
	for i, p := range prizes {
		f := fmt.Sprintf("prizes[%d]", i)
		checkText(v, f+".name", p.Name, true, MaxNameLength)
		v.Check(p.Category == "" || categorySlug.MatchString(p.Category), f+".category", "invalid",
			"a category is a lowercase slug: a letter, then up to 23 letters, digits, - or _")
		v.Check(p.Places >= 1 && p.Places <= MaxPrizePlaces, f+".places", "out_of_range",
			fmt.Sprintf("places must be 1 to %d", MaxPrizePlaces))
		checkPrizeGroup(v, f, p, phases)
	}
}

// checkPrizeGroup: a group prize names a phase with groups (by default the
// last) and a group it can have.
func checkPrizeGroup(v *Validator, f string, p Prize, phases []tourney.Phase) {
	if p.Group == "" {
		v.Check(p.Phase == 0, f+".phase", "not_allowed", "phase goes with group: a prize of the whole field is given from the final standings")
		return
	}
	k := PrizePhase(p, phases)
	switch {
	case p.Phase < 0 || p.Phase > len(phases):
		v.Add(f+".phase", "out_of_range", fmt.Sprintf("phase must be 1 to %d", len(phases)))
	case k == 0 || phases[k-1].Groups == nil:
		v.Add(f+".group", "invalid", "no phase has groups: set up a phase with groups first")
	case !validGroupName(p.Group, phases[k-1].Groups):
		v.Add(f+".group", "invalid", fmt.Sprintf("phase %d has no group %q (groups are A, B, …)", k, p.Group))
	}
}

func validGroupName(name string, g *tourney.Grouping) bool {
	if len(name) != 1 || name[0] < 'A' || name[0] >= 'A'+tourney.MaxGroups {
		return false
	}
	return g.By == tourney.GroupClub || int(name[0]-'A') < g.Count
}

// PrizePhase is the phase a group prize is given in: its own, else the
// last phase with groups (0: none has).
func PrizePhase(p Prize, phases []tourney.Phase) int {
	if p.Phase != 0 {
		return p.Phase
	}
	for k := len(phases); k >= 1; k-- {
		if phases[k-1].Groups != nil {
			return k
		}
	}
	return 0
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
	return AwardGroupPrizes(prizes, entries, nil)
}

// AwardGroupPrizes is AwardPrizes with group prizes (docs/PHASES.md):
// group gives the entries of a group in the order of its standings (those
// of the prize's phase, PrizePhase). The prizes of the whole field go
// first, then the group prizes, then the category prizes (of the whole
// field, or of a group when they name one), each in list order.
func AwardGroupPrizes(prizes []Prize, entries []PrizeEntry, group func(Prize) []PrizeEntry) []PrizeAward {
	order := make([]Prize, 0, len(prizes))
	for _, pass := range []func(Prize) bool{
		func(p Prize) bool { return p.Category == "" && p.Group == "" },
		func(p Prize) bool { return p.Category == "" && p.Group != "" },
		func(p Prize) bool { return p.Category != "" },
	} {
		for _, p := range prizes {
			if pass(p) {
				order = append(order, p)
			}
		}
	}
	won := map[int64]bool{}
	out := make([]PrizeAward, 0, len(order))
	for _, p := range order {
		a := PrizeAward{Prize: p, Winners: []PrizeEntry{}}
		field := entries
		if p.Group != "" && group != nil {
			field = group(p)
		}
		for _, e := range field {
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
	entriesOf := func(rows []standings.Row) []PrizeEntry {
		entries := make([]PrizeEntry, 0, len(rows))
		for _, r := range rows {
			e := PrizeEntry{Entry: r.Entry, Rank: r.Rank}
			for _, p := range players[r.Entry] {
				e.Players = append(e.Players, tags[p])
			}
			entries = append(entries, e)
		}
		return entries
	}
	group := func(p Prize) []PrizeEntry {
		k := PrizePhase(p, read.Tournament.Phases)
		for _, sc := range read.Snapshot.PhaseStandings {
			if sc.Phase == k && sc.Group == p.Group && sc.Overall {
				return entriesOf(sc.Rows)
			}
		}
		return nil // a group that was never seeded: nobody wins it
	}
	awards := AwardGroupPrizes(read.Tournament.Prizes, entriesOf(st.Rows), group)
	return TournamentPrizes{TournamentRead: read, Awards: awards}, nil
}
