package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// BenchmarkMix measures the server on the load of a club evening, against
// a bare net/http handler measured in the same run (so that the ratios
// mean the same on a loaded machine as on an idle one):
//
//	go test ./api -run '^$' -bench Mix -benchtime 20000x -count 5
//
// The server is the real one (router, middleware, services, GORM, the log
// as serve writes it) on a real SQLite file, answering real HTTP over
// loopback on loadConns keep-alive connections, on serve's http.Server
// settings. The evening: mixOnlineTables online 4-player tables, four
// clients each polling the table's state with the ETag they last saw and
// playing its moves; a tournament of mixPairs pairs in its last round,
// hall displays polling its standings (65% of polls with If-None-Match)
// and its round, referees entering the round's scores (then correcting
// them); the lobby GET /tables; a player's profile; the player list.
// mixKinds says how many of every 1000 requests each kind is.
//
// Mix/mix sends the kinds interleaved in that proportion; Mix/<kind> each
// kind alone. The bare handler answers every kind's request with the
// bytes the server answered it with once (a 304 when the request has
// If-None-Match), over the same number of connections, in alternating
// rounds with the server.
//
// Metrics: ratio is the server's throughput over the bare handler's (1 =
// as fast as net/http alone); req/s and base/s the two throughputs; p50-ms
// and p99-ms the server's latencies.
func BenchmarkMix(b *testing.B) {
	m := newMixBench(b)
	b.Run("mix", func(b *testing.B) { m.measure(b, m.schedule) })
	for _, k := range mixKinds {
		b.Run(k.name, func(b *testing.B) { m.measure(b, []mixKind{k.kind}) })
	}
}

// mixKind is a kind of request of the evening.
type mixKind int

const (
	kindTablePoll mixKind = iota
	kindMove
	kindStandings304
	kindStandings200
	kindRound
	kindScore
	kindLobby
	kindProfile
	kindPlayerList
)

var mixKinds = []struct {
	name   string
	kind   mixKind
	weight int // of every 1000 requests
}{
	// The evening at about 60 requests a second: 40 clients of the online
	// tables poll every second or two (27 a second), and the rest in
	// proportion.
	{"table-poll", kindTablePoll, 459},
	{"move", kindMove, 30}, // a move every five seconds or so a table (a turn is a draw, a discard, at times a meld)
	{"standings-304", kindStandings304, 130},
	{"standings-200", kindStandings200, 70}, // 35% of the displays' polls unconditional
	{"round", kindRound, 50},
	// A deal's score every few minutes at each of the hall's 12 tables: 1
	// in 1000 requests is one every 17 s, a table's every 3 to 4 minutes.
	// (Until 2026-11-26 this was 10 in 1000, every 1.7 s: a table's every
	// 20 s, when a deal of Burraco takes 10 to 20 minutes.)
	{"score", kindScore, 1},
	{"lobby", kindLobby, 80},
	{"profile", kindProfile, 100},
	{"player-list", kindPlayerList, 80},
}

const (
	mixOnlineTables = 10
	mixPairs        = 24 // 12 tables of 4: a busy club evening
	mixRounds       = 5
	mixDeals        = 3
)

// mixBench is the server with its evening, and the bare handler.
type mixBench struct {
	server, bare *httptest.Server
	bareBodies   map[string][]byte // kind name → the server's answer, which bare repeats
	schedule     []mixKind

	tokens     [4]string // the online tables' players, by seat
	svc        domain.Services
	actors     [4]domain.Actor // the online tables' players, by seat, for a table played out (playTable)
	adminToken string
	tables     []*mixTable
	polls      atomic.Int64 // which (table, seat) polls next
	nextTable  atomic.Int64 // which table moves next

	tournament int64
	sheets     []*mixSheet
	nextSheet  atomic.Int64
	standings  atomic.Pointer[string] // the latest standings ETag seen

	playerPath string

	// Requests made once, as a load tool sends its requests: the
	// generator's own work competes with the server for the machine's
	// cores, and it does none of it for the bare handler.
	reads         map[mixKind][]byte // the request of each kind that needs no state (request)
	standingsPoll []byte             // a conditional standings poll but its If-None-Match and the end of its headers
}

// mixTable is an online table: its move driver's state (under mu) and the
// ETag each seat's client last saw.
type mixTable struct {
	mu sync.Mutex
	benchTable
	etags [4]atomic.Pointer[string]
	polls [4]atomic.Pointer[[]byte] // each seat's poll of the state, but its If-None-Match and the end of its headers
}

// mixSheet is a score sheet of the tournament's last round, as the
// referee last saw it.
type mixSheet struct {
	mu      sync.Mutex
	number  int
	version int64
	entered int // deals entered; past mixDeals the referee corrects them
}

func newMixBench(b *testing.B) *mixBench {
	b.Helper()
	db := storetest.SQLite(b)
	svc := domain.NewServices(db, domain.Config{PasswordParams: domain.TestPasswordParams, MaxOpenTables: -1}) // one user opens the lobby's tables
	handler := api.NewServer(api.Config{JWTSecret: testSecret, AccessTokenTTL: time.Hour, AuthBurst: 100, AuthPerMinute: 100},
		svc, db, benchLogger(b))
	follow(b, svc)
	m := &mixBench{server: startBenchServer(b, handler), bareBodies: map[string][]byte{}}
	m.bare = startBenchServer(b, http.HandlerFunc(m.serveBare))
	ctx := context.Background()
	if _, err := svc.Auth.EnsureAdmin(ctx, "root@example.com", "root-password-1"); err != nil {
		b.Fatal(err)
	}
	m.adminToken = benchLoginAs(b, m.server.URL, "root@example.com", "root-password-1")
	var actors [4]domain.Actor
	for i, name := range []string{"Anna", "Bruno", "Carla", "Dario"} {
		email := strings.ToLower(name) + "@example.com"
		u, err := svc.Auth.Register(ctx, domain.RegisterInput{Email: email, Password: "password-123", Name: name})
		if err != nil {
			b.Fatal(err)
		}
		actors[i] = domain.Actor{UserID: u.ID}
		m.tokens[i] = benchLogin(b, m.server.URL, email)
	}
	m.openTables(b, svc, actors)
	m.playTournament(b)
	m.schedule = mixSchedule()
	m.reads = map[mixKind][]byte{}
	for _, k := range []mixKind{kindStandings200, kindRound, kindLobby, kindProfile, kindPlayerList} {
		m.reads[k] = m.request(k)
	}
	m.standingsPoll = []byte("GET " + tpath(m.tournament, "standings") + " HTTP/1.1\r\nHost: bench\r\n")
	m.captureBodies(b)
	return m
}

func benchLoginAs(b *testing.B, base, email, password string) string {
	b.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	res, err := http.Post(base+"/api/v1/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		b.Fatalf("login %s: status %d, %v", email, res.StatusCode, err)
	}
	return tok.AccessToken
}

// openTables starts the online tables (four humans each, a match long
// enough for any run) and opens as many more waiting for players, so that
// the lobby's page is full.
func (m *mixBench) openTables(b *testing.B, svc domain.Services, actors [4]domain.Actor) {
	b.Helper()
	ctx := context.Background()
	m.svc, m.actors = svc, actors
	for i := range 2 * mixOnlineTables {
		t, err := svc.Tables.Create(ctx, actors[0], domain.TableInput{Rules: domain.RuleSet("fibur"), Players: 4,
			Match: domain.MatchFormat{Deals: domain.MaxMatchDeals}, GraceSeconds: ptr(0)})
		if err != nil {
			b.Fatal(err)
		}
		if i >= mixOnlineTables {
			continue
		}
		mt := &mixTable{}
		if err := m.seatAndStart(ctx, mt, t.ID); err != nil {
			b.Fatal(err)
		}
		m.tables = append(m.tables, mt)
	}
}

// seatAndStart seats the four players at open table id, starts it and
// makes mt its driver: the seat on turn, its hand, each seat's poll.
func (m *mixBench) seatAndStart(ctx context.Context, mt *mixTable, id int64) error {
	svc, actors := m.svc, m.actors
	for seat := 1; seat < 4; seat++ {
		if _, err := svc.Tables.Join(ctx, actors[seat], id, ptr(seat), ""); err != nil {
			return err
		}
	}
	if _, err := svc.Tables.Start(ctx, actors[0], id); err != nil {
		return err
	}
	st, err := svc.Tables.State(ctx, actors[0], id, "")
	if err != nil {
		return err
	}
	mt.id, mt.version, mt.turn, mt.phase = id, st.Table.Version, st.View.Turn, st.View.Phase
	if st, err = svc.Tables.State(ctx, actors[mt.turn], id, ""); err != nil {
		return err
	}
	mt.hand = mt.hand[:0]
	for _, c := range st.View.Hand {
		mt.hand = append(mt.hand, c.String())
	}
	for seat := range mt.etags {
		mt.etags[seat].Store(new(string))
		whole := tableRaw("GET", tablePath(mt.id, "state"), m.tokens[seat], "", nil)
		poll := whole[:len(whole)-2] // but the blank line that ends the headers
		mt.polls[seat].Store(&poll)
	}
	return nil
}

// playTable replaces t's match, played out (50 deals hold about 4,000
// moves, and -count runs of the move kind play more), by a new table of
// the same players (t.mu held): the move kind can run as long as it is
// asked to.
func (m *mixBench) playTable(t *mixTable) error {
	ctx := context.Background()
	nt, err := m.svc.Tables.Create(ctx, m.actors[0], domain.TableInput{Rules: domain.RuleSet("fibur"), Players: 4,
		Match: domain.MatchFormat{Deals: domain.MaxMatchDeals}, GraceSeconds: ptr(0)})
	if err != nil {
		return err
	}
	return m.seatAndStart(ctx, t, nt.ID)
}

// call sends one request as the site admin and decodes its answer.
func (m *mixBench) call(b *testing.B, method, path string, body, out any) {
	b.Helper()
	var rd *bytes.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	} else {
		rd = bytes.NewReader(nil)
	}
	r, _ := http.NewRequest(method, m.server.URL+path, rd)
	r.Header.Set("Authorization", "Bearer "+m.adminToken)
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(res.Body)
	if res.StatusCode >= 300 {
		b.Fatalf("%s %s: %d %s", method, path, res.StatusCode, buf.Bytes())
	}
	if out != nil {
		if err := json.Unmarshal(buf.Bytes(), out); err != nil {
			b.Fatal(err)
		}
	}
}

// playTournament plays, as the site admin (who directs every club's
// tournaments), a modified Danish of mixPairs pairs up to its last round,
// drawn and started with no score entered: the evening's referees enter
// them.
func (m *mixBench) playTournament(b *testing.B) {
	b.Helper()
	var club api.Club
	m.call(b, "POST", "/api/v1/clubs", api.ClubCreateRequest{Name: "Mix Club"}, &club)
	var t api.Tournament
	m.call(b, "POST", fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID), map[string]any{"name": "Mix Cup", "rules": "fibur",
		"players_per_table": 4, "kind": "pairs", "deals_per_round": mixDeals, "starts_at": "2026-06-01T15:00:00Z",
		"movement": "modified_danish", "rounds": mixRounds}, &t)
	m.tournament = t.ID
	tp := func(parts ...any) string { return tpath(t.ID, parts...) }
	m.call(b, "POST", tp("lifecycle"), api.TournamentLifecycleRequest{Action: "open_registration"}, nil)
	for i := range mixPairs {
		var p1, p2 api.Player
		m.call(b, "POST", "/api/v1/players", api.PlayerCreateRequest{Name: fmt.Sprintf("Mix %d A", i), ClubID: &club.ID}, &p1)
		m.call(b, "POST", "/api/v1/players", api.PlayerCreateRequest{Name: fmt.Sprintf("Mix %d B", i), ClubID: &club.ID}, &p2)
		m.call(b, "POST", tp("entries"), api.TournamentEntryRequest{Players: []int64{p1.ID, p2.ID}}, nil)
		m.playerPath = fmt.Sprintf("/api/v1/players/%d", p1.ID)
	}
	m.call(b, "POST", tp("lifecycle"), api.TournamentLifecycleRequest{Action: "close_registration"}, nil)
	m.call(b, "POST", tp("lifecycle"), api.TournamentLifecycleRequest{Action: "start"}, nil)
	rnd := rand.New(rand.NewPCG(24, 5))
	for n := 1; n <= mixRounds; n++ {
		var r api.TournamentRound
		m.call(b, "POST", tp("rounds"), nil, &r)
		m.call(b, "POST", tp("rounds", n, "start"), nil, &r)
		for _, tb := range r.Tables {
			if n == mixRounds {
				m.sheets = append(m.sheets, &mixSheet{number: tb.Number, version: tb.Version})
				continue
			}
			m.call(b, "POST", tp("rounds", n, "tables", tb.Number, "scores"),
				api.TournamentScoresRequest{Version: tb.Version, Deals: randomDeals(rnd, mixDeals)}, nil)
		}
		if n < mixRounds {
			m.call(b, "POST", tp("rounds", n, "close"), nil, nil)
		}
	}
	// Members with no tournament: the players list is longer than a page.
	for i := range 60 {
		m.call(b, "POST", "/api/v1/players", api.PlayerCreateRequest{Name: fmt.Sprintf("Socio %02d", i)}, nil)
	}
}

// mixSchedule is 1000 kinds in mixKinds' proportion, shuffled (always
// the same way).
func mixSchedule() []mixKind {
	var s []mixKind
	for _, k := range mixKinds {
		for range k.weight {
			s = append(s, k.kind)
		}
	}
	rand.New(rand.NewPCG(18, 1)).Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	return s
}

// request is the request of a kind that needs no state (the reads other
// than table polls and conditional standings).
func (m *mixBench) request(k mixKind) []byte {
	switch k {
	case kindStandings200:
		return rawRequest("GET", tpath(m.tournament, "standings"), "", "")
	case kindRound:
		return rawRequest("GET", tpath(m.tournament, "rounds", mixRounds), "", "")
	case kindLobby:
		return rawRequest("GET", "/api/v1/tables", "", "")
	case kindProfile:
		return rawRequest("GET", m.playerPath, m.tokens[0], "")
	case kindPlayerList:
		return rawRequest("GET", "/api/v1/players", m.tokens[0], "")
	}
	panic(fmt.Sprintf("kind %d has state", k))
}

// do sends one request of kind k to the server on c.
func (m *mixBench) do(c *tableConn, k mixKind) error {
	switch k {
	case kindTablePoll:
		return m.pollTable(c)
	case kindMove:
		t := m.tables[int(m.nextTable.Add(1))%len(m.tables)]
		t.mu.Lock()
		defer t.mu.Unlock()
		return m.move(c, t)
	case kindStandings304:
		return m.pollStandings(c)
	case kindScore:
		return m.enterScore(c)
	}
	_, _, err := c.roundTrip(m.reads[k], http.StatusOK)
	return err
}

// pollTable is a poll of one client: the ETag it last saw in
// If-None-Match, answered 304 until the table moves.
//
// The request is put together from the seat's request line and headers,
// made once (as a load tool sends its requests), and the ETag: the
// generator's own work per request, which competes with the server for
// the machine's cores, is then close to what it does for the bare handler.
func (m *mixBench) pollTable(c *tableConn) error {
	i := int(m.polls.Add(1))
	t, seat := m.tables[i/4%len(m.tables)], i%4
	req := append(c.buf[:0], *t.polls[seat].Load()...)
	if etag := *t.etags[seat].Load(); etag != "" {
		req = append(append(append(req, "If-None-Match: "...), etag...), "\r\n"...)
	}
	c.buf = append(req, "\r\n"...)
	res, _, err := c.roundTripAny(c.buf)
	if err != nil {
		return err
	}
	if res.StatusCode == http.StatusOK {
		etag := res.Header.Get("ETag")
		t.etags[seat].Store(&etag)
	} else if res.StatusCode != http.StatusNotModified {
		return fmt.Errorf("table poll: status %d", res.StatusCode)
	}
	return nil
}

// move plays t's next move as the seat on turn (t.mu held).
func (m *mixBench) move(c *tableConn, t *mixTable) error {
	err := m.moveOnce(c, t)
	if err != nil && strings.Contains(err.Error(), "the match is over") {
		if err := m.playTable(t); err != nil {
			return err
		}
		return m.moveOnce(c, t)
	}
	return err
}

// moveOnce plays t's next move: a draw, or the first card of the hand
// that may be discarded.
func (m *mixBench) moveOnce(c *tableConn, t *mixTable) error {
	token := m.tokens[t.turn]
	if t.phase == "take" {
		return mixPost(c, &t.benchTable, token, fmt.Sprintf(`{"move":"draw","version":%d}`, t.version))
	}
	for _, card := range t.hand {
		err := mixPost(c, &t.benchTable, token, fmt.Sprintf(`{"move":"discard","card":%q,"version":%d}`, card, t.version))
		if err == nil || !strings.Contains(err.Error(), "status 422") {
			return err
		}
	}
	return fmt.Errorf("table %d: no card of %v may be discarded", t.id, t.hand)
}

// mixPost plays one move and reads the answer into t.
func mixPost(c *tableConn, t *benchTable, token, body string) error {
	return (&tableBench{}).post(c, t, token, body)
}

// pollStandings is a hall display's poll with the ETag it last saw.
func (m *mixBench) pollStandings(c *tableConn) error {
	req := append(c.buf[:0], m.standingsPoll...)
	req = append(append(append(req, "If-None-Match: "...), *m.standings.Load()...), "\r\n\r\n"...)
	c.buf = req
	res, _, err := c.roundTripAny(req)
	if err != nil {
		return err
	}
	switch res.StatusCode {
	case http.StatusOK:
		etag := res.Header.Get("ETag")
		m.standings.Store(&etag)
	case http.StatusNotModified:
	default:
		return fmt.Errorf("standings poll: status %d", res.StatusCode)
	}
	return nil
}

// enterScore is a referee's write at the next sheet: its next deal, or,
// once all are in, a correction of one.
func (m *mixBench) enterScore(c *tableConn) error {
	s := m.sheets[int(m.nextSheet.Add(1))%len(m.sheets)]
	s.mu.Lock()
	defer s.mu.Unlock()
	rnd := rand.New(rand.NewPCG(uint64(s.number), uint64(s.entered)))
	path := tpath(m.tournament, "rounds", mixRounds, "tables", s.number)
	var body []byte
	if s.entered < mixDeals {
		body, _ = json.Marshal(api.TournamentScoresRequest{Version: s.version, Deals: []api.TournamentDealInput{randomDeal(rnd, s.entered+1)}})
		path += "/scores"
	} else {
		d := randomDeal(rnd, s.entered%mixDeals+1)
		body, _ = json.Marshal(api.TournamentCorrectionRequest{Version: s.version, Reason: "a miscount",
			Deal: api.TournamentDealCorrection{Number: d.Number, NS: d.NS, EW: d.EW}})
		path += "/corrections"
	}
	_, res, err := c.roundTrip(rawRequest("POST", path, m.adminToken, string(body)), http.StatusOK)
	if err != nil {
		return err
	}
	var t api.TournamentTable
	if err := json.Unmarshal(res, &t); err != nil {
		return err
	}
	s.version = t.Version
	s.entered++
	return nil
}

// roundTripAny sends one request and returns the answer, whatever its
// status, and its body, which is c's until its next request.
func (c *tableConn) roundTripAny(request []byte) (*http.Response, []byte, error) {
	if _, err := c.w.Write(request); err != nil {
		return nil, nil, err
	}
	if err := c.w.Flush(); err != nil {
		return nil, nil, err
	}
	res, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return nil, nil, err
	}
	body, err := c.readBody(res)
	return res, body, err
}

// bareRequest is what the bare handler is sent for kind k: the server's
// request line and headers for it, on the bare handler's path of k.
func (m *mixBench) bareRequest(k mixKind) []byte {
	path := fmt.Sprintf("/bare/%d", k)
	switch k {
	case kindTablePoll:
		return tableRaw("GET", path, m.tokens[0], "", map[string]string{"If-None-Match": `"t1.v1.s0"`})
	case kindStandings304:
		return rawRequestWith("GET", path, map[string]string{"If-None-Match": `"ts1.v1.u1"`})
	case kindMove:
		return rawRequest("POST", path, m.tokens[0], `{"move":"draw","version":1}`)
	case kindScore:
		return rawRequest("POST", path, m.adminToken, `{"version":1,"deals":[]}`)
	}
	return bytes.Replace(m.request(k), []byte(" "+requestPath(m.request(k))+" "), []byte(" "+path+" "), 1)
}

// requestPath is the path of a raw request.
func requestPath(req []byte) string {
	return strings.Fields(string(req))[1]
}

// captureBodies keeps, for the bare handler, what the server answers each
// kind: for a move, the state a seat reads; for a referee's write, the
// sheet.
func (m *mixBench) captureBodies(b *testing.B) {
	b.Helper()
	c := dialMix(b, m.server)
	defer c.c.Close()
	get := func(req []byte) []byte {
		_, body, err := c.roundTrip(req, http.StatusOK)
		if err != nil {
			b.Fatal(err)
		}
		return bytes.Clone(body)
	}
	for _, k := range mixKinds {
		switch k.kind {
		case kindTablePoll, kindStandings304:
			continue // bare answers 304
		case kindMove:
			m.bareBodies[fmt.Sprintf("/bare/%d", k.kind)] = get(tableRaw("GET", tablePath(m.tables[0].id, "state"), m.tokens[0], "", nil))
		case kindScore:
			m.bareBodies[fmt.Sprintf("/bare/%d", k.kind)] = get(rawRequest("GET",
				tpath(m.tournament, "rounds", mixRounds, "tables", m.sheets[0].number), "", ""))
		default:
			m.bareBodies[fmt.Sprintf("/bare/%d", k.kind)] = get(m.request(k.kind))
		}
	}
	res, _, err := c.roundTripAny(rawRequest("GET", tpath(m.tournament, "standings"), "", ""))
	if err != nil {
		b.Fatal(err)
	}
	etag := res.Header.Get("ETag")
	m.standings.Store(&etag)
}

func dialMix(b *testing.B, srv *httptest.Server) *tableConn {
	b.Helper()
	return (&tableBench{}).dial(b, srv)
}

// serveBare is the bare handler: 304 to a request with If-None-Match,
// otherwise the bytes the server answered the request's kind with.
func (m *mixBench) serveBare(w http.ResponseWriter, r *http.Request) {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		w.Header().Set("ETag", inm)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(m.bareBodies[r.URL.Path])
}

// mixRoundsOf is how many times measure alternates bare and server.
const mixRoundsOf = 10

// measure sends b.N requests of the kinds in turn to the server and b.N
// to the bare handler, in alternating rounds after a warm-up.
func (m *mixBench) measure(b *testing.B, kinds []mixKind) {
	srv, bare := m.dialAll(b, m.server), m.dialAll(b, m.bare)
	bareReqs := make(map[mixKind][]byte)
	for _, k := range kinds {
		bareReqs[k] = m.bareRequest(k)
	}
	toBare := func(c *tableConn, k mixKind) error {
		res, body, err := c.roundTripAny(bareReqs[k])
		if err == nil && res.StatusCode >= 400 {
			err = fmt.Errorf("bare: status %d", res.StatusCode)
		}
		if err != nil {
			return err
		}
		// The client reads the answer to a write as it does the server's
		// (the server's move answer and the bare handler's are the same
		// bytes): its work is the same in both runs.
		switch k {
		case kindMove:
			var t benchTable
			return t.readMoveAnswer(body)
		case kindScore:
			var t api.TournamentTable
			return json.Unmarshal(body, &t)
		}
		return nil
	}
	warm := min(b.N, 200)
	mixRun(b, bare, kinds, warm, toBare)
	mixRun(b, srv, kinds, warm, m.do)
	var tBase, tServer, cBase, cServer time.Duration
	var lats []time.Duration
	b.ResetTimer()
	for r := range mixRoundsOf {
		n := b.N / mixRoundsOf
		if r == mixRoundsOf-1 {
			n = b.N - n*(mixRoundsOf-1)
		}
		b.StopTimer()
		c0 := cpuNow()
		d, _ := mixRun(b, bare, kinds, n, toBare)
		cBase += cpuNow() - c0
		tBase += d
		b.StartTimer()
		c0 = cpuNow()
		d, ls := mixRun(b, srv, kinds, n, m.do)
		cServer += cpuNow() - c0
		tServer += d
		lats = append(lats, ls...)
	}
	b.StopTimer()
	reportRates(b, b.N, tServer, tBase, lats)
	// What the process spent: the cores each run kept busy (2 on this
	// machine when nothing else runs), and the CPU a request cost, the
	// client's share included. cpu-ratio, the bare handler's CPU per
	// request over the server's, is what ratio tends to when the runs have
	// the cores to themselves; a core taken by other work lowers both
	// runs' throughput but hardly their CPU per request.
	b.ReportMetric(cBase.Seconds()/tBase.Seconds(), "base-cores")
	b.ReportMetric(cServer.Seconds()/tServer.Seconds(), "server-cores")
	b.ReportMetric(float64(cBase.Microseconds())/float64(b.N), "base-cpu-us/req")
	b.ReportMetric(float64(cServer.Microseconds())/float64(b.N), "server-cpu-us/req")
	b.ReportMetric(cBase.Seconds()/cServer.Seconds(), "cpu-ratio")
}

// cpuNow is the CPU time the process has used, user and system.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (m *mixBench) dialAll(b *testing.B, srv *httptest.Server) []*tableConn {
	conns := make([]*tableConn, loadConns)
	for i := range conns {
		conns[i] = dialMix(b, srv)
		b.Cleanup(func() { conns[i].c.Close() })
	}
	return conns
}

// mixRun sends n requests over conns, the i-th of kind kinds[i%len(kinds)],
// and returns the wall time and each request's latency.
func mixRun(b *testing.B, conns []*tableConn, kinds []mixKind, n int, do func(*tableConn, mixKind) error) (time.Duration, []time.Duration) {
	var next atomic.Int64
	lats := make([][]time.Duration, len(conns))
	errs := make([]error, len(conns))
	var wg sync.WaitGroup
	start := time.Now()
	for i, c := range conns {
		wg.Go(func() {
			for {
				j := next.Add(1)
				if j > int64(n) {
					return
				}
				t0 := time.Now()
				if err := do(c, kinds[int(j)%len(kinds)]); err != nil {
					errs[i] = err
					return
				}
				lats[i] = append(lats[i], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	return elapsed, slices.Concat(lats...)
}
