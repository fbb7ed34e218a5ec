package api

import (
	"encoding/json"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// A table's state is the answer of every poll and move: each seat's state
// is encoded once a version, and encoding/json (reflection, a Marshaler's
// output checked again, an allocation a time and a slice) was a tenth of
// the server's CPU at bots' pace. appendStateRest writes the same bytes by
// hand, for the types the state is made of; it says false where it would
// differ from encoding/json (a string to escape, a time out of its range,
// a number JSON cannot hold), and the caller then encodes with
// encoding/json. TestTheStateEncodesAsEncodingJSONDoes holds the two equal,
// every field of every type here set (a field added to one of these types
// and not written here fails it), and over the states of played deals.

// appendStateRest appends s's answer after its table: the state's other
// fields, from the comma after the table to the closing brace.
func appendStateRest(b []byte, s *TableState) ([]byte, bool) {
	w := jsonWriter{b: b, ok: true}
	w.key(`,"version":`)
	w.b = strconv.AppendInt(w.b, s.Version, 10)
	w.key(`,"seat":`)
	w.int(s.Seat)
	if s.Deal != nil {
		w.key(`,"deal":`)
		w.tableDeal(s.Deal)
	}
	if s.View != nil {
		w.key(`,"view":`)
		w.dealView(s.View)
	}
	if s.LastMove != nil {
		w.key(`,"last_move":`)
		w.lastMove(s.LastMove)
	}
	w.key(`,"deals":`)
	array(&w, s.Deals, w.tableDeal)
	w.key(`,"match_totals":`)
	w.ints(s.MatchTotals)
	w.key(`,"totals":`)
	w.ints(s.Totals)
	if s.TurnSecondsLeft != nil {
		w.key(`,"turn_seconds_left":`)
		w.float(*s.TurnSecondsLeft)
	}
	if len(s.MatchSecondsLeft) > 0 {
		w.key(`,"match_seconds_left":`)
		w.floats(s.MatchSecondsLeft)
	}
	if len(s.BankSecondsLeft) > 0 {
		w.key(`,"bank_seconds_left":`)
		w.floats(s.BankSecondsLeft)
	}
	if len(s.Presence) > 0 {
		w.key(`,"presence":`)
		array(&w, s.Presence, w.seatPresence)
	}
	w.b = append(w.b, '}')
	return w.b, w.ok
}

// jsonWriter appends JSON to b; ok turns false at the first value it
// cannot write as encoding/json would.
type jsonWriter struct {
	b  []byte
	ok bool
}

func (w *jsonWriter) key(k string) { w.b = append(w.b, k...) }
func (w *jsonWriter) null()        { w.b = append(w.b, "null"...) }
func (w *jsonWriter) int(n int)    { w.b = strconv.AppendInt(w.b, int64(n), 10) }
func (w *jsonWriter) bool(v bool)  { w.b = strconv.AppendBool(w.b, v) }

// comma separates the i-th element of an array from the one before.
func (w *jsonWriter) comma(i int) {
	if i > 0 {
		w.b = append(w.b, ',')
	}
}

// str writes s quoted. encoding/json escapes <, > and & (HTML), control
// characters, invalid UTF-8 and U+2028/U+2029: a string with any byte
// outside plain printable ASCII, or one of those, is not written here.
func (w *jsonWriter) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			w.ok = false
			return
		}
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

// time writes t as time.Time's MarshalJSON does (RFC 3339 with its
// nanoseconds), for a UTC time of a four-digit year; else MarshalJSON
// itself.
func (w *jsonWriter) time(t time.Time) {
	if y := t.Year(); y < 0 || y > 9999 || t.Location() != time.UTC {
		b, err := t.MarshalJSON()
		if err != nil {
			w.ok = false
			return
		}
		w.b = append(w.b, b...)
		return
	}
	w.b = append(w.b, '"')
	w.b = t.AppendFormat(w.b, time.RFC3339Nano)
	w.b = append(w.b, '"')
}

// float writes f as encoding/json writes a float64: the shortest
// representation, in exponent form below 1e-6 or from 1e21 on, its
// exponent without a leading zero. NaN and the infinities are not JSON.
func (w *jsonWriter) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.ok = false
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' {
		if n := len(w.b); n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
			w.b[n-2] = w.b[n-1]
			w.b = w.b[:n-1]
		}
	}
}

// array writes v as a JSON array, each element by each; nil is null, as
// encoding/json writes a nil slice.
func array[T any](w *jsonWriter, v []T, each func(*T)) {
	if v == nil {
		w.null()
		return
	}
	w.b = append(w.b, '[')
	for i := range v {
		w.comma(i)
		each(&v[i])
	}
	w.b = append(w.b, ']')
}

func (w *jsonWriter) ints(v []int)       { array(w, v, func(n *int) { w.int(*n) }) }
func (w *jsonWriter) floats(v []float64) { array(w, v, func(f *float64) { w.float(*f) }) }
func (w *jsonWriter) bools(v []bool)     { array(w, v, func(x *bool) { w.bool(*x) }) }
func (w *jsonWriter) strs(v []string)    { array(w, v, func(s *string) { w.str(*s) }) }
func (w *jsonWriter) strss(v [][]string) { array(w, v, func(s *[]string) { w.strs(*s) }) }

func (w *jsonWriter) teamScores(v []TeamScore) {
	array(w, v, func(s *TeamScore) {
		w.key(`{"cards":`)
		w.int(s.Cards)
		w.key(`,"bonus":`)
		w.int(s.Bonus)
		w.key(`,"closing":`)
		w.int(s.Closing)
		w.key(`,"hand":`)
		w.int(s.Hand)
		w.key(`,"pot":`)
		w.int(s.Pot)
		w.key(`,"total":`)
		w.int(s.Total)
		w.b = append(w.b, '}')
	})
}

func (w *jsonWriter) tableDeal(d *TableDeal) {
	w.key(`{"number":`)
	w.int(d.Number)
	w.key(`,"dealer":`)
	w.int(d.Dealer)
	w.key(`,"tie_break":`)
	w.bool(d.TieBreak)
	if len(d.Score) > 0 {
		w.key(`,"score":`)
		w.teamScores(d.Score)
	}
	w.key(`,"started_at":`)
	w.time(d.StartedAt)
	if d.EndedAt != nil {
		w.key(`,"ended_at":`)
		w.time(*d.EndedAt)
	}
	w.b = append(w.b, '}')
}

func (w *jsonWriter) options(o *TableOptions) {
	w.b = append(w.b, '{')
	first := true
	sep := func(k string) {
		if !first {
			w.b = append(w.b, ',')
		}
		first = false
		w.key(k)
	}
	if o.SemiClean != nil {
		sep(`"semi_clean":`)
		w.bool(*o.SemiClean)
	}
	if o.SemiCleanSet != nil {
		sep(`"semi_clean_set":`)
		w.str(*o.SemiCleanSet)
	}
	sep(`"pot_penalty_if_neither":`)
	w.bool(o.PotPenaltyIfNeither)
	sep(`"closing_discard":`)
	w.str(o.ClosingDiscard)
	sep(`"direction":`)
	w.str(o.Direction)
	sep(`"target":`)
	w.int(o.Target)
	sep(`"vulnerability":`)
	w.bool(o.Vulnerability)
	if o.JokerPoints != nil {
		sep(`"joker_points":`)
		w.int(*o.JokerPoints)
	}
	if o.Jokers != nil {
		sep(`"jokers":`)
		w.bool(*o.Jokers)
	}
	if o.CanastraBonus != nil {
		sep(`"canastra_bonus":`)
		w.str(*o.CanastraBonus)
	}
	if o.RoundUp10 != nil {
		sep(`"round_up_10":`)
		w.bool(*o.RoundUp10)
	}
	if o.AbertoSets != nil {
		sep(`"aberto_sets":`)
		w.str(*o.AbertoSets)
	}
	if o.RealCanastra != nil {
		sep(`"real_canastra":`)
		w.bool(*o.RealCanastra)
	}
	w.b = append(w.b, '}')
}

func (w *jsonWriter) dealView(v *DealView) {
	w.key(`{"rules":`)
	w.str(v.Rules)
	w.key(`,"options":`)
	w.options(&v.Options)
	w.key(`,"players":`)
	w.int(v.Players)
	w.key(`,"seat":`)
	w.int(v.Seat)
	w.key(`,"team":`)
	w.int(v.Team)
	w.key(`,"dealer":`)
	w.int(v.Dealer)
	w.key(`,"turn":`)
	w.int(v.Turn)
	w.key(`,"phase":`)
	w.str(v.Phase)
	if v.Hand != nil { // omitzero: nil only
		w.key(`,"hand":`)
		w.strs(v.Hand)
	}
	w.key(`,"hand_sizes":`)
	w.ints(v.HandSizes)
	if len(v.Rows) > 0 {
		w.key(`,"rows":`)
		w.strss(v.Rows)
	}
	w.key(`,"melds":`)
	array(w, v.Melds, func(team *[]MeldView) { array(w, *team, w.meld) })
	if len(v.Pile) > 0 {
		w.key(`,"pile":`)
		w.strs(v.Pile)
	}
	if v.PileTop != nil {
		w.key(`,"pile_top":`)
		w.str(*v.PileTop)
	}
	w.key(`,"pile_size":`)
	w.int(v.PileSize)
	w.key(`,"stock_size":`)
	w.int(v.StockSize)
	w.key(`,"pots_left":`)
	w.int(v.PotsLeft)
	w.key(`,"pot_taken":`)
	w.bools(v.PotTaken)
	w.key(`,"pot_unplayed":`)
	w.bools(v.PotUnplayed)
	w.key(`,"start_totals":`)
	w.ints(v.StartTotals)
	w.key(`,"totals":`)
	w.ints(v.Totals)
	w.key(`,"first_turn":`)
	w.bool(v.FirstTurn)
	w.key(`,"last_turn":`)
	w.bool(v.LastTurn)
	if v.LastRound != nil {
		w.key(`,"last_round":{"until":`)
		w.int(v.LastRound.Until)
		w.key(`,"turns_left":`)
		w.int(v.LastRound.TurnsLeft)
		w.b = append(w.b, '}')
	}
	w.key(`,"over":`)
	w.bool(v.Over)
	if v.End != "" {
		w.key(`,"end":`)
		w.str(v.End)
	}
	if v.Closer != nil {
		w.key(`,"closer":`)
		w.int(*v.Closer)
	}
	if len(v.Score) > 0 {
		w.key(`,"score":`)
		w.teamScores(v.Score)
	}
	l := &v.Legal
	w.key(`,"legal":{"can_draw":`)
	w.bool(l.CanDraw)
	w.key(`,"can_pickup":`)
	w.bool(l.CanPickup)
	w.key(`,"can_meld":`)
	w.bool(l.CanMeld)
	w.key(`,"can_attach":`)
	w.bool(l.CanAttach)
	w.key(`,"can_discard":`)
	w.bool(l.CanDiscard)
	w.key(`,"can_close":`)
	w.bool(l.CanClose)
	w.key(`,"can_redraw":`)
	w.bool(l.CanRedraw)
	if l.MeldMinimum != 0 {
		w.key(`,"meld_minimum":`)
		w.int(l.MeldMinimum)
	}
	w.b = append(w.b, "}}"...)
}

func (w *jsonWriter) meld(m *MeldView) {
	w.key(`{"cards":`)
	w.strs(m.Cards)
	w.key(`,"kind":`)
	w.str(m.Kind)
	w.key(`,"wild":`)
	w.int(m.Wild)
	if m.Burraco != "" {
		w.key(`,"burraco":`)
		w.str(m.Burraco)
	}
	if m.Bonus != 0 {
		w.key(`,"bonus":`)
		w.int(m.Bonus)
	}
	w.b = append(w.b, '}')
}

func (w *jsonWriter) lastMove(m *LastMove) {
	w.key(`{"seat":`)
	w.int(m.Seat)
	w.key(`,"move":{"move":`)
	n := &m.Move
	w.str(n.Move)
	if n.Card != nil {
		w.key(`,"card":`)
		w.str(*n.Card)
	}
	if len(n.Meld) > 0 {
		// A raw message is compacted, and HTML escaped, by encoding/json:
		// json.Marshal of it is what it writes.
		b, err := json.Marshal(n.Meld)
		if err != nil {
			w.ok = false
			return
		}
		w.key(`,"meld":`)
		w.b = append(w.b, b...)
	}
	if n.Attach != nil {
		w.key(`,"attach":`)
		w.int(*n.Attach)
	}
	if len(n.Cards) > 0 {
		w.key(`,"cards":`)
		w.strs(n.Cards)
	}
	if len(n.Melds) > 0 {
		w.key(`,"melds":`)
		w.strss(n.Melds)
	}
	if n.WildAs != nil {
		w.key(`,"wild_as":`)
		w.str(*n.WildAs)
	}
	if n.Row {
		w.key(`,"row":true`)
	}
	w.key(`},"auto":`)
	w.bool(m.Auto)
	w.key(`,"by":`)
	w.str(m.By)
	w.key(`,"at":`)
	w.time(m.At)
	w.b = append(w.b, '}')
}

func (w *jsonWriter) seatPresence(p *SeatPresence) {
	w.key(`{"seat":`)
	w.int(p.Seat)
	w.key(`,"state":`)
	w.str(p.State)
	w.key(`,"since":`)
	w.time(p.Since)
	if p.WindowEnds != nil {
		w.key(`,"window_ends":`)
		w.time(*p.WindowEnds)
	}
	w.b = append(w.b, '}')
}
