package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// ruleCase is a table test: a position, moves that must be accepted, then a
// last move that must be rejected with Code (or accepted when Code is "").
type ruleCase struct {
	name    string
	rules   RuleSet
	players int
	options string
	pos     string
	before  []string // {"seat":N, ...move}
	move    string
	code    Code
	after   func(t *testing.T, g *Game)
}

func seatMove(t *testing.T, s string) SeatMove {
	t.Helper()
	var m SeatMove
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("move %s: %v", s, err)
	}
	return m
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			players := c.players
			if players == 0 {
				players = 4
			}
			rules := c.rules
			if rules == "" {
				rules = Fibur
			}
			g := loadPos(t, rules, players, c.options, c.pos)
			for _, b := range c.before {
				m := seatMove(t, b)
				mustApply(t, g, m.Seat, m.Move)
			}
			m := seatMove(t, c.move)
			if c.code != "" {
				wantReject(t, g, m.Seat, m.Move, c.code)
			} else {
				mustApply(t, g, m.Seat, m.Move)
			}
			if c.after != nil {
				c.after(t, g)
			}
		})
	}
}

const basic4 = `{"turn":0,"phase":"take",
 "hands":[["5H","6H","7H","9C","KD"],["3S","4S"],["4D","8D"],["KC","QC"]],
 "stock":["8S","9S","TS","JS","QS"],"discard":["QD"],
 "pots":[["AS","3C","4C"],["5C","6C","7C"]]}`

func TestTurnAndPhase(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "ErrNotYourTurn/draw by the wrong seat", pos: basic4,
			move: `{"seat":1,"move":"draw"}`, code: ErrNotYourTurn},
		{name: "ErrWrongPhase/meld before taking", pos: basic4,
			move: `{"seat":0,"move":"meld","cards":["5H","6H","7H"]}`, code: ErrWrongPhase},
		{name: "ErrWrongPhase/discard before taking", pos: basic4,
			move: `{"seat":0,"move":"discard","card":"9C"}`, code: ErrWrongPhase},
		{name: "ErrWrongPhase/second draw", pos: basic4,
			before: []string{`{"seat":0,"move":"draw"}`},
			move:   `{"seat":0,"move":"draw"}`, code: ErrWrongPhase},
		{name: "ErrWrongPhase/pickup after draw", pos: basic4,
			before: []string{`{"seat":0,"move":"draw"}`},
			move:   `{"seat":0,"move":"pickup"}`, code: ErrWrongPhase},
		{name: "ErrCardNotInHand/discard a stock card", pos: basic4,
			before: []string{`{"seat":0,"move":"draw"}`},
			move:   `{"seat":0,"move":"discard","card":"QS"}`, code: ErrCardNotInHand},
		{name: "ErrUnknownMove/no kind", pos: basic4,
			move: `{"seat":0,"move":"draw"}`, code: "", after: func(t *testing.T, g *Game) {
				wantReject(t, g, 0, Move{}, ErrUnknownMove)
			}},
		{name: "ok/discard passes the turn", pos: basic4,
			before: []string{`{"seat":0,"move":"draw"}`},
			move:   `{"seat":0,"move":"discard","card":"KD"}`,
			after: func(t *testing.T, g *Game) {
				if g.Turn() != 1 || g.Phase() != PhaseTake {
					t.Fatalf("turn %d phase %s", g.Turn(), g.Phase())
				}
			}},
		{name: "ok/anticlockwise passes to seat 3", pos: basic4, options: `{"direction":"anticlockwise"}`,
			before: []string{`{"seat":0,"move":"draw"}`},
			move:   `{"seat":0,"move":"discard","card":"KD"}`,
			after: func(t *testing.T, g *Game) {
				if g.Turn() != 3 {
					t.Fatalf("turn %d, want 3", g.Turn())
				}
			}},
		{name: "ErrDealOver/after the referee ends the deal", pos: basic4,
			move: `{"seat":0,"move":"draw"}`,
			after: func(t *testing.T, g *Game) {
				if err := g.EndByReferee(); err != nil {
					t.Fatal(err)
				}
				wantReject(t, g, 0, DiscardMove(MustParseCard("KD")), ErrDealOver)
				if ErrorCode(g.EndByReferee()) != ErrDealOver {
					t.Fatal("second EndByReferee accepted")
				}
			}},
	})
}

func TestPickup(t *testing.T) {
	single := `{"turn":0,"hands":[["4C","8S","KH"],["3D"],["6D"],["JD"]],"stock":["8C","7S","TS"],"discard":["9D"]}`
	held := `{"turn":0,"hands":[["4C","9D","KH"],["3D"],["6D"],["JD"]],"stock":["8C","7S","TS"],"discard":["9D"]}`
	multi := `{"turn":0,"hands":[["4C","8S","KH"],["3D"],["6D"],["JD"]],"stock":["8C","7S","TS"],"discard":["3D","9D"]}`
	runRuleCases(t, []ruleCase{
		{name: "ErrDiscardPickedCard/single-card pile", pos: single,
			before: []string{`{"seat":0,"move":"pickup"}`},
			move:   `{"seat":0,"move":"discard","card":"9D"}`, code: ErrDiscardPickedCard},
		{name: "ok/single-card pile, identical card held before", pos: held,
			before: []string{`{"seat":0,"move":"pickup"}`},
			move:   `{"seat":0,"move":"discard","card":"9D"}`},
		{name: "ok/former top of a two-card pile", pos: multi,
			before: []string{`{"seat":0,"move":"pickup"}`},
			move:   `{"seat":0,"move":"discard","card":"9D"}`},
		{name: "ErrPileEmpty/nothing to pick up", pos: `{"hands":[["4C"],["3D"],["6D"],["JD"]],"stock":["8C","7S","TS"]}`,
			move: `{"seat":0,"move":"pickup"}`, code: ErrPileEmpty},
		{name: "ErrNotAllowed/meld while picking up outside fechado", pos: multi,
			move: `{"seat":0,"move":"pickup","meld":["9D","9D"]}`, code: ErrNotAllowed},
		{name: "ErrPickupRequiresMeld/fechado plain pickup", rules: Fechado, pos: multi,
			move: `{"seat":0,"move":"pickup"}`, code: ErrPickupRequiresMeld},
		{name: "ErrMustKeepCard/only the card picked up alone would be left", players: 2,
			pos:    `{"turn":0,"hands":[["7H","8H","9H"],["3D"]],"stock":["8C","7S","TS"],"discard":["6C"]}`,
			before: []string{`{"seat":0,"move":"pickup"}`},
			move:   `{"seat":0,"move":"meld","cards":["7H","8H","9H"]}`, code: ErrMustKeepCard},
		{name: "ErrStockEmpty/Italian never draws the last two cards",
			pos:  `{"hands":[["4C"],["3D"],["6D"],["JD"]],"stock":["8C","7S"],"discard":["5S"]}`,
			move: `{"seat":0,"move":"draw"}`, code: ErrStockEmpty},
	})
}

func TestRedraw(t *testing.T) {
	first := `{"turn":0,"first_turn":true,"hands":[["9S","KD","3H"],["4S","8H"]],"stock":["QH","7C","AS","4D"],"pots":[["2C","3C","4C"],["TD","JD","QD"]]}`
	runRuleCases(t, []ruleCase{
		{name: "ok/redraw puts the card face up and draws another", rules: Aberto, players: 2, pos: first,
			before: []string{`{"seat":0,"move":"draw"}`},
			move:   `{"seat":0,"move":"redraw"}`,
			after: func(t *testing.T, g *Game) {
				if got := FormatCards(g.Pile()); len(got) != 1 || got[0] != "QH" {
					t.Fatalf("pile %v", got)
				}
				if g.HandSize(0) != 4 || g.StockSize() != 2 {
					t.Fatalf("hand %d stock %d", g.HandSize(0), g.StockSize())
				}
			}},
		{name: "ErrWrongPhase/second redraw", rules: Aberto, players: 2, pos: first,
			before: []string{`{"seat":0,"move":"draw"}`, `{"seat":0,"move":"redraw"}`},
			move:   `{"seat":0,"move":"redraw"}`, code: ErrWrongPhase},
		{name: "ErrWrongPhase/redraw before drawing", rules: Aberto, players: 2, pos: first,
			move: `{"seat":0,"move":"redraw"}`, code: ErrWrongPhase},
		{name: "ErrNotAllowed/redraw in fibur", players: 2, pos: first,
			before: []string{`{"seat":0,"move":"draw"}`},
			move:   `{"seat":0,"move":"redraw"}`, code: ErrNotAllowed},
		{name: "ErrNotAllowed/redraw after the first turn", rules: Aberto, players: 2, pos: first,
			before: []string{`{"seat":0,"move":"draw"}`, `{"seat":0,"move":"discard","card":"KD"}`, `{"seat":1,"move":"draw"}`},
			move:   `{"seat":1,"move":"redraw"}`, code: ErrNotAllowed},
	})
}

func TestMelds(t *testing.T) {
	hand := `{"turn":0,"phase":"play","hands":[["7H","7H","7D","7C","9C","9C","9H","5S","6S","JK","2D","8S","QS","4D"],["3D","5D"],["6H","8H"],["JC","QC"]],
	 "stock":["8D","9D","TD"],"discard":["5C"],"pots":[["4C","5H","6C"],["TC","TH","KD"]],
	 "melds":[[["9S","9H","9D"]],[["3C","4C","5C"]]]}`
	runRuleCases(t, []ruleCase{
		{name: "ErrInvalidMeld/two cards", pos: hand,
			move: `{"seat":0,"move":"meld","cards":["7H","7D"]}`, code: ErrInvalidMeld},
		{name: "ErrTooManyWilds/two wilds", pos: hand,
			move: `{"seat":0,"move":"meld","cards":["5S","JK","2D","8S"]}`, code: ErrTooManyWilds},
		{name: "ErrDuplicateSet/second set of nines", pos: hand,
			move: `{"seat":0,"move":"meld","cards":["9C","9C","9H"]}`, code: ErrDuplicateSet},
		{name: "ErrDuplicateSet/two sets of a rank in one move", pos: hand,
			move: `{"seat":0,"move":"meld","melds":[["7H","7D","JK"],["7H","7C","2D"]]}`, code: ErrDuplicateSet},
		{name: "ErrCardNotInHand/meld a card not held", pos: hand,
			move: `{"seat":0,"move":"meld","cards":["KS","KS","KH"]}`, code: ErrCardNotInHand},
		{name: "ErrNoSuchMeld/attach past the team's melds", pos: hand,
			move: `{"seat":0,"move":"attach","meld":1,"cards":["9C"]}`, code: ErrNoSuchMeld},
		{name: "ErrInvalidMeld/attach nothing", pos: hand,
			move: `{"seat":0,"move":"attach","meld":0,"cards":[]}`, code: ErrInvalidMeld},
		{name: "ok/attach to the own set", pos: hand,
			move: `{"seat":0,"move":"attach","meld":0,"cards":["9C","9C","9H"]}`,
			after: func(t *testing.T, g *Game) {
				if len(g.Melds(0)[0].Cards) != 6 {
					t.Fatalf("meld %v", g.Melds(0)[0])
				}
			}},
		{name: "ok/several melds at once", pos: hand,
			move: `{"seat":0,"move":"meld","melds":[["7H","7D","7C"],["5S","6S","JK"]]}`,
			after: func(t *testing.T, g *Game) {
				if len(g.Melds(0)) != 3 {
					t.Fatalf("melds %v", g.Melds(0))
				}
			}},
		{name: "ErrInvalidMeld/sets in reale", rules: Reale, pos: `{"turn":0,"phase":"play","hands":[["7H","7D","7C","QS"],["3D"],["6H"],["JC"]],"stock":["8D","9D","TD"],"discard":["5C"]}`,
			move: `{"seat":0,"move":"meld","cards":["7H","7D","7C"]}`, code: ErrInvalidMeld},
	})
}

func TestPotAndClosing(t *testing.T) {
	potTaken := `{"turn":0,"phase":"play","hands":[["JD","QD","KD","JK"],["3H","5H"],["6C","8C"],["JC","QC"]],
	 "stock":["8S","7S","TS","JH","QS"],"discard":["4C"],"pots":[["AH","KC","3S"]],"pot_taken":[true,false],
	 "melds":[[["4D","5D","6D","7D","8D","9D","TD"]],[]]}`
	closeWild := `{"turn":0,"phase":"play","hands":[["JK"],["3H"],["6C"],["JC"]],"stock":["8S","7S","TS"],"discard":["4C"],
	 "pots":[],"pot_taken":[true,true],"melds":[[["4D","5D","6D","7D","8D","9D","TD"]],[]]}`
	closeTwo := `{"turn":0,"phase":"play","hands":[["2S"],["3H"],["6C"],["JC"]],"stock":["8S","7S","TS"],"discard":["4C"],
	 "pots":[],"pot_taken":[true,true],"melds":[[["4D","5D","6D","7D","8D","9D","TD"]],[]]}`
	dirtyOnly := `{"turn":0,"phase":"play","hands":[["KH"],["3H"],["6C"],["JC"]],"stock":["8S","7S","TS"],"discard":["4C"],
	 "pots":[],"pot_taken":[true,true],"melds":[[["4D","5D","6D","JK","8D","9D","TD"]],[]]}`
	direct := `{"turn":0,"phase":"play","hands":[["5S","6S","7S"],["3H","5H"],["6D","8D"],["JD","QD"]],
	 "stock":["8C","7C","TS"],"discard":["4C"],"pots":[["AH","KC","QC","JC","3D"],["4S","4H","4D"]],
	 "melds":[[["4D","5D","6D","7D","8D","9D","TD"]],[]]}`
	runRuleCases(t, []ruleCase{
		{name: "ErrMustKeepCard/lone wild", pos: potTaken,
			move: `{"seat":0,"move":"attach","meld":0,"cards":["JD","QD","KD"]}`, code: ErrMustKeepCard},
		{name: "ErrMustKeepCard/empty hand", pos: potTaken,
			move: `{"seat":0,"move":"attach","meld":0,"cards":["JD","QD","KD","JK"]}`, code: ErrMustKeepCard},
		{name: "ErrClosingDiscardWild/joker", pos: closeWild,
			move: `{"seat":0,"move":"discard","card":"JK"}`, code: ErrClosingDiscardWild},
		{name: "ok/no_pinella lets a joker close", pos: closeWild, options: `{"closing_discard":"no_pinella"}`,
			move: `{"seat":0,"move":"discard","card":"JK"}`,
			after: func(t *testing.T, g *Game) {
				if !g.Over() || g.EndReason() != Closed || g.Closer() != 0 {
					t.Fatalf("over %v end %v closer %d", g.Over(), g.EndReason(), g.Closer())
				}
			}},
		{name: "ErrClosingDiscardWild/no_pinella still bars a 2", pos: closeTwo, options: `{"closing_discard":"no_pinella"}`,
			move: `{"seat":0,"move":"discard","card":"2S"}`, code: ErrClosingDiscardWild},
		{name: "ok/fibur closes on a dirty burraco", pos: dirtyOnly,
			move: `{"seat":0,"move":"discard","card":"KH"}`},
		{name: "ErrCannotClose/reale needs a clean burraco", rules: Reale,
			pos:  `{"turn":0,"phase":"play","hands":[["KH"],["3H"],["6C"],["JC"]],"stock":["8S","7S","TS"],"discard":["4C"],"pots":[],"pot_taken":[true,true],"melds":[[["4D","5D","6D","2S","8D","9D","TD"]],[]]}`,
			move: `{"seat":0,"move":"discard","card":"KH"}`, code: ErrCannotClose},
		{name: "ok/direct pot then the turn goes on", pos: direct,
			move: `{"seat":0,"move":"meld","cards":["5S","6S","7S"]}`,
			after: func(t *testing.T, g *Game) {
				if g.HandSize(0) != 5 || !g.PotTaken(0) || g.Phase() != PhasePlay || g.PotUnplayed(0) {
					t.Fatalf("hand %d pot %v phase %s", g.HandSize(0), g.PotTaken(0), g.Phase())
				}
				mustApply(t, g, 0, MeldMove(tcards("JC QC KC")...))
				mustApply(t, g, 0, DiscardMove(MustParseCard("3D")))
				if g.Turn() != 1 {
					t.Fatal("turn did not pass")
				}
			}},
	})
}

func TestRows(t *testing.T) {
	row := `{"turn":0,"phase":"play","hands":[["7H","8H","TD","JD","QD","3S","6C"],["4H","8S"]],
	 "rows":[["9H","KD","5C"],["4S","QH","QC"]],"stock":["AS","7S","TS"],"discard":["4C"],
	 "pots":[["2C","3C","4D"],["TC","TH","KS"]]}`
	runRuleCases(t, []ruleCase{
		{name: "ErrRowOrder/a later row card named as a hand card", rules: FiburRow, players: 2, pos: row,
			move: `{"seat":0,"move":"meld","cards":["TD","JD","QD","KD"]}`, code: ErrRowOrder},
		{name: "ErrInvalidMeld/row card with one hand card", rules: FiburRow, players: 2, pos: row,
			move: `{"seat":0,"move":"meld","cards":["8H"],"row":true}`, code: ErrInvalidMeld},
		{name: "ErrNotAllowed/row outside fibur-row", players: 2,
			pos:  `{"turn":0,"phase":"play","hands":[["7H","8H","9H","3S"],["4H"]],"stock":["AS","7S","TS"],"discard":["4C"]}`,
			move: `{"seat":0,"move":"meld","cards":["7H","8H"],"row":true}`, code: ErrNotAllowed},
		// RULES §6, last sentence: with the pot taken, a lone hand card may
		// wait while the row is cleared.
		{name: "ok/lone hand card waits while the row is cleared", rules: FiburRow, players: 2, pos: rowWait("KD", "AD"),
			move: `{"seat":0,"move":"attach","meld":1,"cards":["8H"]}`,
			after: func(t *testing.T, g *Game) {
				mustApply(t, g, 0, Move{Kind: AttachCards, Meld: 2, Row: true})
				mustApply(t, g, 0, Move{Kind: AttachCards, Meld: 2, Row: true})
				mustApply(t, g, 0, DiscardMove(MustParseCard("9C")))
				if g.EndReason() != Closed {
					t.Fatalf("end %v", g.EndReason())
				}
			}},
		{name: "ErrMustKeepCard/lone hand card, a row card fits no meld", rules: FiburRow, players: 2, pos: rowWait("KD", "5C"),
			move: `{"seat":0,"move":"attach","meld":1,"cards":["8H"]}`, code: ErrMustKeepCard},
		{name: "ErrMustKeepCard/lone hand card, the row fits only out of order", rules: FiburRow, players: 2, pos: rowWait("AD", "KD"),
			move: `{"seat":0,"move":"attach","meld":1,"cards":["8H"]}`, code: ErrMustKeepCard},
		{name: "ErrMustKeepCard/lone wild while the row is cleared", rules: FiburRow, players: 2,
			pos:  strings.Replace(rowWait("KD"), `"9C"`, `"JK"`, 1),
			move: `{"seat":0,"move":"attach","meld":1,"cards":["8H"]}`, code: ErrMustKeepCard},
		{name: "ok/the row cards complete the burraco", rules: FiburRow, players: 2,
			pos: `{"turn":0,"phase":"play","hands":[["8H","9C"],["4H"]],"rows":[["8S","2D"],["4S"]],
			 "stock":["AS","7S","TS"],"discard":["4C"],"pots":[],"pot_taken":[true,false],
			 "melds":[[["3S","4S","5S","6S","7S"],["5H","6H","7H"]],[]]}`,
			move: `{"seat":0,"move":"attach","meld":1,"cards":["8H"]}`,
			after: func(t *testing.T, g *Game) {
				mustApply(t, g, 0, Move{Kind: AttachCards, Meld: 0, Row: true})
				mustApply(t, g, 0, Move{Kind: AttachCards, Meld: 0, Row: true})
				mustApply(t, g, 0, DiscardMove(MustParseCard("9C")))
				if g.EndReason() != Closed {
					t.Fatalf("end %v", g.EndReason())
				}
			}},
		{name: "ErrMustKeepCard/no burraco even with the row cleared", rules: FiburRow, players: 2,
			pos: `{"turn":0,"phase":"play","hands":[["8H","9C"],["4H"]],"rows":[["9S"],["4S"]],
			 "stock":["AS","7S","TS"],"discard":["4C"],"pots":[],"pot_taken":[true,false],
			 "melds":[[["4S","5S","6S","7S","8S"],["5H","6H","7H"]],[]]}`,
			move: `{"seat":0,"move":"attach","meld":1,"cards":["8H"]}`, code: ErrMustKeepCard},
		{name: "ok/row card melded with two hand cards", rules: FiburRow, players: 2, pos: row,
			move: `{"seat":0,"move":"meld","cards":["7H","8H"],"row":true}`,
			after: func(t *testing.T, g *Game) {
				if len(g.Row(0)) != 2 || g.Row(0)[0] != MustParseCard("KD") {
					t.Fatalf("row %v", FormatCards(g.Row(0)))
				}
			}},
	})
}

// rowWait is a fibur-row position: seat 0 has taken its pot, holds a clean
// burraco, 5H 6H 7H and TD JD QD, the hand 8H 9C and the given row.
func rowWait(row ...string) string {
	return `{"turn":0,"phase":"play","hands":[["8H","9C"],["4H"]],"rows":[["` + strings.Join(row, `","`) + `"],["4S"]],
	 "stock":["AS","7S","TS"],"discard":["4C"],"pots":[],"pot_taken":[true,false],
	 "melds":[[["3S","4S","5S","6S","7S","8S","9S"],["5H","6H","7H"],["TD","JD","QD"]],[]]}`
}

func TestVulnerability(t *testing.T) {
	pos := `{"turn":0,"phase":"play","totals":[1600,400],
	 "hands":[["AH","AD","AC","5S","6S","7S","KD","KH","KC","JD"],["JC","JH"],["QH"],["TC"]],
	 "stock":["3H","4H","5H"],"discard":["9D"],"pots":[["3C","4C","5C"],["8H","8S","9C"]]}`
	runRuleCases(t, []ruleCase{
		{name: "ErrMinimumMeldPoints/first melds under 75", rules: Fechado, pos: pos,
			move: `{"seat":0,"move":"meld","melds":[["AH","AD","AC"],["5S","6S","7S"]]}`, code: ErrMinimumMeldPoints},
		{name: "ok/first melds reaching 75", rules: Fechado, pos: pos,
			move: `{"seat":0,"move":"meld","melds":[["AH","AD","AC"],["KD","KH","KC"]]}`},
		{name: "ok/not vulnerable with the option off", rules: Fechado, options: `{"vulnerability":false}`, pos: pos,
			move: `{"seat":0,"move":"meld","cards":["5S","6S","7S"]}`},
	})
}

func TestBrazilianStockEnd(t *testing.T) {
	pos := `{"turn":0,"hands":[["4C","8S"],["3D","5D"]],"stock":["KH"],"discard":["9D"],"pots":[["2C","3C","4C"]],"pot_taken":[false,true]}`
	runRuleCases(t, []ruleCase{
		{name: "ok/the morto becomes the stock", rules: Aberto, players: 2, pos: pos,
			move: `{"seat":0,"move":"draw"}`,
			after: func(t *testing.T, g *Game) {
				if g.StockSize() != 3 || g.PotsLeft() != 0 || g.Over() {
					t.Fatalf("stock %d pots %d", g.StockSize(), g.PotsLeft())
				}
			}},
		{name: "ok/reale draws the stock to the end, then the pot", rules: Reale, players: 2, pos: pos,
			move: `{"seat":0,"move":"draw"}`,
			after: func(t *testing.T, g *Game) {
				if g.StockSize() != 3 || g.PotsLeft() != 0 || g.Over() {
					t.Fatalf("stock %d pots %d", g.StockSize(), g.PotsLeft())
				}
			}},
		{name: "ok/fibur: drawing the third-last card makes the last turn", players: 2,
			pos:    `{"turn":0,"hands":[["4C","8S"],["3D","5D"]],"stock":["KH","QH","JH"],"discard":["9D"],"pots":[["2C","3C","4C"]],"pot_taken":[false,true]}`,
			before: []string{`{"seat":0,"move":"draw"}`},
			move:   `{"seat":0,"move":"discard","card":"KH"}`,
			after: func(t *testing.T, g *Game) {
				if !g.Over() || g.EndReason() != StockOut || g.StockSize() != 2 {
					t.Fatalf("over %v end %v stock %d", g.Over(), g.EndReason(), g.StockSize())
				}
			}},
		{name: "ok/no morto left: the deal ends after the turn", rules: Aberto, players: 2,
			pos:    `{"turn":0,"hands":[["4C","8S"],["3D","5D"]],"stock":["KH"],"discard":["9D"],"pots":[],"pot_taken":[true,true]}`,
			before: []string{`{"seat":0,"move":"draw"}`},
			move:   `{"seat":0,"move":"discard","card":"KH"}`,
			after: func(t *testing.T, g *Game) {
				if !g.Over() || g.EndReason() != StockOut {
					t.Fatalf("over %v end %v", g.Over(), g.EndReason())
				}
			}},
	})
}

func TestZeroGameDoesNotPanic(t *testing.T) {
	var g Game
	for k := NoMove; k <= Redraw+1; k++ {
		if err := g.Apply(0, Move{Kind: k}); ErrorCode(err) == "" {
			t.Fatalf("%v: %v", k, err)
		}
	}
	_ = g.View(0)
	_ = g.Score()
	_ = g.LegalMoves(0)
	_ = g.Position()
}
