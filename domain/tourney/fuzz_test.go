package tourney

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/vp"
)

// fuzzBases are tournaments in play of every kind, for the fuzz tests.
func fuzzBases(tb testing.TB) []*State {
	var out []*State
	team := vp.ThreeDeal()
	ind := pairsSetup(Random, 3, 3)
	ind.Kind = KindIndividual
	teams := pairsSetup(RoundRobin, 3, 3)
	teams.Kind, teams.VPTable, teams.TeamPairs = KindTeams, &team, DefaultTeamPairs
	for _, su := range []Config{pairsSetup(ModifiedDanish, 3, 3), pairsSetup(Knockout, 0, 3), ind, teams, pairsSetup(Mitchell, 3, 3)} {
		h := newHarness(tb, su)
		h.register(8)
		h.do(Start{}, referee)
		if su.Movement == Knockout {
			h.playKnockoutRound(1)
		} else {
			h.playRound(1, varied)
		}
		h.do(DrawRound{Round: 2}, referee)
		h.do(StartRound{Round: 2}, referee)
		h.do(EnterScore{Round: 2, Table: 1, Version: h.version(2, 1), Deals: []DealInput{deal(1, 300, 100)}}, h.sideAt(2, 1, "ns"))
		out = append(out, h.s)
	}
	return out
}

var fuzzActors = []Actor{director, referee, stranger, player(101), player(201), player(302), player(402), player(801)}

func FuzzCommand(f *testing.F) {
	bases := fuzzBases(f)
	for _, seed := range []struct{ name, data string }{
		{"enter_score", `{"round":2,"table":1,"version":0,"deals":[{"number":1,"ns":{"cards":200,"total":200},"ew":{"hand":20,"total":-20}}]}`},
		{"enter_score", `{"round":2,"table":2,"version":99,"deals":[{"number":2,"ns":{"cards":-5,"burraco":2000000000,"total":5},"ew":{}}]}`},
		{"confirm_score", `{"round":2,"table":1,"version":0,"deals":[1,1,9]}`},
		{"correct_score", `{"round":1,"table":1,"version":0,"deal":{"number":1,"ns":{"total":0},"ew":{"total":0},"time_out":true},"reason":"x"}`},
		{"ruling", `{"round":2,"table":1,"kind":"abandonment","entry":1}`},
		{"ruling", `{"round":2,"table":2,"kind":"time_out","deal":{"number":1,"ns":{"cards":5,"total":5},"ew":{}}}`},
		{"override_pairings", `{"round":3,"tables":[{"number":1,"ns":1,"ew":1}],"byes":[0,-1],"reason":"r"}`},
		{"override_pairings", `{"round":2,"foursomes":[{"number":0,"n":1,"s":1,"e":9,"w":-3}],"reason":"r"}`},
		{"add_entry", `{"players":[0,-1,5]}`},
		{"withdraw", `{"entry":3}`},
		{"set_forbidden", `{"pairs":[[1,2],[3,3],[0,99]]}`},
		{"penalty", `{"entry":2,"vp":-1,"mp":3,"reason":" "}`},
		{"draw_round", `{"round":3}`},
		{"close_round", `{"round":2}`},
		{"reopen_round", `{"round":1,"reason":"x"}`},
		{"update_entry", `{"entry":1,"number":-4,"name":"x"}`},
		{"finish", ``},
		{"cancel", `{"reason":"rain"}`},
	} {
		for i := range bases {
			f.Add(uint8(i), seed.name, []byte(seed.data))
		}
	}
	at := time.Date(2026, 3, 14, 18, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, base uint8, name string, data []byte) {
		cmd, err := ParseCommand(name, data)
		if err != nil {
			var te *Error
			if !errors.As(err, &te) || te.Code != CodeInvalidCommand {
				t.Fatalf("ParseCommand error %v is not an invalid_command *Error", err)
			}
			return
		}
		for _, who := range fuzzActors {
			s := bases[int(base)%len(bases)].clone()
			e, err := s.Decide(cmd, who, at, pairing.NewRand(1))
			if err != nil {
				var te *Error
				if !errors.As(err, &te) {
					t.Fatalf("Decide error %v is not an *Error", err)
				}
				continue
			}
			if err := s.Apply(e); err != nil {
				t.Fatalf("Apply refused what Decide made: %v\n%s", err, e.Data)
			}
			if _, err := json.Marshal(s); err != nil {
				t.Fatalf("state after %s: %v", e.Kind, err)
			}
		}
	})
}

func FuzzApply(f *testing.F) {
	bases := fuzzBases(f)
	for _, k := range []string{EventScoreEntered, EventRoundDrawn, EventScoreCorrected, EventRuling, EventWithdrawn, EventPairingsOverridden, EventEntryAdded} {
		f.Add(uint8(0), k, []byte(`{"round":2,"table":1,"deals":[{"number":2}],"tables":[{"number":1,"ns":1,"ew":2}]}`))
	}
	f.Add(uint8(1), EventScoreCorrected, []byte(`{"round":1,"table":1,"deal":{"number":1},"redraws":[{"round":2,"tables":[{"number":1,"ns":1,"ew":1}]}]}`))
	f.Add(uint8(2), EventRuling, []byte(`{"round":2,"table":1,"kind":"bye","entry":4}`))
	f.Fuzz(func(t *testing.T, base uint8, kind string, data []byte) {
		s := bases[int(base)%len(bases)].clone()
		before, _ := json.Marshal(s)
		if err := s.Apply(Event{Seq: s.Seq() + 1, Kind: kind, Data: data}); err != nil {
			if after, _ := json.Marshal(s); string(after) != string(before) {
				t.Fatalf("a refused event changed the state: %v", err)
			}
			return
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatalf("state after an accepted %s: %v", kind, err)
		}
	})
}
