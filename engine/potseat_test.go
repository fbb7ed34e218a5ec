package engine

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// A 4-player aberto position: seat 3 took team 1's morto with a discard,
// seats 0 and 1 have played since, seat 2 is about to close.
const potSeatPos = `{"turn":2,"phase":"play",
  "hands":[["KD"],["3D","4D"],["5C"],["JC","JC","QD"]],
  "stock":["8H","9H"],"discard":["6C"],"pots":[],
  "pot_taken":[true,true],"pot_unplayed":[false,true]%s,
  "melds":[[["4S","5S","6S","7S","8S","9S","TS"]],[["QH","KH","AH"]]]}`

func TestPotSeat(t *testing.T) {
	t.Run("ReadAndWrittenWhileUnplayed", func(t *testing.T) {
		g := loadPos(t, Aberto, 4, "", strings.Replace(potSeatPos, "%s", `,"pot_seat":[0,3]`, 1))
		if p := g.Position(); !slices.Equal(p.PotSeat, []int{-1, 3}) {
			t.Fatalf("pot_seat written %v, want [-1 3] (team 0's pot is not unplayed)", p.PotSeat)
		}
		roundTrip(t, g)
		// Seat 2 closes: the morto is seat 3's hand, never played: −100,
		// and seat 3's cards do not count; seat 1's do.
		mustApply(t, g, 2, DiscardMove(MustParseCard("5C")))
		if s := g.Score()[1]; s.Pot != -100 || s.Hand != -10 || s.Total != 35-10-100 {
			t.Fatalf("team 1 score %+v, want pot -100, hand -10 (seat 1 only)", s)
		}
	})
	t.Run("DefaultGuessIsTheSeatThatLastPlayed", func(t *testing.T) {
		g := loadPos(t, Aberto, 4, "", strings.Replace(potSeatPos, "%s", "", 1))
		if p := g.Position(); !slices.Equal(p.PotSeat, []int{-1, 1}) {
			t.Fatalf("pot_seat guessed %v, want [-1 1]", p.PotSeat)
		}
		mustApply(t, g, 2, DiscardMove(MustParseCard("5C")))
		if s := g.Score()[1]; s.Hand != -30 {
			t.Fatalf("team 1 hand %d, want -30 (seat 3's cards, the guess being seat 1)", s.Hand)
		}
	})
	t.Run("NotWrittenWhenNoPotIsUnplayed", func(t *testing.T) {
		g := loadPos(t, Aberto, 4, "", strings.Replace(strings.Replace(potSeatPos, "%s", `,"pot_seat":[0,3]`, 1), `"pot_unplayed":[false,true]`, `"pot_unplayed":[false,false]`, 1))
		if p := g.Position(); p.PotSeat != nil {
			t.Fatalf("pot_seat %v written without an unplayed pot", p.PotSeat)
		}
	})
	t.Run("PlayedWhenItsSeatComesToTurn", func(t *testing.T) {
		g := loadPos(t, Fibur, 4, "", `{"turn":2,"hands":[["5C"],["3D"],["6D"],["9S"]],"stock":["9H","8H","7H","6H"],
		  "discard":["3S"],"pots":[],"pot_taken":[true,true],"pot_unplayed":[false,true],"pot_seat":[-1,3]}`)
		mustApply(t, g, 2, DrawMove())
		mustApply(t, g, 2, DiscardMove(MustParseCard("9H")))
		if g.PotUnplayed(1) {
			t.Fatal("team 1's pot still unplayed when seat 3, who took it, is on turn")
		}
	})
	for _, tc := range []struct{ name, seat string }{
		{"ErrBadPosition/seat of the other team", `,"pot_seat":[0,2]`},
		{"ErrBadPosition/seat out of range", `,"pot_seat":[0,5]`},
		{"ErrBadPosition/one entry for two teams", `,"pot_seat":[3]`},
		{"ErrBadPosition/the pot seat is on turn", `,"pot_seat":[0,3],"turn":3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := strings.Replace(potSeatPos, "%s", tc.seat, 1)
			if strings.Contains(tc.seat, `"turn"`) {
				js = strings.Replace(js, `{"turn":2,`, `{`, 1)
			}
			var p Position
			if err := json.Unmarshal([]byte(js), &p); err != nil {
				t.Fatal(err)
			}
			p.Rules, p.Players = Aberto, 4
			if _, err := LoadPosition(p); ErrorCode(err) != ErrBadPosition {
				t.Fatalf("got %v, want bad_position", err)
			}
		})
	}
}

// TestJokerWhereThereAreNone: RULES §2, a position holding a joker is
// bad_position in reale and with jokers false, wherever the joker lies.
func TestJokerWhereThereAreNone(t *testing.T) {
	places := map[string]string{
		"hand":  `{"hands":[["JK","5H"],["3S"]],"stock":["8D"],"discard":["QC"],"pots":[["4C"]]}`,
		"stock": `{"hands":[["5H"],["3S"]],"stock":["8D","JK"],"discard":["QC"],"pots":[["4C"]]}`,
		"pile":  `{"hands":[["5H"],["3S"]],"stock":["8D"],"discard":["JK","QC"],"pots":[["4C"]]}`,
		"pot":   `{"hands":[["5H"],["3S"]],"stock":["8D"],"discard":["QC"],"pots":[["4C","JK"]]}`,
		"meld":  `{"hands":[["5H"],["3S"]],"stock":["8D"],"discard":["QC"],"pots":[["4C"]],"melds":[[["5C","JK","7C"]],[]]}`,
	}
	for name, js := range places {
		for _, rs := range []struct {
			id      RuleSet
			options string
		}{{Reale, ""}, {Fibur, `{"jokers":false}`}, {Aberto, `{"jokers":false}`}, {Fechado, `{"jokers":false}`}} {
			t.Run(string(rs.id)+"/"+name, func(t *testing.T) {
				var p Position
				if err := json.Unmarshal([]byte(js), &p); err != nil {
					t.Fatal(err)
				}
				p.Rules, p.Players, p.Options = rs.id, 2, json.RawMessage(rs.options)
				if _, err := LoadPosition(p); ErrorCode(err) != ErrBadPosition || !strings.Contains(err.Error(), "joker") {
					t.Fatalf("got %v, want bad_position for the joker", err)
				}
				// With jokers (fibur's default) the same position loads.
				p.Rules, p.Options = Fibur, nil
				if _, err := LoadPosition(p); err != nil {
					t.Fatalf("fibur with jokers: %v", err)
				}
			})
		}
	}
	t.Run("fibur-row/row", func(t *testing.T) {
		var p Position
		_ = json.Unmarshal([]byte(`{"hands":[["5H"],["3S"]],"rows":[["JK"],[]],"stock":["8D"],"discard":["QC"]}`), &p)
		p.Rules, p.Players, p.Options = FiburRow, 2, json.RawMessage(`{"jokers":false}`)
		if _, err := LoadPosition(p); ErrorCode(err) != ErrBadPosition {
			t.Fatalf("got %v, want bad_position", err)
		}
	})
}
