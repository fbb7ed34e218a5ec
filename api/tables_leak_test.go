package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/engine"
)

// The leak property: over many random deals of every rule set, with 2 and 4
// players, bots and scripted human seats, after every move no response to a
// viewer (a seat, a logged-in bystander, an anonymous one) names a card
// that viewer may not see: another seat's hand, the stock, a pot, or in
// fechado the pile below its top card. Cards occur twice in two decks, so
// what is checked is counts: within each part of a response, a card occurs
// at most as often as the viewer can see it.

// leakPlays lists the tables of leakTables that TestTableNothingHiddenLeaks
// plays (a table is one deal, or two), by index:
//   - BURRACO_LEAK_DEALS=N: the first N (the deep run);
//   - -short: the first 8 (every rule set with 2 players, the first with 4);
//   - the race detector: leakRaceSample;
//   - otherwise CI's size, without the race detector: the first table of
//     each kind among the first 40 (each rule set and player count with
//     each choice of human seats, and with one deal and two: 22 tables,
//     where CI played all 40 until make test had to fit in 4 minutes).
func leakPlays(t *testing.T) []int {
	n := 0
	switch s := os.Getenv("BURRACO_LEAK_DEALS"); {
	case s != "":
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			t.Fatalf("BURRACO_LEAK_DEALS=%q: want a positive number", s)
		}
	case testing.Short():
		n = 8
	case raceEnabled:
		return leakRaceSample
	default:
		return leakKinds(leakTables(40))
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// leakRaceSample lists the tables that the race detector plays: under it
// the property costs about tenfold, and it is there to find races, not
// leaks (CI plays leakKinds without it), so two tables in parallel are
// enough: fibur-row (its rows) with one human seat, and fechado (its
// hidden pile) with 4 players, two of them partners human: 12 s of CPU
// where the 8 tables it played before took 70.
var leakRaceSample = []int{1, 9}

// leakKinds returns the index of the first table of each kind in lts: of
// each rule set, player count and choice of human seats, and of each rule
// set, player count and number of deals.
func leakKinds(lts []leakTable) []int {
	seen := map[string]bool{}
	var out []int
	for i, lt := range lts {
		humans := fmt.Sprint(lt.rules, lt.players, lt.humans)
		deals := fmt.Sprint(lt.rules, lt.players, "deals", lt.deals)
		if !seen[humans] || !seen[deals] {
			out = append(out, i)
		}
		seen[humans], seen[deals] = true, true
	}
	return out
}

// cardCounts is a multiset of cards in notation.
type cardCounts map[string]int

func (c cardCounts) add(cs ...engine.Card) {
	for _, x := range cs {
		c[x.String()]++
	}
}

// leakPosition is a running deal as the server stores it.
type leakPosition struct {
	g     *engine.Game
	table domain.Table
	seed  uint64
}

// loadLeakPosition reads a table's current deal through the store.
func loadLeakPosition(t *testing.T, db *store.DB, id int64) leakPosition {
	t.Helper()
	var p leakPosition
	err := db.View(context.Background(), func(tx domain.Tx) error {
		var err error
		if p.table, err = tx.Tables().Get(id); err != nil {
			return err
		}
		d, err := tx.Tables().Deal(id, p.table.DealNumber)
		if err != nil {
			return err
		}
		p.seed = d.Seed
		p.g, err = storedGame(tx, d)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// visible is what seat (-1: a bystander) may see: its hand, the melds, the
// rows and the pile as the rule set shows it (in fechado its top card).
func (p leakPosition) visible(seat int) cardCounts {
	v := cardCounts{}
	if seat >= 0 {
		v.add(p.g.Hand(seat)...)
	}
	for team := range p.g.Rules().Teams() {
		for _, m := range p.g.Melds(team) {
			v.add(m.Cards...)
		}
	}
	for s := range p.g.Players() {
		v.add(p.g.Row(s)...)
	}
	if pile := p.g.Pile(); p.g.Rules().ID == engine.Fechado && len(pile) > 0 {
		v.add(pile[len(pile)-1])
	} else {
		v.add(pile...)
	}
	return v
}

// hiddenFrom lists cards seat may not see, one per place they lie (another
// seat's hand, the stock, a pot, fechado's pile below the top), none of
// which the seat can see a copy of: a refused move naming one must not
// tell where it is.
func (p leakPosition) hiddenFrom(seat int) map[string]engine.Card {
	vis := p.visible(seat)
	pos := p.g.Position()
	out := map[string]engine.Card{}
	pick := func(place string, cs []engine.Card) {
		for _, c := range cs {
			if vis[c.String()] == 0 {
				out[place] = c
				return
			}
		}
	}
	for s, h := range pos.Hands {
		if s != seat {
			pick(fmt.Sprintf("hand %d", s), h)
		}
	}
	pick("stock", pos.Stock)
	for i, pot := range pos.Pots {
		pick(fmt.Sprintf("pot %d", i), pot)
	}
	if p.g.Rules().ID == engine.Fechado && len(pos.Discard) > 1 {
		pick("pile below the top", pos.Discard[:len(pos.Discard)-1])
	}
	return out
}

// cardInText finds card notations inside a string: a whole value ("KS") or
// a word of a message ("seat 0 does not hold KS").
var cardInText = regexp.MustCompile(`(?:^|[^A-Za-z0-9])((?:10|[A2-9TJQK])[SHDC]|JK)(?:$|[^A-Za-z0-9])`)

// cardsBySection counts the cards a JSON body names, per top-level key (a
// top-level array is one section, ""). A declared wild ("wild_as") is part
// of a public move, not a card's place: it is not counted.
func cardsBySection(t *testing.T, body []byte) map[string]cardCounts {
	t.Helper()
	out := map[string]cardCounts{}
	if len(bytes.TrimSpace(body)) == 0 {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, body)
	}
	var walk func(section string, v any)
	walk = func(section string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if k != "wild_as" {
					walk(section, e)
				}
			}
		case []any:
			for _, e := range x {
				walk(section, e)
			}
		case string:
			for _, m := range cardInText.FindAllStringSubmatch(x, -1) {
				c := m[1]
				if strings.HasPrefix(c, "10") {
					c = "T" + c[2:]
				}
				if out[section] == nil {
					out[section] = cardCounts{}
				}
				out[section][c]++
			}
		}
	}
	if obj, ok := doc.(map[string]any); ok {
		for k, e := range obj {
			if k != "wild_as" {
				walk(k, e)
			}
		}
	} else {
		walk("", doc)
	}
	return out
}

// leakCheck is one viewer's check of responses against the stored deal.
type leakCheck struct {
	t    *testing.T
	pos  leakPosition
	seat int    // -1: not seated
	who  string // for messages
}

// body checks that each section of a response names each card at most as
// often as the viewer may see it (plus the cards of the viewer's own
// request, which a refusal may repeat), and never the running deal's seed.
func (c leakCheck) body(what string, body []byte, asked ...engine.Card) {
	c.t.Helper()
	allowed := c.pos.visible(c.seat)
	allowed.add(asked...)
	for section, counts := range cardsBySection(c.t, body) {
		for card, n := range counts {
			if n > allowed[card] {
				c.t.Fatalf("%s (%s, %s rules, deal %d): section %q names %s %d times, the viewer may see it %d times\nbody: %s",
					what, c.who, c.pos.g.Rules().ID, c.pos.table.DealNumber, section, card, n, allowed[card], body)
			}
		}
	}
	if seed := strconv.FormatUint(c.pos.seed, 10); bytes.Contains(body, []byte(seed)) {
		c.t.Fatalf("%s (%s): the running deal's seed %s is in the body: %s", what, c.who, seed, body)
	}
}

// noCards checks a response that has no business naming any card.
func (c leakCheck) noCards(what string, body []byte) {
	c.t.Helper()
	for section, counts := range cardsBySection(c.t, body) {
		if len(counts) > 0 {
			c.t.Fatalf("%s (%s): section %q names cards %v: %s", what, c.who, section, counts, body)
		}
	}
	c.body(what, body)
}

// leakViewer is someone looking at the table.
type leakViewer struct {
	token string // "" for anonymous
	seat  int    // -1: not seated
	who   string
}

// wantETag is the only ETag a state may carry: the table, the version and
// the seat, nothing else (no card, no hidden count, no token).
func wantETag(id, version int64, seat int) string {
	who := "w"
	if seat >= 0 {
		who = strconv.Itoa(seat)
	}
	return fmt.Sprintf(`"t%d.v%d.s%s"`, id, version, who)
}

// checkViewer reads every table endpoint as v and checks each response:
// the state (and that 304 versus 200 depends only on version and seat),
// the deal list, the running deal's record, the lobby and the table.
func checkViewer(t *testing.T, e *env, pos leakPosition, v leakViewer, full bool) {
	t.Helper()
	id := pos.table.ID
	c := leakCheck{t: t, pos: pos, seat: v.seat, who: v.who}
	var st api.TableState
	res := e.must(200, req{Method: "GET", Path: tablePath(id, "state"), Token: v.token}, &st)
	c.body("state", res.Body)
	if st.Version != pos.table.Version || st.Seat != v.seat {
		t.Fatalf("%s: state version %d seat %d, stored version %d seat %d", v.who, st.Version, st.Seat, pos.table.Version, v.seat)
	}
	if st.View != nil && v.seat < 0 && len(st.View.Hand) > 0 {
		t.Fatalf("%s: a bystander is shown a hand: %v", v.who, st.View.Hand)
	}
	etag := res.Header.Get("ETag")
	if want := wantETag(id, pos.table.Version, v.seat); etag != want {
		t.Fatalf("%s: ETag %s, want %s (only table, version and seat)", v.who, etag, want)
	}
	state := tablePath(id, "state")
	poll := func(hdr string) int {
		r := e.do(req{Method: "GET", Path: state, Token: v.token, Header: map[string]string{"If-None-Match": hdr}})
		switch r.Status {
		case 304:
			if len(r.Body) != 0 || r.Header.Get("ETag") != etag {
				t.Fatalf("%s: 304 with ETag %q and body %q", v.who, r.Header.Get("ETag"), r.Body)
			}
		case 200:
			c.body("state (If-None-Match "+hdr+")", r.Body)
		default:
			t.Fatalf("%s: If-None-Match %s: status %d: %s", v.who, hdr, r.Status, r.Body)
		}
		return r.Status
	}
	if poll(etag) != 304 {
		t.Fatalf("%s: unchanged state with its own ETag is not 304", v.who)
	}
	if !full {
		return
	}
	// 304 exactly when the ETag names this version and this seat.
	for _, other := range []struct {
		etag string
		want int
	}{
		{wantETag(id, pos.table.Version-1, v.seat), 200},
		{wantETag(id, pos.table.Version+1, v.seat), 200},
		{wantETag(id, pos.table.Version, -1), notModifiedIf(v.seat < 0)},
		{wantETag(id, pos.table.Version, 0), notModifiedIf(v.seat == 0)},
		{wantETag(id, pos.table.Version, 1), notModifiedIf(v.seat == 1)},
		{wantETag(id+1000, pos.table.Version, v.seat), 200},
	} {
		if got := poll(other.etag); got != other.want {
			t.Fatalf("%s (seat %d, version %d): If-None-Match %s gave %d, want %d", v.who, v.seat, pos.table.Version, other.etag, got, other.want)
		}
	}
	sincePoll := fmt.Sprintf("%s?since=%d", state, pos.table.Version)
	if r := e.do(req{Method: "GET", Path: sincePoll, Token: v.token}); r.Status != 304 || r.Header.Get("ETag") != etag {
		t.Fatalf("%s: poll since the current version: %d, ETag %q", v.who, r.Status, r.Header.Get("ETag"))
	}
	r := e.must(200, req{Method: "GET", Path: fmt.Sprintf("%s?since=%d", state, pos.table.Version-1), Token: v.token}, nil)
	c.body("state since an old version", r.Body)

	r = e.must(200, req{Method: "GET", Path: tablePath(id, "deals"), Token: v.token}, nil)
	c.noCards("deal list", r.Body)
	r = e.must(200, req{Method: "GET", Path: tablePath(id), Token: v.token}, nil)
	c.noCards("table", r.Body)
	r = e.must(200, req{Method: "GET", Path: "/api/v1/tables?status=playing", Token: v.token}, nil)
	c.noCards("lobby", r.Body)
	// The running deal's record: refused, and the refusal says nothing.
	rec := tablePath(id, "deals", strconv.Itoa(pos.table.DealNumber), "record")
	r = e.do(req{Method: "GET", Path: rec, Token: v.token})
	if r.Status != 409 && r.Status != 401 && r.Status != 403 {
		t.Fatalf("%s: the running deal's record: status %d: %s", v.who, r.Status, r.Body)
	}
	c.noCards("running deal's record", r.Body)
}

func notModifiedIf(same bool) int {
	if same {
		return 304
	}
	return 200
}

// problemSkeleton is a refusal without what varies between two requests:
// its request id, and the cards the request named.
func problemSkeleton(t *testing.T, body []byte, named ...engine.Card) string {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("problem: %v: %s", err, body)
	}
	delete(p, "request_id")
	delete(p, "instance")
	b, _ := json.Marshal(p)
	s := string(b)
	for _, c := range named {
		s = strings.ReplaceAll(s, c.String(), "<card>")
	}
	return s
}

// tryHiddenCards posts, as the seat on turn, moves naming cards it may not
// see (from each place they lie); each is refused, names no other hidden
// card, and the refusals are alike whatever the place: nothing tells
// where a card is. Out of turn, the other human seat is refused too.
func tryHiddenCards(t *testing.T, e *env, pos leakPosition, mover leakViewer, others []leakViewer) {
	t.Helper()
	id := pos.table.ID
	hidden := pos.hiddenFrom(mover.seat)
	places := slices.Sorted(maps.Keys(hidden))
	c := leakCheck{t: t, pos: pos, seat: mover.seat, who: mover.who}
	hand := pos.g.Hand(mover.seat)
	kinds := []func(x engine.Card) engine.Move{
		func(x engine.Card) engine.Move { return engine.DiscardMove(x) },
	}
	if len(hand) >= 2 {
		kinds = append(kinds, func(x engine.Card) engine.Move { return engine.MeldMove(x, hand[0], hand[len(hand)-1]) })
	}
	if len(pos.g.Melds(pos.g.Team(mover.seat))) > 0 {
		kinds = append(kinds, func(x engine.Card) engine.Move { return engine.AttachMove(0, x) })
	}
	for k, kind := range kinds {
		skeletons := map[string]string{}
		for _, place := range places {
			x := hidden[place]
			m := kind(x)
			r := e.do(req{Method: "POST", Path: tablePath(id, "moves"), Token: mover.token, Body: moveBody(t, m, pos.table.Version)})
			if r.Status != 422 {
				t.Fatalf("%s: move %s naming a card of %s: status %d: %s", mover.who, m, place, r.Status, r.Body)
			}
			c.body("refused move naming a card of "+place, r.Body, append(slices.Clone(m.Cards), x)...)
			skeletons[place] = problemSkeleton(t, r.Body, x)
		}
		for _, place := range places {
			if skeletons[place] != skeletons[places[0]] {
				t.Fatalf("%s: refusals of move kind %d differ with where the card lies:\n%s: %s\n%s: %s",
					mover.who, k, places[0], skeletons[places[0]], place, skeletons[place])
			}
		}
	}
	for _, o := range others {
		if o.seat < 0 || o.seat == mover.seat || o.token == "" {
			continue
		}
		oc := leakCheck{t: t, pos: pos, seat: o.seat, who: o.who}
		for _, place := range places {
			m := engine.DiscardMove(hidden[place])
			r := e.do(req{Method: "POST", Path: tablePath(id, "moves"), Token: o.token, Body: moveBody(t, m, pos.table.Version)})
			if r.Status != 409 && r.Status != 403 {
				t.Fatalf("%s out of turn: status %d: %s", o.who, r.Status, r.Body)
			}
			oc.body("refused move out of turn", r.Body, hidden[place])
		}
	}
	// Stale version: refused before the move is read.
	r := e.do(req{Method: "POST", Path: tablePath(id, "moves"), Token: mover.token, Body: moveBody(t, engine.DrawMove(), pos.table.Version-1)})
	if r.Status != 409 {
		t.Fatalf("%s: stale version: status %d: %s", mover.who, r.Status, r.Body)
	}
	c.body("stale move", r.Body)
}

// leakTable is one table of the property test: its rules, players, and
// which seats humans hold (the rest are bots).
type leakTable struct {
	rules   engine.RuleSet
	players int
	humans  []int
	deals   int
}

func leakTables(n int) []leakTable {
	var out []leakTable
	for i := 0; len(out) < n; i++ {
		rules := engine.RuleSets()[i%len(engine.RuleSets())]
		players := 2
		if (i/len(engine.RuleSets()))%2 == 1 && rules != engine.FiburRow {
			players = 4
		}
		lt := leakTable{rules: rules, players: players, deals: 1}
		switch {
		case players == 2 && i%8 == 0:
			lt.humans = []int{0, 1}
		case players == 2:
			lt.humans = []int{i % 2}
		case i%3 == 0:
			lt.humans = []int{0, 2} // partners
		default:
			lt.humans = []int{1, 2} // opponents
		}
		if i%7 == 3 {
			lt.deals = 2 // a finished deal in the list while the next runs
		}
		out = append(out, lt)
	}
	return out
}

// TestTableNothingHiddenLeaks is the leak property (see the top of this
// file) over the tables of leakPlays (every rule set); after every move each
// viewer reads every table endpoint, and the human on turn tries moves
// naming cards from each hidden place. Each table is a parallel subtest on
// a database and server of its own.
func TestTableNothingHiddenLeaks(t *testing.T) {
	t.Parallel()
	var deals, moves atomic.Int64
	plays := leakPlays(t)
	all := leakTables(slices.Max(plays) + 1)
	t.Run("tables", func(t *testing.T) {
		for _, i := range plays {
			lt := all[i]
			t.Run(fmt.Sprintf("%d-%s-%dp", i, lt.rules, lt.players), func(t *testing.T) {
				t.Parallel()
				d, m := playLeakTable(t, i, lt)
				deals.Add(int64(d))
				moves.Add(int64(m))
			})
		}
	})
	t.Logf("%d deals, %d human moves, each followed by every viewer's reads", deals.Load(), moves.Load())
	if !t.Failed() && deals.Load() < int64(len(plays)) {
		t.Fatalf("played %d deals, want at least %d", deals.Load(), len(plays))
	}
}

// playLeakTable plays table i of leakTables to its end, checking every
// viewer after every move, and returns the deals and human moves played.
func playLeakTable(t *testing.T, i int, lt leakTable) (deals, moves int) {
	db := storetest.SQLite(t)
	e := newEnv(t, db)
	tokens := make([]string, 4)
	for k := range tokens {
		_, tok := e.user(fmt.Sprintf("leak%d@example.com", k), fmt.Sprintf("Player%d", k))
		tokens[k] = tok.AccessToken
	}
	_, watcher := e.user("watcher@example.com", "Watcher")
	rng := rand.New(rand.NewPCG(7, 11+uint64(i)))
	creator := tokens[lt.humans[0]]
	tb := e.newTable(creator, api.TableCreateRequest{Rules: string(lt.rules), Players: lt.players, Seat: ptr(lt.humans[0]),
		Match: &api.MatchFormat{Deals: lt.deals}, GraceSeconds: ptr(0)})
	viewers := []leakViewer{{token: watcher.AccessToken, seat: -1, who: "a logged-in bystander"}, {seat: -1, who: "anonymous"}}
	human := map[int]leakViewer{}
	for s := range lt.players {
		if slices.Contains(lt.humans, s) {
			if s != lt.humans[0] {
				e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: tokens[s], Body: api.SeatRequest{Seat: ptr(s)}}, nil)
			}
			human[s] = leakViewer{token: tokens[s], seat: s, who: fmt.Sprintf("seat %d", s)}
			viewers = append(viewers, human[s])
		} else {
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: creator, Body: api.SeatRequest{Seat: ptr(s)}}, nil)
		}
	}
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: creator}, nil)
	c := chooser{rand.New(rand.NewPCG(uint64(i), 13))}
	lastDeal := 0
	for step := 0; ; step++ {
		if step > 5000 {
			t.Fatalf("table %d (%s, %d players) did not finish", tb.ID, lt.rules, lt.players)
		}
		pos := loadLeakPosition(t, db, tb.ID)
		if pos.table.DealNumber != lastDeal {
			deals++
			lastDeal = pos.table.DealNumber
		}
		if pos.table.Status == domain.TableFinished {
			break
		}
		for k, v := range viewers {
			checkViewer(t, e, pos, v, step%2 == 0 && k == step/2%len(viewers))
		}
		turn := pos.g.Turn()
		mover, ok := human[turn]
		if !ok {
			t.Fatalf("table %d: a bot's turn (seat %d) is pending: bots play at once", tb.ID, turn)
		}
		if step%4 == 0 || rng.IntN(8) == 0 {
			tryHiddenCards(t, e, pos, mover, viewers)
		}
		m := c.choose(pos.g, turn)
		r := e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: mover.token, Body: moveBody(t, m, pos.table.Version)}, nil)
		moves++
		// The answer shows the position after the move (and the bots'
		// turns): the next deal's if this one ended, the last one's
		// if the match did.
		after := loadLeakPosition(t, db, tb.ID)
		leakCheck{t: t, pos: after, seat: turn, who: mover.who}.body("move answer", r.Body)
	}
	return deals, moves
}
