package engine

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestMoveJSON(t *testing.T) {
	tests := []struct {
		js   string
		want Move
	}{
		{`{"move":"draw"}`, DrawMove()},
		{`{"move":"redraw"}`, RedrawMove()},
		{`{"move":"pickup"}`, PickupMove()},
		{`{"move":"pickup","meld":["JC","JH"]}`, PickupMeldMove(tcards("JC JH"))},
		{`{"move":"pickup","meld":["AH","AD"],"melds":[["5S","6S","7S"]]}`, PickupMeldMove(tcards("AH AD"), tcards("5S 6S 7S"))},
		{`{"move":"pickup","attach":2}`, PickupAttachMove(2)},
		{`{"move":"pickup","attach":0,"cards":["8C"]}`, PickupAttachMove(0, tcards("8C")...)},
		{`{"move":"pickup","attach":1,"cards":["8C","7C"],"melds":[["5S","6S","7S"]],"wild_as":"9C"}`,
			Move{Kind: Pickup, Attach: true, Meld: 1, Cards: tcards("8C 7C"), Melds: [][]Card{tcards("5S 6S 7S")}, WildAs: MustParseCard("9C")}},
		{`{"move":"meld","cards":["5H","6H","7H"]}`, MeldMove(tcards("5H 6H 7H")...)},
		{`{"move":"meld","cards":["9H","TH","JK"],"wild_as":"JH"}`, Move{Kind: MeldCards, Cards: tcards("9H TH JK"), WildAs: MustParseCard("JH")}},
		{`{"move":"meld","melds":[["AS","AH","AD"],["4D","5D","6D"]]}`, Move{Kind: MeldCards, Melds: [][]Card{tcards("AS AH AD"), tcards("4D 5D 6D")}}},
		{`{"move":"meld","cards":["7H","8H"],"row":true}`, Move{Kind: MeldCards, Cards: tcards("7H 8H"), Row: true}},
		{`{"move":"attach","meld":1,"cards":["KC"]}`, AttachMove(1, tcards("KC")...)},
		{`{"move":"attach","meld":0,"row":true}`, Move{Kind: AttachCards, Row: true}},
		{`{"move":"discard","card":"9C"}`, DiscardMove(MustParseCard("9C"))},
	}
	for _, tc := range tests {
		t.Run(tc.js, func(t *testing.T) {
			var m Move
			if err := json.Unmarshal([]byte(tc.js), &m); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m, tc.want) {
				t.Fatalf("decoded %#v, want %#v", m, tc.want)
			}
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.js {
				t.Fatalf("encoded %s, want %s", b, tc.js)
			}
		})
	}
}

func TestMoveJSONErrors(t *testing.T) {
	for js, code := range map[string]Code{
		`{"move":"fold"}`:                            ErrUnknownMove,
		`{"move":"discard"}`:                         ErrBadNotation,
		`{"move":"discard","card":"XX"}`:             ErrBadNotation,
		`{"move":"attach","meld":"x"}`:               ErrBadNotation,
		`{"move":"meld","meld":["AS","2S","3S"]}`:    ErrBadNotation,
		`{"move":"draw","attach":1}`:                 ErrBadNotation,
		`{"move":"pickup","attach":0,"meld":["8C"]}`: ErrBadNotation,
		`{"move":"pickup","attach":0,"meld":2}`:      ErrBadNotation,
		`[]`:                                         ErrBadNotation,
	} {
		if _, err := ParseMove(js); ErrorCode(err) != code {
			t.Errorf("%s: %v, want %s", js, err, code)
		}
	}
}
