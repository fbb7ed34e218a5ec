package pairing

import (
	"testing"
)

// fieldWithHistory is 1,000 pairs with five rounds of modified Danish played
// on random results.
func fieldWithHistory(b testing.TB, n, rounds int) Field {
	rnd := NewRand(2026)
	f := field(rnd, n, n/4)
	f.ForbidSameClub = true
	for range rounds {
		f.Standings = standingsAfter(rnd, f)
		r, err := ModifiedDanish(f, false)
		if err != nil {
			b.Fatal(err)
		}
		f.History = append(f.History, r)
	}
	f.Standings = standingsAfter(rnd, f)
	return f
}

func BenchmarkModifiedDanish1000PairsAfter5Rounds(b *testing.B) {
	f := fieldWithHistory(b, 1000, 5)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ModifiedDanish(f, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkModifiedDanish1001PairsAfter5Rounds(b *testing.B) {
	f := fieldWithHistory(b, 1001, 5)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ModifiedDanish(f, false); err != nil {
			b.Fatal(err)
		}
	}
}
