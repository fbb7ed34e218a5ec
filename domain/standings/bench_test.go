package standings_test

import (
	"math/rand/v2"
	"testing"

	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/vp"
)

// event is n pairs after rounds rounds of modified Danish on random 3-deal
// results converted by RULES §10's table.
func event(b *testing.B, n, rounds int) (pairing.Field, standings.Input) {
	rnd := rand.New(rand.NewPCG(2026, 8))
	f := pairing.Field{}
	in := standings.Input{}
	for i := range n {
		f.Entries = append(f.Entries, pairing.Entry{ID: int64(i + 1)})
		in.Entries = append(in.Entries, int64(i+1))
	}
	table := vp.ThreeDeal()
	for r := 1; r <= rounds; r++ {
		f.Standings = order(b, in)
		round, err := pairing.ModifiedDanish(f, false)
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range round.Tables {
			mpA, mpB := 5*rnd.IntN(300)-200, 5*rnd.IntN(300)-200
			vpA, vpB, err := table.Convert(mpA, mpB)
			if err != nil {
				b.Fatal(err)
			}
			in.Matches = append(in.Matches, standings.Match{Round: r, A: t.NS, B: t.EW, MPA: mpA, MPB: mpB, VPA: vpA, VPB: vpB})
		}
		for _, id := range round.Byes {
			in.Byes = append(in.Byes, standings.Bye{Round: r, Entry: id})
		}
		f.History = append(f.History, round)
	}
	return f, in
}

var cfg = standings.Config{RestVP: 14, RestMP: 355, DealsPerRound: 3, LotsSeed: 1}

func order(b *testing.B, in standings.Input) []int64 {
	tab, err := standings.Compute(in, cfg)
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]int64, len(tab.Rows))
	for i, r := range tab.Rows {
		ids[i] = r.Entry
	}
	return ids
}

func BenchmarkStandings1000PairsAfter5Rounds(b *testing.B) {
	_, in := event(b, 1000, 5)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := standings.Compute(in, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStandingsAndNextPairing1000Pairs is the work between two rounds
// of a 1,000-pair modified Danish (issue 8's goal: under 50 ms): standings
// after round 5, then round 6's pairing from them.
func BenchmarkStandingsAndNextPairing1000Pairs(b *testing.B) {
	f, in := event(b, 1000, 5)
	b.ReportAllocs()
	for b.Loop() {
		f.Standings = order(b, in)
		if _, err := pairing.ModifiedDanish(f, false); err != nil {
			b.Fatal(err)
		}
	}
}
