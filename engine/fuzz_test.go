package engine

import (
	"encoding/json"
	"testing"
)

func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"AS", "10D", "th", " JK ", "2C", "", "1S", "KX", "100H"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCard(s)
		if err != nil {
			if ErrorCode(err) != ErrBadNotation {
				t.Fatalf("%q: error without bad_notation: %v", s, err)
			}
			return
		}
		if !c.Valid() {
			t.Fatalf("%q parsed to invalid card %d", s, c)
		}
		if back, err := ParseCard(c.String()); err != nil || back != c {
			t.Fatalf("%q: %s does not round-trip", s, c)
		}
	})
}

func FuzzDecodeMove(f *testing.F) {
	for _, s := range []string{
		`{"move":"draw"}`, `{"move":"pickup","meld":["JC","JH"],"melds":[["5S","6S","7S"]]}`,
		`{"move":"pickup","attach":1}`, `{"move":"pickup","attach":0,"cards":["8C"]}`,
		`{"move":"pickup","attach":0,"meld":["8C"]}`, `{"move":"attach","meld":0,"cards":["7C","TC"],"wild_as":"9C"}`,
		`{"move":"meld","cards":["7H","8H"],"row":true}`, `{"move":"discard","card":"9C"}`,
		`{"move":"meld","meld":1e99}`, `{"move":"attach","meld":-1}`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m Move
		if err := json.Unmarshal(data, &m); err != nil {
			return
		}
		b, err := json.Marshal(m)
		if err != nil {
			if m.Kind == NoMove {
				return
			}
			t.Fatalf("decoded %#v does not encode: %v", m, err)
		}
		var back Move
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s does not decode again: %v", b, err)
		}
		b2, _ := json.Marshal(back)
		if string(b) != string(b2) {
			t.Fatalf("not stable: %s vs %s", b, b2)
		}
	})
}

func FuzzLoadPosition(f *testing.F) {
	f.Add([]byte(`{"rules":"fibur","players":4,"turn":0,"phase":"play","hands":[["5H"],["3S"],["4D"],["KC"]],"stock":["8D"],"discard":["QC"],"pots":[["AS"],["3C"]],"pot_taken":[false,false],"melds":[[["AH","2H","3H","4H"]],[]]}`))
	f.Add([]byte(`{"rules":"fibur-row","players":2,"hands":[["5H"],["3S"]],"rows":[["9H"],["4S"]],"stock":[],"discard":[],"pots":[]}`))
	f.Add([]byte(`{"rules":"fechado","options":{"vulnerability":true},"totals":[1600,0],"hands":[["2S"],["3S"]],"stock":[],"discard":["2H"],"pots":[],"first_turn":true}`))
	f.Add([]byte(`{"rules":"aberto","phase":"over","end":"closed","closer":1,"hands":[[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true],"pot_unplayed":[true,false]}`))
	f.Add([]byte(`{"rules":"aberto","players":4,"turn":2,"phase":"play","hands":[["KD"],["3D"],["5C"],["JC"]],"stock":["8H"],"discard":[],"pots":[],"pot_taken":[true,true],"pot_unplayed":[false,true],"pot_seat":[-1,3],"last_round":{"until":3,"turns_left":2}}`))
	f.Add([]byte(`{"rules":"reale","hands":[["JK"],[]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParsePosition(data)
		if err != nil {
			if ErrorCode(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
			return
		}
		roundTrip(t, g)
		_ = g.Score()
		for s := -1; s < g.Players(); s++ {
			if _, err := json.Marshal(g.View(s)); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range g.LegalMoves(g.Turn()) {
			h := g.Clone()
			if err := h.Apply(h.Turn(), m); err != nil {
				t.Fatalf("legal move %s rejected: %v", m, err)
			}
		}
	})
}

// fuzzMove builds a move from raw bytes, so that the fuzzer reaches the
// rules without having to write JSON.
func fuzzMove(b []byte) Move {
	at := func(i int) byte {
		if i < len(b) {
			return b[i]
		}
		return 0
	}
	card := func(x byte) Card {
		if x%9 == 0 {
			return Joker
		}
		return NewCard(Rank(1+x%13), Suit(x/13%4))
	}
	m := Move{Kind: MoveKind(at(0) % 8), Meld: int(int8(at(1))) % 8, Row: at(2)&1 == 1, Attach: at(2)&2 == 2}
	if at(2)&4 == 4 {
		m.WildAs = card(at(3))
	}
	m.Card = card(at(4))
	n := int(at(5) % 6)
	for i := range n {
		m.Cards = append(m.Cards, card(at(6+i)))
	}
	if at(5)&0x80 != 0 {
		m.Melds = append(m.Melds, []Card{card(at(12)), card(at(13)), card(at(14))})
	}
	return m
}

func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(10), uint8(0), []byte{3, 0, 0, 0, 0, 3, 1, 2, 3})
	f.Add(uint64(7), uint8(33), uint8(1), []byte{5, 0, 0, 0, 17})
	f.Add(uint64(11), uint8(80), uint8(0), []byte{4, 1, 0, 0, 0, 1, 20})
	f.Add(uint64(4), uint8(1), uint8(0), []byte(`{"move":"pickup","meld":["JC","JH"]}`))
	f.Add(uint64(7), uint8(6), uint8(0), []byte(`{"move":"pickup","attach":0,"cards":["8C"]}`))
	f.Add(uint64(19), uint8(40), uint8(0), []byte{2, 0, 2, 0, 0, 2, 7, 8})
	configs := simConfigs()
	f.Fuzz(func(t *testing.T, seed uint64, steps, seatByte uint8, raw []byte) {
		c := configs[seed%uint64(len(configs))]
		r := c.rules(t)
		g, err := Deal(r, int(seed%uint64(r.Players)), seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		deck := countCards(g)
		b := &bot{rng: NewRand(seed)}
		for range int(steps) {
			m, ok := b.choose(g)
			if !ok || g.Over() {
				break
			}
			mustApply(t, g, g.Turn(), m)
		}
		var m Move
		if json.Unmarshal(raw, &m) != nil {
			m = fuzzMove(raw)
		}
		seat := g.Turn()
		if seatByte%4 == 3 {
			seat = int(seatByte) % 5
		}
		before := posJSON(t, g)
		if err := g.Apply(seat, m); err != nil {
			if ErrorCode(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
			if posJSON(t, g) != before {
				t.Fatalf("rejected %s changed the position", m)
			}
			return
		}
		checkInvariants(t, g, deck)
		roundTrip(t, g)
	})
}
