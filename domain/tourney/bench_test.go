package tourney

import (
	"sync"
	"testing"
	"time"
)

// The benchmark log: 200 pairs, modified Danish, 7 rounds of 3 deals, every
// deal entered by a player and confirmed by an opponent (about 4,300
// events). inPlay is the log up to deal 1 of the last table of round 7,
// entered and not confirmed; whole is the tournament to its finish.
var bench struct {
	once          sync.Once
	setup         Config
	inPlay, whole []Event
}

func benchLog(b *testing.B) {
	bench.once.Do(func() {
		h := newHarness(b, pairsSetup(ModifiedDanish, 7, 3))
		h.register(200)
		h.do(Start{}, referee)
		for n := 1; n <= 6; n++ {
			h.playRound(n, varied)
		}
		h.do(DrawRound{Round: 7}, referee)
		h.do(StartRound{Round: 7}, referee)
		rv, _ := h.s.Round(7)
		last := rv.Tables[len(rv.Tables)-1]
		for _, tv := range rv.Tables[:len(rv.Tables)-1] {
			for d := 1; d <= 3; d++ {
				h.playDeal(7, tv.Number, varied(7, tv, d))
			}
		}
		h.do(EnterScore{Round: 7, Table: last.Number, Version: h.version(7, last.Number), Deals: []DealInput{varied(7, last, 1)}}, h.sideAt(7, last.Number, "ns"))
		bench.inPlay = append([]Event(nil), h.events...)
		h.do(ConfirmScore{Round: 7, Table: last.Number, Version: h.version(7, last.Number)}, h.sideAt(7, last.Number, "ew"))
		for d := 2; d <= 3; d++ {
			h.playDeal(7, last.Number, varied(7, last, d))
		}
		h.do(CloseRound{Round: 7}, referee)
		h.do(Finish{}, director)
		bench.setup, bench.whole = h.setup, h.events
	})
}

func BenchmarkReplay200Pairs7Rounds(b *testing.B) {
	benchLog(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Replay(bench.setup, bench.whole); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(bench.whole)), "events")
}

// inPlayState is the state of the inPlay log and the last table of round 7.
func inPlayState(b *testing.B) (*State, TableView) {
	benchLog(b)
	s, err := Replay(bench.setup, bench.inPlay)
	if err != nil {
		b.Fatal(err)
	}
	rv, _ := s.Round(7)
	return s, rv.Tables[len(rv.Tables)-1]
}

func BenchmarkDecideEnterScore(b *testing.B) {
	s, tv := inPlayState(b)
	ew := player(s.pairPlayers(tv.EW, 1)[0])
	at := time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC)
	cmd := EnterScore{Round: 7, Table: tv.Number, Version: tv.Sheet.Version, Deals: []DealInput{deal(1, 450, 300)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Decide(cmd, ew, at, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The hot path of the service, which caches the state: decide an entry
// (the opponent entering again the deal not yet confirmed) and fold it in.
func BenchmarkDecideApplyEnterScore(b *testing.B) {
	s, tv := inPlayState(b)
	ew := player(s.pairPlayers(tv.EW, 1)[0])
	at := time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC)
	cmd := EnterScore{Round: 7, Table: tv.Number, Deals: []DealInput{deal(1, 450, 300)}}
	b.ReportAllocs()
	for b.Loop() {
		cmd.Version = s.rounds[6].tables[len(s.rounds[6].tables)-1].version
		e, err := s.Decide(cmd, ew, at, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Apply(e); err != nil {
			b.Fatal(err)
		}
	}
}

// Standings after an entry: what a hall screen's read costs once per event.
func BenchmarkStandings200Pairs(b *testing.B) {
	s, _ := inPlayState(b)
	b.ReportAllocs()
	for b.Loop() {
		s.cache = new(standingsCache)
		if _, err := s.Standings(); err != nil {
			b.Fatal(err)
		}
	}
}
