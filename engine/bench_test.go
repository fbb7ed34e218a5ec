package engine

import "testing"

// midGame plays a fibur deal with the bot until the player on turn is in
// phase play holding at least 6 cards, with team melds on the table.
func midGame(b *testing.B) *Game {
	r, _ := NewRules(Fibur, 4)
	for seed := uint64(1); seed < 1000; seed++ {
		g, err := Deal(r, 0, seed, nil)
		if err != nil {
			b.Fatal(err)
		}
		bt := &bot{rng: NewRand(seed)}
		for n := 0; n < 400 && !g.Over(); n++ {
			t := g.Team(g.Turn())
			if n > 30 && g.Phase() == PhasePlay && g.HandSize(g.Turn()) >= 6 && len(g.melds[t]) >= 2 {
				return g
			}
			m, ok := bt.choose(g)
			if !ok {
				break
			}
			if err := g.Apply(g.Turn(), m); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Fatal("no mid-game position found")
	return nil
}

func reportMoves(b *testing.B, movesPerOp float64) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(b.N)*movesPerOp/s, "moves/s")
	}
}

// BenchmarkCopyPosition is the baseline of the Apply benchmarks: it only
// copies the mid-game position into a reused game, the work every Apply
// benchmark does before its move. Report Apply figures as a ratio to it.
func BenchmarkCopyPosition(b *testing.B) {
	base := midGame(b)
	g := base.Clone()
	b.ReportAllocs()
	for b.Loop() {
		g.CopyFrom(base)
	}
}

// BenchmarkApplyMidGame copies a mid-game position into a reused game, then
// validates and applies a discard.
func BenchmarkApplyMidGame(b *testing.B) {
	base := midGame(b)
	seat := base.Turn()
	var disc Move
	for _, m := range base.LegalMoves(seat) {
		if m.Kind == Discard {
			disc = m
		}
	}
	g := base.Clone()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		g.CopyFrom(base)
		if err := g.Apply(seat, disc); err != nil {
			b.Fatal(err)
		}
	}
	reportMoves(b, 1)
}

// BenchmarkApplyAttach copies a mid-game position, then validates and
// applies an attach (the meld code's work included).
func BenchmarkApplyAttach(b *testing.B) {
	r, _ := NewRules(Fibur, 4)
	base := loadPos(b, r.ID, 4, "", `{"turn":0,"phase":"play","hands":[["KC","8H","5D","QS","9D","4S"],["3D","4D"],["6D","8D"],["JD","QD"]],
	 "stock":["8S","9S","TS","JS","KS"],"discard":["5C"],"pots":[["4C","5S","6S"],["TD","TH","KD"]],
	 "melds":[[["2C","TC","JC"],["2H","5H","6H"],["9S","9H","9D"]],[]]}`)
	m := AttachMove(0, MustParseCard("KC"))
	g := base.Clone()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		g.CopyFrom(base)
		if err := g.Apply(0, m); err != nil {
			b.Fatal(err)
		}
	}
	reportMoves(b, 1)
}

// BenchmarkCheckRejected validates a move that is rejected (out of turn).
func BenchmarkCheckRejected(b *testing.B) {
	base := midGame(b)
	m := DiscardMove(base.hands[base.Turn()][0])
	seat := (base.Turn() + 1) % 4
	b.ReportAllocs()
	for b.Loop() {
		if base.Check(seat, m) == nil {
			b.Fatal("accepted")
		}
	}
	reportMoves(b, 1)
}

// BenchmarkRandomDeal plays a whole fibur deal with the random bot (move
// generation included).
func BenchmarkRandomDeal(b *testing.B) {
	r, _ := NewRules(Fibur, 4)
	b.ReportAllocs()
	total := 0
	seed := uint64(0)
	for b.Loop() {
		seed++
		_, n := playRandomDeal(b, r, seed, false, false, nil)
		total += n
	}
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(total)/s, "moves/s")
	}
}

// BenchmarkSummaryMidGame computes the legal-move summary of a mid-game
// position (the complete meld and attach search).
func BenchmarkSummaryMidGame(b *testing.B) {
	g := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if s := g.Summary(g.Turn()); !s.CanDiscard {
			b.Fatal("no discard")
		}
	}
}

// BenchmarkSummaryVulnerable computes the summary of a vulnerable team
// whose melds reach 75 points only together (the combination search).
func BenchmarkSummaryVulnerable(b *testing.B) {
	g := loadPos(b, Aberto, 2, "", `{"turn":0,"phase":"play","totals":[1500,0],
	 "hands":[["5S","6S","7S","8S","9D","TD","JD","QC","KC","AC","3H","4H"],["3D"]],"stock":["8H"],"discard":[],"pots":[["4C"],["5C"]]}`)
	b.ReportAllocs()
	for b.Loop() {
		if !g.Summary(0).CanMeld {
			b.Fatal("cannot meld")
		}
	}
}

// BenchmarkLegalMoves lists the legal moves of a mid-game position.
func BenchmarkLegalMoves(b *testing.B) {
	g := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if len(g.LegalMoves(g.Turn())) == 0 {
			b.Fatal("no moves")
		}
	}
}
