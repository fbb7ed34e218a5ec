package pairing

import "testing"

func TestValidateRound(t *testing.T) {
	f := Field{
		Entries:   []Entry{{ID: 1, Club: "a"}, {ID: 2, Club: "a"}, {ID: 3}, {ID: 4}, {ID: 5}},
		History:   []Round{{Tables: []Table{{1, 1, 3}, {2, 2, 4}}, Byes: []int64{5}}},
		Forbidden: [][2]int64{{3, 4}}, ForbidSameClub: true,
	}
	tests := []struct {
		name string
		r    Round
		want []string // problem codes, in order
	}{
		{"GoodRoundHasNoProblem", Round{Tables: []Table{{1, 1, 4}, {2, 2, 5}}, Byes: []int64{3}}, nil},
		{"RematchIsNoProblem", Round{Tables: []Table{{1, 1, 3}, {2, 2, 5}}, Byes: []int64{4}}, nil},
		{"TableNumberUsedTwice", Round{Tables: []Table{{1, 1, 4}, {1, 2, 5}}, Byes: []int64{3}}, []string{ProblemTableNumber}},
		{"TableNumberZero", Round{Tables: []Table{{0, 1, 4}, {2, 2, 5}}, Byes: []int64{3}}, []string{ProblemTableNumber}},
		{"EntryAgainstItself", Round{Tables: []Table{{1, 1, 1}, {2, 2, 5}, {3, 3, 4}}}, []string{ProblemSelf, ProblemForbidden}},
		{"EmptySeat", Round{Tables: []Table{{1, 1, 0}, {2, 2, 5}, {3, 3, 4}}}, []string{ProblemZero, ProblemForbidden}},
		{"UnknownEntry", Round{Tables: []Table{{1, 1, 9}, {2, 2, 5}}, Byes: []int64{3}}, []string{ProblemUnknown, ProblemMissing}},
		{"EntryTwiceAndTooManyByes", Round{Tables: []Table{{1, 1, 4}, {2, 2, 4}}, Byes: []int64{3, 5}}, []string{ProblemTwice, ProblemByeCount, ProblemByeRepeat}},
		{"ByeToAnEntryThatHadOne", Round{Tables: []Table{{1, 1, 4}, {2, 2, 3}}, Byes: []int64{5}}, []string{ProblemByeRepeat}},
		{"SameClubMeets", Round{Tables: []Table{{1, 1, 2}, {2, 3, 5}}, Byes: []int64{4}}, []string{ProblemForbidden}},
		{"ListedPairMeets", Round{Tables: []Table{{1, 3, 4}, {2, 2, 5}}, Byes: []int64{1}}, []string{ProblemForbidden}},
		{"EverybodyMissing", Round{}, []string{ProblemMissing}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := ValidateRound(f, tc.r)
			var got []string
			for _, p := range ps {
				got = append(got, p.Code)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("problems %v, want %v", ps, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("problems %v, want %v", ps, tc.want)
				}
			}
		})
	}
}

func TestValidateIndividualRound(t *testing.T) {
	f := IndividualField{Players: entries(1, 2, 3, 4, 5), Forbidden: [][2]int64{{1, 5}}}
	tests := []struct {
		name string
		r    IndividualRound
		want []string
	}{
		{"GoodRoundHasNoProblem", IndividualRound{Tables: []Foursome{{1, 1, 2, 3, 4}}, Byes: []int64{5}}, nil},
		{"PlayerTwiceAtATable", IndividualRound{Tables: []Foursome{{1, 1, 1, 3, 4}}, Byes: []int64{5}}, []string{ProblemSelf, ProblemMissing}},
		{"ForbiddenPlayersTogether", IndividualRound{Tables: []Foursome{{1, 1, 2, 3, 5}}, Byes: []int64{4}}, []string{ProblemForbidden}},
		{"TooManyByes", IndividualRound{Tables: []Foursome{{1, 1, 2, 3, 4}}, Byes: []int64{5, 4}}, []string{ProblemTwice, ProblemByeCount}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := ValidateIndividualRound(f, tc.r)
			var got []string
			for _, p := range ps {
				got = append(got, p.Code)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("problems %v, want %v", ps, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("problems %v, want %v", ps, tc.want)
				}
			}
		})
	}
}

func TestValidateRoundAcceptsEveryGeneratedRound(t *testing.T) {
	for seed := range uint64(60) {
		rnd := NewRand(seed)
		f := randomEvent(rnd)
		for range 4 {
			f.Standings = standingsAfter(rnd, f)
			r, err := ModifiedDanish(f, false)
			if err != nil {
				break
			}
			if ps := ValidateRound(f, r); ps != nil {
				t.Fatalf("seed %d: a generated round has problems: %v", seed, ps)
			}
			f.History = append(f.History, r)
		}
	}
}
