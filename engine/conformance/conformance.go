// Package conformance loads and runs the rules conformance cases (the JSON
// format of shared/conformance/FORMAT.md) against the engine. It is used by
// the `burraco conformance` command and by go test.
package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/burraco/burraco/engine"
)

// Case is one conformance case: a position, moves, and what must hold after.
// A case is read strictly (FORMAT.md): a key the format does not define, at
// any level, or a move that cannot be decoded makes it unreadable, whatever
// a step's reject says.
type Case struct {
	Name    string          `json:"name"`
	Rules   engine.RuleSet  `json:"rules"`
	Options json.RawMessage `json:"options"`
	Players int             `json:"players"`
	Note    string          `json:"note"` // free text for the reader, ignored
	Start   Start           `json:"start"`
	Steps   []Step          `json:"steps"`
	Expect  Expect          `json:"expect"`
}

// Start is the `start` position of a case: exactly the fields FORMAT.md
// defines (the engine's Position has more, which a case may not use).
type Start struct {
	Turn        int               `json:"turn"`
	Phase       string            `json:"phase"`
	Hands       [][]engine.Card   `json:"hands"`
	Stock       []engine.Card     `json:"stock"`
	Discard     []engine.Card     `json:"discard"`
	Pots        [][]engine.Card   `json:"pots"`
	PotTaken    []bool            `json:"pot_taken"`
	PotUnplayed []bool            `json:"pot_unplayed"`
	PotSeat     []int             `json:"pot_seat"`
	Melds       [][][]engine.Card `json:"melds"`
	Rows        [][]engine.Card   `json:"rows"`
	Totals      []int             `json:"totals"`
	FirstTurn   bool              `json:"first_turn"`
	Dealer      *int              `json:"dealer"`
}

// position returns the engine position of the case's start.
func (c Case) position() engine.Position {
	s := c.Start
	return engine.Position{Rules: c.Rules, Options: c.Options, Players: c.Players,
		Turn: s.Turn, Phase: s.Phase, Dealer: s.Dealer, Hands: s.Hands, Stock: s.Stock,
		Discard: s.Discard, Pots: s.Pots, PotTaken: s.PotTaken, PotUnplayed: s.PotUnplayed,
		PotSeat: s.PotSeat, Melds: s.Melds, Rows: s.Rows, Totals: s.Totals, FirstTurn: s.FirstTurn}
}

// Step is one move by Seat; Reject says the engine must refuse it. Raw is
// the step as written (for messages).
type Step struct {
	Seat   int
	Reject bool
	Move   engine.Move
	Raw    json.RawMessage
}

// stepKeys are the keys a step may hold: seat, reject and the move's.
type stepKeys struct {
	Seat   *int            `json:"seat"`
	Reject bool            `json:"reject"`
	Move   *string         `json:"move"`
	Card   json.RawMessage `json:"card"`
	Cards  json.RawMessage `json:"cards"`
	Meld   json.RawMessage `json:"meld"`
	Attach json.RawMessage `json:"attach"`
	Melds  json.RawMessage `json:"melds"`
	WildAs json.RawMessage `json:"wild_as"`
	Row    json.RawMessage `json:"row"`
}

// UnmarshalJSON reads a step strictly: only the keys of FORMAT.md, a seat,
// and a move the engine can decode (a typo is not a rejection).
func (s *Step) UnmarshalJSON(b []byte) error {
	var w stepKeys
	if err := strictDecode(b, &w); err != nil {
		return fmt.Errorf("step %s: %v", compact(b), err)
	}
	if w.Seat == nil || w.Move == nil {
		return fmt.Errorf("step %s: needs seat and move", compact(b))
	}
	var m engine.Move
	if err := m.UnmarshalJSON(b); err != nil {
		return fmt.Errorf("step %s: cannot decode the move: %v", compact(b), err)
	}
	*s = Step{Seat: *w.Seat, Reject: w.Reject, Move: m, Raw: slices.Clone(b)}
	return nil
}

// Expect is what must hold after the steps; nil fields are not checked.
type Expect struct {
	Turn        *int              `json:"turn"`
	Phase       *string           `json:"phase"`
	Hands       []*[]engine.Card  `json:"hands"`
	HandSizes   []int             `json:"hand_sizes"`
	Melds       [][][]engine.Card `json:"melds"`
	Discard     *[]engine.Card    `json:"discard"`
	StockSize   *int              `json:"stock_size"`
	PotTaken    []bool            `json:"pot_taken"`
	PotUnplayed []bool            `json:"pot_unplayed"`
	Over        *bool             `json:"over"`
	Score       []ScoreParts      `json:"score"`
	Rows        []*[]engine.Card  `json:"rows"`
}

// ScoreParts is one team's expected score: any of its parts.
type ScoreParts struct {
	Total   *int `json:"total"`
	Cards   *int `json:"cards"`
	Bonus   *int `json:"bonus"`
	Closing *int `json:"closing"`
	Hand    *int `json:"hand"`
	Pot     *int `json:"pot"`
}

// Load reads a case file.
func Load(path string) (Case, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Case{}, err
	}
	return Parse(b)
}

// Parse decodes a case strictly (see Case).
func Parse(b []byte) (Case, error) {
	var c Case
	if err := strictDecode(b, &c); err != nil {
		return Case{}, err
	}
	switch {
	case c.Rules == "":
		return Case{}, fmt.Errorf("case has no rules")
	case c.Start.Hands == nil:
		return Case{}, fmt.Errorf("case start has no hands")
	}
	return c, nil
}

// strictDecode decodes one JSON value into v, refusing unknown keys (in
// nested structs too; a type with its own UnmarshalJSON checks its own) and
// trailing data.
func strictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}

// Run plays the case and returns nil when everything expected holds, or an
// error saying what differed.
func Run(c Case) error {
	g, err := engine.LoadPosition(c.position())
	if err != nil {
		return fmt.Errorf("start position: %v", err)
	}
	for i, s := range c.Steps {
		if err := runStep(g, s); err != nil {
			return fmt.Errorf("step %d (%s): %v", i+1, compact(s.Raw), err)
		}
	}
	return check(g, c.Expect)
}

func runStep(g *engine.Game, s Step) error {
	before, err := json.Marshal(g.Position())
	if err != nil {
		return err
	}
	err = g.Apply(s.Seat, s.Move)
	switch {
	case s.Reject && err == nil:
		return fmt.Errorf("accepted, expected a rejection")
	case !s.Reject && err != nil:
		return fmt.Errorf("rejected: %v", err)
	case s.Reject:
		after, _ := json.Marshal(g.Position())
		if !bytes.Equal(before, after) {
			return fmt.Errorf("rejected (%v) but the position changed", err)
		}
	}
	return nil
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

// check compares the game with what is expected, collecting every difference.
func check(g *engine.Game, e Expect) error {
	var diffs []string
	add := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }
	if e.Turn != nil && *e.Turn != g.Turn() {
		add("turn %d, want %d", g.Turn(), *e.Turn)
	}
	if e.Phase != nil && *e.Phase != g.Phase().String() {
		add("phase %s, want %s", g.Phase(), *e.Phase)
	}
	if e.Over != nil && *e.Over != g.Over() {
		add("over %v, want %v", g.Over(), *e.Over)
	}
	checkHands(g, e, add)
	checkMelds(g, e.Melds, add)
	if e.Discard != nil && !slices.Equal(g.Pile(), *e.Discard) {
		add("discard %v, want %v", engine.FormatCards(g.Pile()), engine.FormatCards(*e.Discard))
	}
	if e.StockSize != nil && *e.StockSize != g.StockSize() {
		add("stock_size %d, want %d", g.StockSize(), *e.StockSize)
	}
	teams := g.Rules().Teams()
	for name, want := range map[string][]bool{"pot_taken": e.PotTaken, "pot_unplayed": e.PotUnplayed} {
		if want == nil {
			continue
		}
		got := make([]bool, teams)
		for t := range got {
			if name == "pot_taken" {
				got[t] = g.PotTaken(t)
			} else {
				got[t] = g.PotUnplayed(t)
			}
		}
		if !slices.Equal(got, want) {
			add("%s %v, want %v", name, got, want)
		}
	}
	checkScore(g, e.Score, add)
	if len(diffs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(diffs, "; "))
}

func checkHands(g *engine.Game, e Expect, add func(string, ...any)) {
	if e.Hands != nil && len(e.Hands) != g.Players() {
		add("hands: %d listed for %d players", len(e.Hands), g.Players())
	}
	for seat, h := range e.Hands {
		if h == nil || seat >= g.Players() {
			continue
		}
		if !sameMultiset(g.Hand(seat), *h) {
			add("hand %d %v, want %v", seat, engine.FormatCards(g.Hand(seat)), engine.FormatCards(*h))
		}
	}
	if e.HandSizes != nil {
		got := make([]int, g.Players())
		for s := range got {
			got[s] = g.HandSize(s)
		}
		if !slices.Equal(got, e.HandSizes) {
			add("hand_sizes %v, want %v", got, e.HandSizes)
		}
	}
	for seat, r := range e.Rows {
		if r != nil && !slices.Equal(g.Row(seat), *r) {
			add("row %d %v, want %v", seat, engine.FormatCards(g.Row(seat)), engine.FormatCards(*r))
		}
	}
}

// checkMelds compares melds per team in laying order: sequences position by
// position, sets as multisets.
func checkMelds(g *engine.Game, want [][][]engine.Card, add func(string, ...any)) {
	if want == nil {
		return
	}
	teams := g.Rules().Teams()
	if len(want) != teams {
		add("melds: %d teams listed, %d play", len(want), teams)
	}
	for t := 0; t < teams && t < len(want); t++ {
		got := g.Melds(t)
		ok := len(got) == len(want[t])
		for i := 0; ok && i < len(got); i++ {
			if got[i].Kind == engine.Set {
				ok = sameMultiset(got[i].Cards, want[t][i])
			} else {
				ok = slices.Equal(got[i].Cards, want[t][i])
			}
		}
		if !ok {
			add("team %d melds %v, want %v", t, formatMelds(got), formatLists(want[t]))
		}
	}
}

func formatMelds(ms []engine.Meld) string {
	ls := make([][]engine.Card, len(ms))
	for i, m := range ms {
		ls[i] = m.Cards
	}
	return formatLists(ls)
}

func formatLists(ls [][]engine.Card) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = "[" + strings.Join(engine.FormatCards(l), " ") + "]"
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func sameMultiset(a, b []engine.Card) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func checkScore(g *engine.Game, want []ScoreParts, add func(string, ...any)) {
	if want == nil {
		return
	}
	if !g.Over() {
		// FORMAT.md: "The score is checked only when the deal is over."
		// A case that needs the deal to be over says so with over/phase.
		return
	}
	got := g.Score()
	if len(got) != len(want) {
		add("score for %d teams, want %d", len(got), len(want))
		return
	}
	for t, w := range want {
		s := got[t]
		for _, p := range []struct {
			name string
			got  int
			want *int
		}{{"total", s.Total, w.Total}, {"cards", s.Cards, w.Cards}, {"bonus", s.Bonus, w.Bonus},
			{"closing", s.Closing, w.Closing}, {"hand", s.Hand, w.Hand}, {"pot", s.Pot, w.Pot}} {
			if p.want != nil && *p.want != p.got {
				add("team %d score %s %d, want %d", t, p.name, p.got, *p.want)
			}
		}
	}
}

// Result is the outcome of one case file.
type Result struct {
	Name string // the file's path under the directory, without .json
	Err  error  // nil when the case passed
}

// Files lists every *.json file under dir (recursively), sorted.
func Files(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".json") {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// RunFile loads and runs one case file.
func RunFile(dir, path string) Result {
	name := strings.TrimSuffix(path, ".json")
	if rel, err := filepath.Rel(dir, path); err == nil {
		name = strings.TrimSuffix(filepath.ToSlash(rel), ".json")
	}
	c, err := Load(path)
	if err != nil {
		return Result{Name: name, Err: fmt.Errorf("cannot read case: %v", err)}
	}
	return Result{Name: name, Err: Run(c)}
}

// RunDir runs every case under dir, writes one line per case (`ok NAME` or
// `FAIL NAME: what differed`) and the last line `N passed, M failed`, and
// returns the counts. An unreadable directory is an error.
func RunDir(dir string, w io.Writer) (passed, failed int, err error) {
	files, err := Files(dir)
	if err != nil {
		return 0, 0, err
	}
	for _, f := range files {
		r := RunFile(dir, f)
		if r.Err != nil {
			failed++
			fmt.Fprintf(w, "FAIL %s: %v\n", r.Name, r.Err)
		} else {
			passed++
			fmt.Fprintf(w, "ok %s\n", r.Name)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	return passed, failed, nil
}
