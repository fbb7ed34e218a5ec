package pairing

import (
	"errors"
	"reflect"
	"testing"
)

func entries(ids ...int64) []Entry {
	out := make([]Entry, len(ids))
	for i, id := range ids {
		out[i] = Entry{ID: id, Seed: i + 1}
	}
	return out
}

func tablesOf(r Round) [][2]int64 {
	var out [][2]int64
	for _, t := range r.Tables {
		out = append(out, [2]int64{t.NS, t.EW})
	}
	return out
}

// sameTables compares tables as unordered pairs, in table order.
func sameTables(got Round, want [][2]int64) bool {
	if len(got.Tables) != len(want) {
		return false
	}
	for i, t := range got.Tables {
		if key(t.NS, t.EW) != key(want[i][0], want[i][1]) || t.Number != i+1 {
			return false
		}
	}
	return true
}

func TestDanish(t *testing.T) {
	tests := []struct {
		name   string
		f      Field
		tables [][2]int64
		byes   []int64
	}{
		{"PairsOneTwoThreeFourByStandings",
			Field{Entries: entries(1, 2, 3, 4, 5, 6), Standings: []int64{4, 2, 6, 1, 3, 5}},
			[][2]int64{{4, 2}, {6, 1}, {3, 5}}, nil},
		{"RematchAllowed",
			Field{Entries: entries(1, 2, 3, 4), Standings: []int64{1, 2, 3, 4},
				History: []Round{{Tables: []Table{{1, 1, 2}, {2, 3, 4}}}}},
			[][2]int64{{1, 2}, {3, 4}}, nil},
		{"ForbiddenNeighbourTakesTheNextOne",
			Field{Entries: entries(1, 2, 3, 4), Standings: []int64{1, 2, 3, 4}, Forbidden: [][2]int64{{2, 1}}},
			[][2]int64{{1, 3}, {2, 4}}, nil},
		{"SameClubKeptApart",
			Field{Entries: []Entry{{ID: 1, Club: "a"}, {ID: 2, Club: "a"}, {ID: 3}, {ID: 4}}, ForbidSameClub: true},
			[][2]int64{{1, 3}, {2, 4}}, nil},
		{"ByeToTheLowestRanked",
			Field{Entries: entries(1, 2, 3, 4, 5), Standings: []int64{5, 4, 3, 2, 1}},
			[][2]int64{{5, 4}, {3, 2}}, []int64{1}},
		{"ByeToTheLowestRankedWithoutOne",
			Field{Entries: entries(1, 2, 3, 4, 5), Standings: []int64{5, 4, 3, 2, 1},
				History: []Round{{Tables: []Table{{1, 5, 4}, {2, 3, 2}}, Byes: []int64{1}}}},
			[][2]int64{{5, 4}, {3, 1}}, []int64{2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Danish(tc.f)
			if err != nil {
				t.Fatal(err)
			}
			if !sameTables(r, tc.tables) || !reflect.DeepEqual(r.Byes, tc.byes) {
				t.Fatalf("got %v byes %v; want %v byes %v", tablesOf(r), r.Byes, tc.tables, tc.byes)
			}
		})
	}
}

// TestModifiedDanishForbidsOnlyPreviousRound: RULES §10's modified Danish
// refuses only a rematch of the previous round; older meetings are allowed
// (not avoided), and the last round is pure Danish, rematches included. The
// avoid_repeat_opponents variant avoids every earlier opponent while it can.
func TestModifiedDanishForbidsOnlyPreviousRound(t *testing.T) {
	older := Round{Tables: []Table{{1, 1, 2}, {2, 3, 4}}}
	previous := Round{Tables: []Table{{1, 1, 3}, {2, 2, 4}}}
	f := Field{Entries: entries(1, 2, 3, 4)}
	tests := []struct {
		name      string
		history   []Round
		standings []int64
		last      bool
		draw      func(Field, bool) (Round, error)
		tables    [][2]int64
	}{
		{"OlderRematchByStandings", []Round{older, previous}, []int64{1, 2, 3, 4}, false, ModifiedDanish, [][2]int64{{1, 2}, {3, 4}}},
		{"PreviousOpponentSkipped", []Round{older, previous}, []int64{1, 3, 2, 4}, false, ModifiedDanish, [][2]int64{{1, 2}, {3, 4}}},
		{"LastRoundPureDanishWithPreviousRematch", []Round{previous}, []int64{1, 3, 2, 4}, true, ModifiedDanish, [][2]int64{{1, 3}, {2, 4}}},
		{"AvoidRepeatsTakesFreshOpponents", []Round{older, previous}, []int64{1, 2, 3, 4}, false, ModifiedDanishAvoidingRepeats, [][2]int64{{1, 4}, {2, 3}}},
		{"AvoidRepeatsInTheLastRoundToo", []Round{previous}, []int64{1, 3, 2, 4}, true, ModifiedDanishAvoidingRepeats, [][2]int64{{1, 2}, {3, 4}}},
		{"AvoidRepeatsOlderRematchRatherThanPrevious", []Round{older, {Tables: []Table{{1, 1, 4}, {2, 2, 3}}}, previous}, []int64{1, 2, 3, 4}, false, ModifiedDanishAvoidingRepeats, [][2]int64{{1, 2}, {3, 4}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f.History, f.Standings = tc.history, tc.standings
			r, err := tc.draw(f, tc.last)
			if err != nil {
				t.Fatal(err)
			}
			if !sameTables(r, tc.tables) {
				t.Fatalf("got %v, want %v", tablesOf(r), tc.tables)
			}
		})
	}
	t.Run("PreviousOpponentRefusedBeforeTheLastRound", func(t *testing.T) {
		f := Field{Entries: entries(1, 2), History: []Round{{Tables: []Table{{1, 1, 2}}}}}
		for name, draw := range map[string]func(Field, bool) (Round, error){"RULES": ModifiedDanish, "AvoidRepeats": ModifiedDanishAvoidingRepeats} {
			if _, err := draw(f, false); err == nil {
				t.Fatalf("%s: a rematch of the previous round before the last", name)
			}
			r, err := draw(f, true)
			if err != nil || !sameTables(r, [][2]int64{{1, 2}}) {
				t.Fatalf("%s: last round: %v %v", name, tablesOf(r), err)
			}
		}
	})
}

func TestUnpairableFieldIsRefusedNamingTheEntries(t *testing.T) {
	f := Field{Entries: []Entry{{ID: 1, Club: "a"}, {ID: 2, Club: "a"}, {ID: 3, Club: "a"}, {ID: 4}}, ForbidSameClub: true}
	for name, draw := range map[string]func() (Round, error){
		"Danish":         func() (Round, error) { return Danish(f) },
		"ModifiedDanish": func() (Round, error) { return ModifiedDanish(f, true) },
		"RandomDraw":     func() (Round, error) { return RandomDraw(f, NewRand(1)) },
	} {
		t.Run(name, func(t *testing.T) {
			_, err := draw()
			var pe *Error
			if !errors.As(err, &pe) || pe.Code != CodeUnpairable || len(pe.Entries) == 0 {
				t.Fatalf("err = %v", err)
			}
			for _, id := range pe.Entries {
				if id == 4 && len(pe.Entries) == 1 {
					t.Fatalf("names only the free entry: %v", pe.Entries)
				}
			}
		})
	}
}

func TestBadFieldRefused(t *testing.T) {
	tests := map[string][]Entry{
		"DuplicateIDRefused": {{ID: 1}, {ID: 1}},
		"ZeroIDRefused":      {{ID: 0}, {ID: 1}},
		"OneEntryRefused":    {{ID: 1}},
	}
	for name, es := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Danish(Field{Entries: es})
			var pe *Error
			if !errors.As(err, &pe) || pe.Code != CodeBadField {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestMitchell(t *testing.T) {
	f := Field{Entries: entries(1, 2, 3, 4, 5, 6)}
	tests := []struct {
		name        string
		round, step int
		tables      [][2]int64
	}{
		{"RoundOneFacesLineUp", 1, 1, [][2]int64{{1, 4}, {2, 5}, {3, 6}}},
		{"EWMovesUpOneTable", 2, 1, [][2]int64{{1, 6}, {2, 4}, {3, 5}}},
		{"EWMovesTwoTablesWithStepTwo", 2, 2, [][2]int64{{1, 5}, {2, 6}, {3, 4}}},
		{"RoundAfterTheLastStartsAgain", 4, 1, [][2]int64{{1, 4}, {2, 5}, {3, 6}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Mitchell(f, tc.round, tc.step)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tablesOf(r), tc.tables) {
				t.Fatalf("got %v, want %v", tablesOf(r), tc.tables)
			}
		})
	}
	t.Run("StepSharingAFactorWithTheTablesRefused", func(t *testing.T) {
		_, err := Mitchell(Field{Entries: entries(1, 2, 3, 4, 5, 6, 7, 8)}, 1, 2)
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != CodeBadRound {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("SameClubPutOnOneLine", func(t *testing.T) {
		f := Field{Entries: []Entry{{ID: 1, Club: "a"}, {ID: 2}, {ID: 3, Club: "a"}, {ID: 4}}, ForbidSameClub: true}
		for r := 1; r <= 2; r++ {
			got, err := Mitchell(f, r, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, tb := range got.Tables {
				if key(tb.NS, tb.EW) == key(1, 3) {
					t.Fatalf("round %d: 1 and 3 meet", r)
				}
			}
		}
	})
	t.Run("ForbiddenMeetingThatLinesCannotAvoidRefused", func(t *testing.T) {
		f := Field{Entries: []Entry{{ID: 1, Club: "a"}, {ID: 2, Club: "a"}, {ID: 3, Club: "a"}, {ID: 4}}, ForbidSameClub: true}
		_, err := Mitchell(f, 1, 1)
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != CodeForbidden {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("OddFieldGivesTheByeToTheNSEntryThePhantomVisits", func(t *testing.T) {
		r, err := Mitchell(Field{Entries: entries(1, 2, 3, 4, 5)}, 1, 1)
		if err != nil || !reflect.DeepEqual(r.Byes, []int64{3}) {
			t.Fatalf("byes %v, %v", r.Byes, err)
		}
	})
}

func TestRoundRobinFirstRoundsOfFour(t *testing.T) {
	f := Field{Entries: entries(1, 2, 3, 4)}
	want := [][][2]int64{{{1, 4}, {3, 2}}, {{2, 1}, {3, 4}}, {{1, 3}, {2, 4}}}
	for r, w := range want {
		got, err := RoundRobin(f, r+1)
		if err != nil || !reflect.DeepEqual(tablesOf(got), w) {
			t.Fatalf("round %d: %v %v, want %v", r+1, tablesOf(got), err, w)
		}
	}
	t.Run("ForbiddenMeetingRefused", func(t *testing.T) {
		f := Field{Entries: entries(1, 2, 3, 4), Forbidden: [][2]int64{{1, 4}}}
		_, err := RoundRobin(f, 1)
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != CodeForbidden {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestKnockout(t *testing.T) {
	es := []Entry{{ID: 10, Seed: 5}, {ID: 20, Seed: 1}, {ID: 30, Seed: 3}, {ID: 40, Seed: 2}, {ID: 50, Seed: 4}}
	b, err := SeedBracket(es)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("TopSeedsGetTheByes", func(t *testing.T) {
		want := []int64{20, 0, 50, 10, 40, 0, 30, 0} // seeds 1 8 4 5 2 7 3 6
		if !reflect.DeepEqual(b.Slots, want) {
			t.Fatalf("slots %v, want %v", b.Slots, want)
		}
		r := b.Round()
		if !reflect.DeepEqual(r.Byes, []int64{20, 40, 30}) || !reflect.DeepEqual(tablesOf(r), [][2]int64{{50, 10}}) {
			t.Fatalf("round %+v", r)
		}
	})
	t.Run("WinnersAdvance", func(t *testing.T) {
		next, err := b.Advance([]int64{10})
		if err != nil || !reflect.DeepEqual(next.Slots, []int64{20, 10, 40, 30}) {
			t.Fatalf("%v %v", next.Slots, err)
		}
	})
	t.Run("BothOrNeitherWinnerRefused", func(t *testing.T) {
		for _, w := range [][]int64{nil, {10, 50}, {10, 99}} {
			_, err := b.Advance(w)
			var pe *Error
			if !errors.As(err, &pe) || pe.Code != CodeBadResult {
				t.Fatalf("winners %v: err = %v", w, err)
			}
		}
	})
}

func TestIndividualSeatsFourAtATableWithNewPartners(t *testing.T) {
	players := entries(1, 2, 3, 4, 5, 6, 7, 8, 9)
	f := IndividualField{Players: players}
	for r := range 3 {
		round, err := Individual(f, NewRand(uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		if len(round.Tables) != 2 || len(round.Byes) != 1 {
			t.Fatalf("round %d: %+v", r+1, round)
		}
		checkIndividualRound(t, f, round, true)
		f.History = append(f.History, round)
	}
	t.Run("TooFewPlayersRefused", func(t *testing.T) {
		_, err := Individual(IndividualField{Players: entries(1, 2, 3)}, NewRand(1))
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != CodeBadField {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestHalfTheFieldFromOneClubIsStillPaired(t *testing.T) {
	for _, n := range []int{20, 21, 60, 61, 200, 1000} {
		rnd := NewRand(uint64(n))
		f := field(rnd, n, 0)
		rnd.Shuffle(n, func(i, j int) { f.Entries[i], f.Entries[j] = f.Entries[j], f.Entries[i] })
		for i := range n / 2 {
			f.Entries[i].Club = "big"
		}
		f.ForbidSameClub = true
		f.Standings = idsOf(f) // the club's entries lead the standings
		for _, m := range searchedMovements {
			r, err := m.draw(f, false, rnd)
			if err != nil {
				t.Fatalf("%s, %d entries: %v", m.name, n, err)
			}
			checkOnce(t, f, r)
			checkNoForbidden(t, f, r)
		}
	}
}

func TestMeetRoundIsTheRoundRoundRobinSeatsThePair(t *testing.T) {
	for n := 2; n <= 31; n++ {
		f := field(NewRand(1), n, 0)
		m := n + n%2
		for r := 1; r < m; r++ {
			round, err := RoundRobin(f, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, tb := range round.Tables {
				a, b := int(min(tb.NS, tb.EW)-101), int(max(tb.NS, tb.EW)-101)
				if got := meetRound(a, b, m); got != r {
					t.Fatalf("n=%d: positions %d, %d meet in round %d, meetRound says %d", n, a, b, r, got)
				}
			}
		}
	}
}

func TestSeatRoundRobin(t *testing.T) {
	t.Run("ClubsKeptApartInAPartialRoundRobin", func(t *testing.T) {
		for seed := range uint64(30) {
			rnd := NewRand(seed)
			n := 8 + rnd.IntN(30)
			f := field(rnd, n, n/2)
			f.ForbidSameClub = true
			rounds := 3
			seated, err := SeatRoundRobin(f, rounds, rnd)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			g := f
			g.Entries = seated
			for r := 1; r <= rounds; r++ {
				round, err := RoundRobin(g, r)
				if err != nil {
					t.Fatalf("seed %d round %d: %v", seed, r, err)
				}
				checkOnce(t, g, round)
			}
		}
	})
	t.Run("FullRoundRobinCannotKeepAPairApart", func(t *testing.T) {
		f := Field{Entries: entries(1, 2, 3, 4), Forbidden: [][2]int64{{1, 2}}}
		_, err := SeatRoundRobin(f, 3, NewRand(1))
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != CodeForbidden {
			t.Fatalf("err = %v", err)
		}
	})
}
