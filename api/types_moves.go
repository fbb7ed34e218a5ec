package api

// The move notation, kind by kind, for the API document: what the engine
// reads and writes (engine.Move's JSON, the conformance cases' notation),
// which MoveNotation carries on the wire unchanged. cmd/openapigen turns
// these types into one schema per kind (fields without omitempty are
// required; doc is the description, example a JSON example) and describes
// MoveNotation as oneOf them, told apart by "move". Cards are in the
// notation of RULES §1: rank A 2..9 T J Q K (10 is read as T), suit S H D
// C, JK the joker.

// MoveDraw takes the top card of the stock (tallone).
type MoveDraw struct {
	Move string `json:"move" enums:"draw"`
}

// MoveRedraw is the Brazilian first turn's redraw: the drawn card is
// discarded face up and another drawn.
type MoveRedraw struct {
	Move string `json:"move" enums:"redraw"`
}

// MovePickup takes the whole discard pile (pozzo). In fechado the top card
// must be used at once: laid as a new meld with cards of the hand or of
// the pile (meld), or added to one of the team's melds (attach, with cards
// joining it); melds lays further melds in the same move. Outside fechado
// only "move" is allowed.
type MovePickup struct {
	Move   string     `json:"move" enums:"pickup"`
	Meld   []string   `json:"meld,omitempty" doc:"fechado: the cards (from the hand or the pile) laid with the pile's top card as a new meld; not with attach" example:"[\"7H\",\"8H\"]"`
	Attach *int       `json:"attach,omitempty" doc:"fechado: the index of the team's meld the pile's top card is added to; not with meld" example:"0"`
	Cards  []string   `json:"cards,omitempty" doc:"fechado, with attach: cards (from the hand or the pile) added with the top card" example:"[\"9H\"]"`
	Melds  [][]string `json:"melds,omitempty" doc:"fechado: further new melds laid in the same move" example:"[[\"KS\",\"KD\",\"KC\"]]"`
	WildAs *string    `json:"wild_as,omitempty" doc:"the card a wild stands for in the top card's meld, when ambiguous" example:"8H"`
}

// MoveMeld lays one new meld (cards) or several at once (melds).
type MoveMeld struct {
	Move   string     `json:"move" enums:"meld"`
	Cards  []string   `json:"cards,omitempty" doc:"one new meld; with row, the row's next card joins them" example:"[\"5H\",\"6H\",\"7H\"]"`
	Melds  [][]string `json:"melds,omitempty" doc:"several new melds at once" example:"[[\"5H\",\"6H\",\"7H\"],[\"QS\",\"QD\",\"QC\"]]"`
	WildAs *string    `json:"wild_as,omitempty" doc:"the card a wild stands for, when ambiguous" example:"6H"`
	Row    bool       `json:"row,omitempty" doc:"fibur-row: the row's next card is laid with cards" example:"false"`
}

// MoveAttach adds cards to one of the team's melds.
type MoveAttach struct {
	Move   string   `json:"move" enums:"attach"`
	Meld   int      `json:"meld" doc:"the index of the meld in the team's melds (view.melds[team]), from 0" example:"0"`
	Cards  []string `json:"cards,omitempty" doc:"the cards added (none with row alone)" example:"[\"8H\"]"`
	WildAs *string  `json:"wild_as,omitempty" doc:"the card a wild stands for, when ambiguous" example:"9H"`
	Row    bool     `json:"row,omitempty" doc:"fibur-row: the row's next card is the card added" example:"false"`
}

// MoveDiscard discards a card, which ends the turn.
type MoveDiscard struct {
	Move string `json:"move" enums:"discard"`
	Card string `json:"card" doc:"the card discarded" example:"KS"`
	Row  bool   `json:"row,omitempty" doc:"fibur-row: the card comes from the row" example:"false"`
}

// MoveKindDoc is one move kind of the notation, for the API document.
type MoveKindDoc struct {
	Schema   string // the schema's name
	Kind     string // the value of "move"
	Summary  string
	Type     any           // a value of the kind's type
	Examples []MoveExample // the first is the schema's example
}

// MoveExample is an example of a move, legal in the rule set it names
// (TestEveryMoveExampleIsLegalInItsRuleSet plays each from a position of
// that rule set): a move legal in one rule set may be refused in another
// (a fechado pickup, with its meld, is not_allowed elsewhere).
type MoveExample struct {
	Rules string // the rule set
	JSON  string
}

// MoveKinds lists the move kinds in the notation's order, each with its
// documented examples.
func MoveKinds() []MoveKindDoc {
	return []MoveKindDoc{
		{"MoveDraw", "draw", "Take the top card of the stock.", MoveDraw{}, []MoveExample{{"fibur", `{"move":"draw"}`}}},
		{"MovePickup", "pickup", "Take the whole discard pile; in fechado the top card is laid at once (meld, or attach with cards), with further melds.",
			MovePickup{}, []MoveExample{{"fibur", `{"move":"pickup"}`}, {"fechado", `{"move":"pickup","meld":["7H","8H"]}`}}},
		{"MoveMeld", "meld", "Lay one new meld (cards) or several (melds).", MoveMeld{},
			[]MoveExample{{"fibur", `{"move":"meld","cards":["5H","6H","JK"],"wild_as":"7H"}`}}},
		{"MoveAttach", "attach", "Add cards to one of the team's melds.", MoveAttach{}, []MoveExample{{"fibur", `{"move":"attach","meld":0,"cards":["8H"]}`}}},
		{"MoveDiscard", "discard", "Discard a card: the turn ends.", MoveDiscard{}, []MoveExample{{"fibur", `{"move":"discard","card":"KS"}`}}},
		{"MoveRedraw", "redraw", "Brazilian first turn: discard the drawn card face up and draw another.", MoveRedraw{},
			[]MoveExample{{"aberto", `{"move":"redraw"}`}}},
	}
}
