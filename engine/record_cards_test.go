package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestRecordCarriesDealtCards: a new record holds the cards its seed deals,
// for every rule set (rows in fibur-row, the card turned up in the Italian
// games, none in the Brazilian), every card of the deck once, and they
// survive the record's JSON; the cards alone rebuild the deal dealt.
func TestRecordCarriesDealtCards(t *testing.T) {
	for _, id := range RuleSets() {
		for _, players := range []int{2, 4} {
			r, err := NewRules(id, players)
			if err != nil {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", id, players), func(t *testing.T) {
				rec := NewRecord(r, 1, 987654321, nil)
				rec.Moves = []SeatMove{}
				if rec.Cards == nil {
					t.Fatal("no cards")
				}
				b, err := json.Marshal(rec)
				if err != nil {
					t.Fatal(err)
				}
				var back Record
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatal(err)
				}
				c := back.Cards
				g, _ := Deal(r, 1, 987654321, nil)
				p := g.Position()
				switch {
				case c == nil:
					t.Fatalf("the cards did not survive JSON: %s", b)
				case !slices.EqualFunc(c.Hands, p.Hands, slices.Equal[[]Card]) || !slices.Equal(c.Stock, p.Stock) ||
					!slices.Equal(c.Discard, p.Discard) || !slices.EqualFunc(c.Pots, p.Pots, slices.Equal[[]Card]) ||
					!slices.EqualFunc(c.Rows, p.Rows, slices.Equal[[]Card]):
					t.Fatalf("cards %+v are not the deal's position %+v", c, p)
				case (id == FiburRow) != (len(c.Rows) == players), id.Italian() != (len(c.Discard) == 1):
					t.Fatalf("rows %v, discard %v", c.Rows, c.Discard)
				}
				all := slices.Concat(slices.Concat(c.Hands...), slices.Concat(c.Rows...), c.Discard,
					slices.Concat(c.Pots...), c.Stock)
				deck := r.Deck()
				slices.Sort(all)
				slices.Sort(deck)
				if !slices.Equal(all, deck) {
					t.Fatalf("%d cards dealt, not the %d of the deck once each", len(all), len(deck))
				}
				if _, err := back.Replay(); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestRecordRefusesCardsThatDisagreeWithSeed: a record whose cards are not
// what its seed deals (a card swapped, a hand cut short, another seed) is
// refused with bad_notation, the message naming the first difference; the
// sample records, written before records carried cards, still replay.
func TestRecordRefusesCardsThatDisagreeWithSeed(t *testing.T) {
	r, _ := NewRules(Fibur, 4)
	cases := []struct {
		name, want string
		edit       func(*Record)
	}{
		{"TwoCardsSwapped", "hands[2]: card 0 is", func(rec *Record) {
			h := rec.Cards.Hands
			h[2][0], h[3][0] = h[3][0], h[2][0]
		}},
		{"HandCutShort", "hands[0]: 10 cards, the seed deals 11", func(rec *Record) { rec.Cards.Hands[0] = rec.Cards.Hands[0][:10] }},
		{"StockReordered", "stock: card 0 is", func(rec *Record) { slices.Reverse(rec.Cards.Stock) }},
		{"AnotherSeed", "record cards disagree with seed 43", func(rec *Record) { rec.Seed = 43 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := NewRecord(r, 0, 42, nil)
			rec.Moves = []SeatMove{}
			c.edit(&rec)
			if rec.Cards.Hands[2][0] == rec.Cards.Hands[3][0] && c.name == "TwoCardsSwapped" {
				t.Skip("the swapped cards are alike")
			}
			_, err := rec.Replay()
			if ErrorCode(err) != ErrBadNotation || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want bad_notation naming %q", err, c.want)
			}
		})
	}
	t.Run("RecordsWithoutCardsReplay", func(t *testing.T) {
		for _, name := range []string{"fibur-4.json", "fibur-4-timeout.json"} {
			b, err := os.ReadFile("../testdata/records/" + name)
			if err != nil {
				t.Fatal(err)
			}
			var rec Record
			if err := json.Unmarshal(b, &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Cards != nil {
				t.Fatalf("%s carries cards: not an old record", name)
			}
			if _, err := rec.Replay(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}
