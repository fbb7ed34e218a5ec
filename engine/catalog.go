package engine

import (
	"fmt"
	"slices"
)

// Text is a short text in Italian and English.
type Text struct {
	IT string `json:"it"`
	EN string `json:"en"`
}

// RuleSetInfo describes one rule set for a client choosing how a table plays
// (the data of GET /rules): what the game is, who plays it, with which deck
// and melds, how a match usually runs, and the options that apply to it.
type RuleSetInfo struct {
	ID          RuleSet       `json:"id"`
	Name        Text          `json:"name"`
	Description Text          `json:"description"`
	Players     []int         `json:"players"` // the player counts it is played by, the usual first
	Deck        int           `json:"deck"`    // cards with the default options (108, or 104 without jokers)
	Jokers      int           `json:"jokers"`  // jokers in that deck
	Melds       []string      `json:"melds"`   // "sequences", "sets", "sets_of_twos"
	ToClose     Text          `json:"to_close"`
	Match       MatchDefaults `json:"match"`
	Options     []OptionInfo  `json:"options"` // the options that apply, in catalogue order
}

// MatchDefaults is how a match of a rule set usually runs (RULES §10):
// to Target, or, where FixedDeals, a fixed number of deals per round (one of
// DealsPerRound) as in tournaments.
type MatchDefaults struct {
	Target        int   `json:"target"`
	FixedDeals    bool  `json:"fixed_deals"`
	DealsPerRound []int `json:"deals_per_round,omitempty"`
}

// OptionInfo describes one option as it applies to one rule set.
type OptionInfo struct {
	Key         string `json:"key"`
	Type        string `json:"type"`             // "boolean", "string" or "integer"
	Values      []any  `json:"values,omitempty"` // the allowed values, when they are a list
	Minimum     *int   `json:"minimum,omitempty"`
	Maximum     *int   `json:"maximum,omitempty"`
	Default     any    `json:"default"` // the default for this rule set
	Description Text   `json:"description"`
}

// optionSpec is the one definition of an option: its key (the JSON tag of
// its Options field), type, allowed values, the rule sets it applies to
// (RULES §11) and its description. Parsing, validation, encoding and the
// catalogue all read this table.
type optionSpec struct {
	key      string
	kind     string // "boolean", "string", "integer"
	values   []any  // allowed values; nil: any integer in [min, max]
	min, max int
	applies  []RuleSet
	desc     Text
}

var (
	allRuleSets = []RuleSet{Fibur, FiburRow, Reale, Aberto, Fechado}
	italianPair = []RuleSet{Fibur, FiburRow}
	brazilian   = []RuleSet{Aberto, Fechado}
	withJokers  = []RuleSet{Fibur, FiburRow, Aberto, Fechado}
	booleans    = []any{true, false}
)

var optionSpecs = []optionSpec{
	{key: "semi_clean", kind: "boolean", values: booleans, applies: italianPair, desc: Text{
		IT: "Esiste il burraco semipulito (150): la matta a un'estremità di 7 o più carte naturali consecutive, o un tris di 8 carte con la sua matta.",
		EN: "A semi-clean burraco (150) exists: the wild at one end of 7 or more consecutive natural cards, or a set of 8 cards with its wild."}},
	{key: "semi_clean_set", kind: "string", values: []any{SemiCleanSetExactly8, SemiCleanSetAtLeast8}, applies: italianPair, desc: Text{
		IT: "Quale tris con la matta è semipulito: di esattamente 8 carte (codice 2026) o di almeno 8.",
		EN: "Which set with its wild is semi-clean: exactly 8 cards (2026 code) or at least 8."}},
	{key: "pot_penalty_if_neither", kind: "boolean", values: booleans, applies: allRuleSets, desc: Text{
		IT: "Il −100 del pozzetto non preso si applica anche quando nessuna linea l'ha preso.",
		EN: "The −100 for a pot not taken applies even when neither team took one."}},
	{key: "closing_discard", kind: "string", values: []any{ClosingNoWild, ClosingNoPinella}, applies: allRuleSets, desc: Text{
		IT: "Lo scarto di chiusura non può essere né un jolly né una pinella (no_wild), o soltanto non una pinella (no_pinella).",
		EN: "The closing discard may be neither a joker nor a 2 (no_wild), or only not a 2 (no_pinella)."}},
	{key: "direction", kind: "string", values: []any{Clockwise, Anticlockwise}, applies: allRuleSets, desc: Text{
		IT: "Senso di gioco: orario (comincia chi è alla sinistra del mazziere) o antiorario (chi è alla sua destra).",
		EN: "Direction of play: clockwise (the dealer's left plays first) or anticlockwise (the dealer's right)."}},
	{key: "target", kind: "integer", min: 1, max: 1_000_000, applies: allRuleSets, desc: Text{
		IT: "Punteggio da raggiungere per vincere la partita; la vulnerabilità scatta a metà.",
		EN: "Score that wins a match played to a target; vulnerability starts at half of it."}},
	{key: "vulnerability", kind: "boolean", values: booleans, applies: allRuleSets, desc: Text{
		IT: "Una linea che ha almeno metà del punteggio da raggiungere deve aprire con giochi da almeno 75 punti.",
		EN: "A team with at least half the target must lay first melds worth 75 points or more."}},
	{key: "joker_points", kind: "integer", values: []any{20, 30, 50}, applies: withJokers, desc: Text{
		IT: "Valore in punti del jolly.",
		EN: "Points a joker is worth."}},
	{key: "jokers", kind: "boolean", values: booleans, applies: withJokers, desc: Text{
		IT: "Si gioca con i 4 jolly (108 carte) o senza (104 carte).",
		EN: "Play with the 4 jokers (108 cards) or without them (104 cards)."}},
	{key: "canastra_bonus", kind: "string", values: []any{CanastraBonus100, CanastraBonus150}, applies: brazilian, desc: Text{
		IT: "Premi della canastra sporca / pulita: 100/200 o 150/300.",
		EN: "Dirty / clean canastra bonuses: 100/200 or 150/300."}},
	{key: "round_up_10", kind: "boolean", values: booleans, applies: brazilian, desc: Text{
		IT: "Il totale di ogni linea nella smazzata è arrotondato per eccesso alla decina (485 → 490, −115 → −110).",
		EN: "Each team's deal total is rounded up to a multiple of 10 (485 → 490, −115 → −110)."}},
	{key: "aberto_sets", kind: "string", values: []any{AbertoSetsNone, AbertoSetsThreesAces}, applies: []RuleSet{Aberto}, desc: Text{
		IT: "Oltre alle scale si possono calare tris di tre e di assi (none: solo scale).",
		EN: "Besides sequences, sets of threes and of aces may be laid (none: sequences only)."}},
	{key: "real_canastra", kind: "boolean", values: booleans, applies: []RuleSet{Fechado}, desc: Text{
		IT: "Un tris pulito di tutte le 8 carte di un valore vale 1000.",
		EN: "A clean set of all 8 cards of a rank scores 1000."}},
}

func specOf(key string) (optionSpec, bool) {
	for _, s := range optionSpecs {
		if s.key == key {
			return s, true
		}
	}
	return optionSpec{}, false
}

func (s optionSpec) appliesTo(id RuleSet) bool { return slices.Contains(s.applies, id) }

// check says what is wrong with value v of the option, or "".
func (s optionSpec) check(v any) string {
	if s.values != nil {
		if !slices.Contains(s.values, v) {
			return fmt.Sprintf("unknown value %v (one of %s)", formatValue(v), formatValues(s.values))
		}
		return ""
	}
	if n, ok := v.(int); ok && (n < s.min || n > s.max) {
		return fmt.Sprintf("%d out of range (%d to %d)", n, s.min, s.max)
	}
	return ""
}

func formatValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

func formatValues(vs []any) string {
	out := ""
	for i, v := range vs {
		if i > 0 {
			out += ", "
		}
		out += formatValue(v)
	}
	return out
}

// ruleSetTexts holds what the catalogue says of each rule set beyond what
// the engine derives (players, deck, melds, defaults, options).
var ruleSetTexts = map[RuleSet]struct {
	name, desc, close Text
	players           []int
	fixedDeals        bool
	dealsPerRound     []int
}{
	Fibur: {
		name: Text{"Burraco (codice FIBUR)", "Italian Burraco (FIBUR code)"},
		desc: Text{
			IT: "Il Burraco classico dei tornei FIBUR, a coppie o in due: 108 carte con 4 jolly, scale e tris, due pozzetti da 11 carte; le ultime due carte del tallone non si pescano.",
			EN: "Classic Italian Burraco of the FIBUR tournaments, in pairs or for two: 108 cards with 4 jokers, sequences and sets, two pots of 11 cards; the last two stock cards are never drawn."},
		close:         Text{"Pozzetto preso e almeno un burraco.", "Pot taken and at least one burraco."},
		players:       []int{4, 2},
		fixedDeals:    true,
		dealsPerRound: []int{2, 3, 4},
	},
	FiburRow: {
		name: Text{"Burraco in due con le file", "Burraco for two with rows"},
		desc: Text{
			IT: "Burraco in due: accanto a ogni giocatore una fila di 11 carte scoperte, da giocare una alla volta e in ordine, legandole ai propri giochi o calandole con due carte della mano.",
			EN: "Burraco for two: beside each player a face-up row of 11 cards, played one at a time and in order, attached to the player's melds or melded with two hand cards."},
		close:   Text{"Pozzetto preso, almeno un burraco e la propria fila finita.", "Pot taken, at least one burraco and the player's own row cleared."},
		players: []int{2},
	},
	Reale: {
		name: Text{"Burraco Reale", "Burraco Reale"},
		desc: Text{
			IT: "Solo scale, 104 carte senza jolly (matte le pinelle), l'asso a entrambe le estremità; la scala pulita dall'asso al re vale 500, dall'asso all'asso 1000. Il tallone si pesca fino in fondo, poi diventa tallone un pozzetto non preso.",
			EN: "Sequences only, 104 cards without jokers (the 2s are the wilds), the ace at both ends; a clean ace-to-king sequence scores 500, ace to ace 1000. The stock is drawn to the end, then an untaken pot becomes the stock."},
		close:   Text{"Pozzetto preso e un burraco pulito.", "Pot taken and a clean burraco."},
		players: []int{4, 2},
	},
	Aberto: {
		name: Text{"Buraco Aberto (brasiliano)", "Brazilian Buraco Aberto (open)"},
		desc: Text{
			IT: "Buraco brasiliano aperto: solo scale, monte degli scarti vuoto all'inizio e tutto visibile, ripesca al primo turno, morti da 11 carte, valori brasiliani (pinella 10, jolly 20), partita a 3000 con vulnerabilità.",
			EN: "Open Brazilian Buraco: sequences only, the discard pile starts empty and is all visible, a redraw on the first turn, morti of 11 cards, Brazilian card values (2 is 10, joker 20), a game to 3000 with vulnerability."},
		close:   Text{"Morto preso e una canastra pulita.", "Morto taken and a clean canastra."},
		players: []int{4, 2},
	},
	Fechado: {
		name: Text{"Buraco Fechado (brasiliano)", "Brazilian Buraco Fechado (closed)"},
		desc: Text{
			IT: "Buraco brasiliano chiuso: scale e tris (anche di pinelle: la canastra di 2 vale 1000); del monte si vedono solo la carta in cima e il numero di carte, e lo si prende solo usando subito la carta in cima in un gioco.",
			EN: "Closed Brazilian Buraco: sequences and sets (sets of 2s too: a canastra of 2s scores 1000); only the pile's top card and size are visible, and the pile is taken only by using its top card at once in a meld."},
		close:   Text{"Morto preso e una canastra qualsiasi.", "Morto taken and any canastra."},
		players: []int{4, 2},
	},
}

// Catalog describes every rule set and the options that apply to it, with
// each option's default for that rule set: one source with the engine's own
// parsing and validation, for GET /rules. The result is a fresh copy.
func Catalog() []RuleSetInfo {
	out := make([]RuleSetInfo, 0, len(RuleSets()))
	for _, id := range RuleSets() {
		info, _ := RuleSetCatalog(id)
		out = append(out, info)
	}
	return out
}

// RuleSetCatalog describes one rule set (false for an unknown one).
func RuleSetCatalog(id RuleSet) (RuleSetInfo, bool) {
	t, ok := ruleSetTexts[id]
	if !ok || !id.valid() {
		return RuleSetInfo{}, false
	}
	def := DefaultOptions(id)
	r := Rules{ID: id, Players: t.players[0], Options: def}
	info := RuleSetInfo{
		ID: id, Name: t.name, Description: t.desc, Players: slices.Clone(t.players),
		Deck: r.DeckSize(), Melds: meldKinds(r.MeldRules()), ToClose: t.close,
		Match: MatchDefaults{Target: def.Target, FixedDeals: t.fixedDeals, DealsPerRound: slices.Clone(t.dealsPerRound)},
	}
	if def.Jokers {
		info.Jokers = 4
	}
	for _, s := range optionSpecs {
		if s.appliesTo(id) {
			info.Options = append(info.Options, s.info(def))
		}
	}
	return info, true
}

func meldKinds(mr MeldRules) []string {
	kinds := []string{"sequences"}
	if mr.Sets {
		kinds = append(kinds, "sets")
	}
	if mr.SetsOfTwos {
		kinds = append(kinds, "sets_of_twos")
	}
	return kinds
}

// info is the catalogue entry of the option with the defaults def.
func (s optionSpec) info(def Options) OptionInfo {
	oi := OptionInfo{Key: s.key, Type: s.kind, Values: slices.Clone(s.values),
		Default: optionField(&def, s.key).Interface(), Description: s.desc}
	if s.values == nil {
		lo, hi := s.min, s.max
		oi.Minimum, oi.Maximum = &lo, &hi
	}
	return oi
}
