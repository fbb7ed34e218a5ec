package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/tourney"
)

// ResultsService reads and writes the open results format (issue 32).
type ResultsService interface {
	// Export is the tournament's results document, for whoever may read
	// the tournament. Errors: ENotFound (also a draft the actor may not
	// see).
	Export(ctx context.Context, actor Actor, id int64) (ResultsDocument, error)
	// Import creates a tournament of the club from a results document by
	// replaying its commands (entries, pairings, scores, rulings,
	// penalties, the lifecycle) as the importing director, so that its
	// standings are computed, not copied. Players are matched by
	// federation id (unique on the server), else created in the club.
	// Errors: EUnauthenticated, ENotFound (club), EForbidden (not a
	// director of the club), EUnsupportedFormat, EInvalid (every bad field
	// of the document), and the tourney package's codes of a command the
	// document's state refuses (its field names the place in the document).
	// The body is the document's JSON, read after the caller's right: who
	// may not import is told so, whatever the document.
	Import(ctx context.Context, actor Actor, clubID int64, body []byte) (Tournament, error)
}

type resultsService struct {
	play *tournamentPlayService
}

// Export implements ResultsService.
func (s resultsService) Export(ctx context.Context, actor Actor, id int64) (ResultsDocument, error) {
	read, err := s.play.Read(ctx, actor, id)
	if err != nil {
		return ResultsDocument{}, err
	}
	var ids []int64
	for _, e := range read.Snapshot.Entries {
		ids = append(ids, e.Players...)
	}
	fed := map[int64]string{}
	err = s.play.st.View(ctx, func(tx Tx) error {
		for _, id := range ids {
			p, err := tx.Players().Get(id)
			if ErrorCode(err) == ENotFound {
				continue // a deleted profile keeps its name, not its card
			}
			if err != nil {
				return err
			}
			if p.FederationID != nil {
				fed[id] = *p.FederationID
			}
		}
		return nil
	})
	if err != nil {
		return ResultsDocument{}, err
	}
	return ResultsDocumentOf(read, fed), nil
}

// MaxImportEntries bounds the entries of an imported document: more than
// any club's evening, few enough that a replay holds its transaction a
// moment only.
const MaxImportEntries = 1000

// maxAppend bounds the events of one INSERT (SQLite and PostgreSQL bound
// a statement's parameters).
const maxAppend = 500

// Import implements ResultsService.
func (s resultsService) Import(ctx context.Context, actor Actor, clubID int64, body []byte) (Tournament, error) {
	if actor.Anonymous() {
		return Tournament{}, errLoginRequired
	}
	seed, err := randomUint64(s.play.random)
	if err != nil {
		return Tournament{}, err
	}
	var t Tournament
	err = s.play.st.InTx(ctx, func(tx Tx) error {
		if _, err := accessFor(tx, actor).clubToManage(clubID, readClub); err != nil {
			return err
		}
		doc, err := ParseResults(body)
		if err != nil {
			return err
		}
		var in TournamentInput
		t, in = importedTournament(clubID, doc)
		if doc.Event.LotsSeed == "" { // not finished: lots of its own, secret as every new tournament's
			t.LotsSeed = seed
		}
		if err := importedValid(&t, in, doc); err != nil {
			return err
		}
		t.CreatedAt = s.play.now()
		t.UpdatedAt = t.CreatedAt
		if err := tx.Tournaments().Create(&t); err != nil {
			return err
		}
		players, err := s.importPlayers(tx, clubID, doc.Entries)
		if err != nil {
			return err
		}
		st, err := newState(t)
		if err != nil {
			return err
		}
		r := &replay{st: st, who: tourney.Actor{UserID: actor.UserID, Director: true, Referee: true}, at: s.play.now(),
			doc: doc, players: players, ids: map[int]int64{}}
		if err := r.run(); err != nil {
			return err
		}
		return r.store(tx, &t)
	})
	if err != nil {
		return Tournament{}, err
	}
	s.play.stamps.changed(t.ID)
	return t, nil
}

// ParseResults reads a results document: its format and version first (a
// document of another format is EUnsupportedFormat whatever its fields),
// then the rest leniently, as the versioning rule asks (fields it does not
// know are ignored); a value of the wrong type is EInvalid naming it.
// body must be JSON (the API checks it).
func ParseResults(body []byte) (ResultsDocument, error) {
	var head struct {
		Format  any `json:"format"`
		Version any `json:"version"`
	}
	_ = json.Unmarshal(body, &head) // a wrong shape leaves them nil: another format
	f, _ := head.Format.(string)
	v, _ := head.Version.(float64)
	if f != ResultsFormat || (v != ResultsFormatVersion && v != ResultsFormatPhased) {
		return ResultsDocument{}, Errorf(EUnsupportedFormat, "this server reads %s versions %d and %d: the document's format is %v, version %v",
			ResultsFormat, ResultsFormatVersion, ResultsFormatPhased, head.Format, head.Version)
	}
	var doc ResultsDocument
	if err := json.Unmarshal(body, &doc); err != nil {
		var val Validator
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			val.Add(typeErr.Field, "wrong_type", "must be of type "+jsonTypeName(typeErr.Type.Kind().String()))
		} else {
			val.Add("", "invalid", strings.TrimPrefix(err.Error(), "json: "))
		}
		return doc, val.Err()
	}
	return doc, nil
}

// jsonTypeName names a Go kind as JSON does.
func jsonTypeName(kind string) string {
	switch {
	case strings.Contains(kind, "int"), strings.Contains(kind, "float"):
		return "number"
	case kind == "string":
		return "string"
	case kind == "bool":
		return "boolean"
	case kind == "slice":
		return "array"
	}
	return "object"
}

// importedTournament is the tournament row a document describes, with the
// set-up input it is validated as.
func importedTournament(clubID int64, doc ResultsDocument) (Tournament, TournamentInput) {
	ev := doc.Event
	seed, _ := strconv.ParseUint(ev.LotsSeed, 10, 64) // checked by checkResultsDocument
	tb := make([]standings.Criterion, len(ev.TieBreaks))
	for i, c := range ev.TieBreaks {
		tb[i] = standings.Criterion(c)
	}
	m := Movement(ev.Movement)
	in := TournamentInput{Name: ev.Name, Description: ev.Description, Rules: RuleSet(ev.Rules), Options: ev.Options,
		PlayersPerTable: &ev.PlayersPerTable, Kind: TournamentKind(ev.Kind), DealsPerRound: &ev.DealsPerRound,
		StartsAt: &ev.StartsAt, Setup: SetupInput{Movement: &m, Rounds: &ev.Rounds, MitchellStep: &ev.MitchellStep,
			TargetScore: &ev.TargetScore, VPTable: ev.VPTable, BuiltinVPTable: ev.VPTable == nil, TieBreaks: tb,
			RestVP: &ev.RestVP, RestMP: &ev.RestMP, AbandonVP: &ev.AbandonVP, RemainingGetsRest: &ev.RemainingGetsRest,
			ForbidSameClub: &ev.ForbidSameClub, AvoidRepeatOpponents: &ev.AvoidRepeatOpponents,
			LateEntryRound: &ev.LateEntryRound}}
	if in.Kind == TeamsTournament {
		in.Setup.TeamPairs = &ev.TeamPairs
	}
	if len(ev.Prizes) > 0 {
		prizes := make([]Prize, len(ev.Prizes))
		for i, p := range ev.Prizes {
			prizes[i] = Prize(p)
		}
		in.Setup.Prizes = &prizes
	}
	if len(ev.Phases) > 0 {
		phases := make([]tourney.Phase, len(ev.Phases))
		for i, p := range ev.Phases {
			phases[i] = p.phase()
		}
		in.Setup.Phases = &phases
	}
	t := Tournament{ClubID: clubID, Name: strings.TrimSpace(in.Name), Description: strings.TrimSpace(in.Description),
		Rules: in.Rules, PlayersPerTable: ev.PlayersPerTable, Kind: in.Kind, DealsPerRound: ev.DealsPerRound,
		StartsAt: ev.StartsAt, Status: TournamentDraft, LotsSeed: seed,
		TournamentSetup: defaultSetup(in.Kind, m)}
	applySetup(&t.TournamentSetup, in.Setup, t.Kind)
	return t, in
}

// importedValid checks the tournament as Create does and the document's
// own consistency, every problem at once, the tournament's fields under
// event.
func importedValid(t *Tournament, in TournamentInput, doc ResultsDocument) error {
	var v, ev Validator
	validateTournament(&ev, t, in.Options, in.Setup, absentFields{})
	for _, f := range ev.fields {
		v.Add("event."+f.Field, f.Code, f.Message)
	}
	checkResultsDocument(&v, doc)
	return v.Err()
}

// resultStatuses are the statuses a document may have.
var resultStatuses = []string{tourney.StatusDraft, tourney.StatusRegistrationOpen, tourney.StatusRegistrationClosed,
	tourney.StatusRunning, tourney.StatusFinished, tourney.StatusResultsPublished, tourney.StatusCancelled}

// checkResultsDocument records what the tourney package would refuse
// without saying where in the document: entries and their numbers, and
// every entry number a round names.
func checkResultsDocument(v *Validator, doc ResultsDocument) {
	if doc.Event.LotsSeed != "" {
		_, err := strconv.ParseUint(doc.Event.LotsSeed, 10, 64)
		v.Check(err == nil, "event.lots_seed", "invalid", "lots_seed must be a decimal number of 0 to 2^64-1")
	}
	v.Check(slices.Contains(resultStatuses, doc.Event.Status), "event.status", "invalid",
		"status must be one of "+strings.Join(resultStatuses, ", "))
	v.Check(len(doc.Entries) <= MaxImportEntries, "entries", "too_many", fmt.Sprintf("at most %d entries", MaxImportEntries))
	known := map[int]bool{}
	for i, e := range doc.Entries {
		f := fmt.Sprintf("entries[%d]", i)
		switch {
		case e.Number < 1:
			v.Add(f+".number", "out_of_range", "number must be 1 or more")
		case known[e.Number]:
			v.Add(f+".number", "duplicate", fmt.Sprintf("entry number %d is given twice", e.Number))
		}
		known[e.Number] = true
		v.Check(len(e.Players) > 0, f+".players", "required", "an entry has players")
		v.Check(e.FirstRound >= 0 && e.FirstRound <= len(doc.Rounds)+1, f+".first_round", "out_of_range",
			"first_round is a round drawn, or the next")
		v.Check(e.WithdrawnAfterRound >= 0 && e.WithdrawnAfterRound <= len(doc.Rounds), f+".withdrawn_after_round", "out_of_range",
			"withdrawn_after_round is 0 or a round drawn")
		for j, p := range e.Players {
			checkText(v, fmt.Sprintf("%s.players[%d].name", f, j), p.Name, true, MaxNameLength)
			if p.FederationID != "" {
				checkFederationID(v, fmt.Sprintf("%s.players[%d].federation_id", f, j), p.FederationID)
			}
		}
	}
	v.Check(len(doc.Rounds) <= tourney.MaxRounds, "rounds", "too_many", fmt.Sprintf("at most %d rounds", tourney.MaxRounds))
	for i, r := range doc.Rounds {
		f := fmt.Sprintf("rounds[%d]", i)
		v.Check(r.Number == i+1, f+".number", "invalid", fmt.Sprintf("the rounds are numbered from 1 in order: this is %d", i+1))
		for j, tb := range r.Tables {
			two := len(tb.NS) == 2 && len(tb.EW) == 2
			v.Check(two || len(tb.NS) == 1 && len(tb.EW) == 1, fmt.Sprintf("%s.tables[%d]", f, j), "invalid",
				"a side is one entry, or two players of an individual event")
			for _, side := range []struct {
				name string
				nums []int
			}{{"ns", tb.NS}, {"ew", tb.EW}} {
				for _, n := range side.nums {
					v.Check(known[n], fmt.Sprintf("%s.tables[%d].%s", f, j, side.name), "unknown_entry",
						fmt.Sprintf("no entry has number %d", n))
				}
			}
		}
		for j, n := range r.Byes {
			v.Check(known[n], fmt.Sprintf("%s.byes[%d]", f, j), "unknown_entry", fmt.Sprintf("no entry has number %d", n))
		}
	}
	for i, p := range doc.Penalties {
		v.Check(known[p.Entry], fmt.Sprintf("penalties[%d].entry", i), "unknown_entry", fmt.Sprintf("no entry has number %d", p.Entry))
		v.Check(p.Round >= 0 && p.Round <= len(doc.Rounds), fmt.Sprintf("penalties[%d].round", i), "out_of_range",
			"round is 0 (the event) or a round drawn")
	}
}

// importPlayers is the player profile of each player of the entries, in
// order: the profile with their federation id, else a new profile of the
// club (without an account, with a claim code as every such profile).
func (s resultsService) importPlayers(tx Tx, clubID int64, entries []ResultsEntry) ([][]int64, error) {
	out := make([][]int64, len(entries))
	for i, e := range entries {
		for _, rp := range e.Players {
			id, err := s.importPlayer(tx, clubID, rp)
			if err != nil {
				return nil, err
			}
			out[i] = append(out[i], id)
		}
	}
	return out, nil
}

func (s resultsService) importPlayer(tx Tx, clubID int64, rp ResultsPlayer) (int64, error) {
	if rp.FederationID != "" {
		p, err := tx.Joins().ByFederationID(rp.FederationID)
		if err == nil {
			return p.ID, nil
		}
		if ErrorCode(err) != ENotFound {
			return 0, err
		}
	}
	p := Player{Name: strings.TrimSpace(rp.Name), ClubID: &clubID, CreatedAt: s.play.now()}
	p.UpdatedAt = p.CreatedAt
	if rp.FederationID != "" {
		p.FederationID = &rp.FederationID
	}
	if err := tx.Players().Create(&p); err != nil {
		return 0, err
	}
	return p.ID, giveClaimCode(tx, s.play.random, p)
}

// replay plays a document's tournament into a fresh state, command by
// command, as its director; events are the events it appended.
type replay struct {
	st      *tourney.State
	who     tourney.Actor
	at      time.Time
	doc     ResultsDocument
	players [][]int64     // by entry, in the document's order
	ids     map[int]int64 // entry number → entry id
	events  []tourney.Event
}

// do decides and applies cmd; where names its place in the document for
// a refusal.
func (r *replay) do(where string, cmd tourney.Command) error {
	e, err := r.st.Decide(cmd, r.who, r.at, pairing.NewRand(0))
	if err == nil {
		err = r.st.Apply(e)
	}
	if err != nil {
		return importRefused(where, err)
	}
	r.events = append(r.events, e)
	return nil
}

// importRefused is a refusal of the replay: the tourney package's code,
// its message and fields under where.
func importRefused(where string, err error) error {
	var te *tourney.Error
	if !errors.As(err, &te) {
		return err
	}
	out := fromTourney(err).(*Error)
	out.Message = where + ": " + out.Message
	if len(out.Fields) == 0 {
		out.Fields = []FieldError{{Field: where, Code: string(out.Code), Message: te.Message}}
	}
	for i := range out.Fields {
		if out.Fields[i].Field != where {
			out.Fields[i].Field = where + "." + out.Fields[i].Field
		}
	}
	return out
}

// stage is how far a status is in the lifecycle.
func stage(status string) int {
	return slices.Index(resultStatuses, status)
}

// run replays the document.
func (r *replay) run() error {
	status := r.doc.Event.Status
	reach := stage(status)
	if status == tourney.StatusCancelled {
		reach = stage(tourney.StatusRegistrationOpen)
		if len(r.doc.Rounds) > 0 {
			reach = stage(tourney.StatusRunning)
		}
	}
	if reach < stage(tourney.StatusRegistrationOpen) {
		return nil
	}
	if err := r.do("event.status", tourney.OpenRegistration{}); err != nil {
		return err
	}
	if err := r.enter(0); err != nil {
		return err
	}
	if err := r.withdraw(0, ""); err != nil {
		return err
	}
	if reach >= stage(tourney.StatusRegistrationClosed) {
		if err := r.do("event.status", tourney.CloseRegistration{}); err != nil {
			return err
		}
	}
	if reach >= stage(tourney.StatusRunning) {
		if err := r.do("event.status", tourney.Start{}); err != nil {
			return err
		}
	}
	for i, rd := range r.doc.Rounds {
		if err := r.round(fmt.Sprintf("rounds[%d]", i), rd); err != nil {
			return err
		}
	}
	// Entered for the round not yet drawn.
	if err := r.enter(len(r.doc.Rounds) + 1); err != nil {
		return err
	}
	if err := r.penalties(0); err != nil {
		return err
	}
	return r.finish(status)
}

func (r *replay) finish(status string) error {
	switch status {
	case tourney.StatusCancelled:
		return r.do("event.cancel_reason", tourney.Cancel{Reason: r.doc.Event.CancelReason})
	case tourney.StatusFinished, tourney.StatusResultsPublished:
		if err := r.do("event.status", tourney.Finish{}); err != nil {
			return err
		}
	}
	if status == tourney.StatusResultsPublished {
		return r.do("event.status", tourney.PublishResults{})
	}
	return nil
}

// enter adds the entries whose first round is first, in the document's
// order (the order of entry: the ids follow it).
func (r *replay) enter(first int) error {
	for i, e := range r.doc.Entries {
		if e.FirstRound != first {
			continue
		}
		if err := r.do(fmt.Sprintf("entries[%d]", i), tourney.AddEntry{Players: r.players[i], Name: e.Name,
			Club: e.Club, Number: e.Number, Seed: e.Seed}); err != nil {
			return err
		}
		r.ids[e.Number] = int64(len(r.st.Entries()))
	}
	return nil
}

// withdraw withdraws the entries that withdrew after round n, with the
// reason recorded where a withdrawal decided a table of theirs.
func (r *replay) withdraw(n int, reason string) error {
	for i, e := range r.doc.Entries {
		if !e.Withdrawn || e.WithdrawnAfterRound != n {
			continue
		}
		why := reason
		if n > 0 {
			why = r.withdrawalReason(n, e.Number)
		}
		if err := r.do(fmt.Sprintf("entries[%d].withdrawn", i), tourney.Withdraw{Entry: r.ids[e.Number], Reason: why}); err != nil {
			return err
		}
	}
	return nil
}

func (r *replay) withdrawalReason(n, number int) string {
	for _, tb := range r.doc.Rounds[n-1].Tables {
		for _, x := range tb.Rulings {
			if x.Kind == "withdrawal" && x.Entry == number {
				return x.Reason
			}
		}
	}
	return ""
}

// round replays round rd: its late entries, its pairings, its sheets,
// withdrawals and rulings, its penalties, and its close.
func (r *replay) round(where string, rd ResultsRound) error {
	if err := r.enter(rd.Number); err != nil {
		return err
	}
	if err := r.pairings(where, rd); err != nil {
		return err
	}
	if rd.Status == tourney.RoundStatusPublished {
		return r.withdraw(rd.Number, "")
	}
	if err := r.do(where+".status", tourney.StartRound{Round: rd.Number}); err != nil {
		return err
	}
	for j, tb := range rd.Tables {
		if err := r.sheet(fmt.Sprintf("%s.tables[%d]", where, j), rd.Number, tb); err != nil {
			return err
		}
	}
	if err := r.withdraw(rd.Number, ""); err != nil {
		return err
	}
	for j, tb := range rd.Tables {
		if err := r.rulings(fmt.Sprintf("%s.tables[%d]", where, j), rd.Number, tb); err != nil {
			return err
		}
	}
	if err := r.penalties(rd.Number); err != nil {
		return err
	}
	if rd.Status == tourney.RoundStatusClosed {
		return r.do(where+".status", tourney.CloseRound{Round: rd.Number})
	}
	return nil
}

// pairings sets the round as the document has it: by hand, or for a
// knockout (whose bracket decides) by its draw, which must then seat it
// the same.
func (r *replay) pairings(where string, rd ResultsRound) error {
	if r.doc.Event.Movement == string(tourney.Knockout) {
		if err := r.do(where, tourney.DrawRound{Round: rd.Number}); err != nil {
			return err
		}
		got, err := r.st.Round(rd.Number)
		if err != nil {
			return err
		}
		if len(got.Tables) != len(rd.Tables) {
			return Newf(KindInvalid, EInvalid, "%s: the knockout's bracket seats %d tables, the document %d", where, len(got.Tables), len(rd.Tables))
		}
		for j, tb := range got.Tables {
			if tb.NS != r.ids[rd.Tables[j].NS[0]] || tb.EW != r.ids[rd.Tables[j].EW[0]] {
				return Newf(KindInvalid, EInvalid, "%s.tables[%d]: the knockout's bracket seats other entries", where, j)
			}
		}
		return nil
	}
	cmd := tourney.OverridePairings{Round: rd.Number, Reason: "imported", Groups: r.seeding(rd)}
	for _, b := range rd.Byes {
		cmd.Byes = append(cmd.Byes, r.ids[b])
	}
	seen := map[int]bool{}
	for j, tb := range rd.Tables {
		switch {
		case len(tb.NS) == 2 && len(tb.EW) == 2:
			cmd.Foursomes = append(cmd.Foursomes, pairing.Foursome{Number: tb.Number, N: r.ids[tb.NS[0]], S: r.ids[tb.NS[1]],
				E: r.ids[tb.EW[0]], W: r.ids[tb.EW[1]]})
		case len(tb.NS) != 1 || len(tb.EW) != 1:
			return Newf(KindInvalid, EInvalid, "%s.tables[%d]: a side is one entry, or two players of an individual event", where, j)
		case tb.Match > 0: // teams: one table of the override per match
			if !seen[tb.Match] {
				seen[tb.Match] = true
				cmd.Tables = append(cmd.Tables, pairing.Table{Number: tb.Match, NS: r.ids[tb.NS[0]], EW: r.ids[tb.EW[0]]})
			}
		default:
			cmd.Tables = append(cmd.Tables, pairing.Table{Number: tb.Number, NS: r.ids[tb.NS[0]], EW: r.ids[tb.EW[0]]})
		}
	}
	return r.do(where, cmd)
}

// sheet enters a table's deals as the staff (confirmed at once), after a
// late arrival's ruling and before the deal a time-out ended.
func (r *replay) sheet(where string, round int, tb ResultsTable) error {
	for _, x := range tb.Rulings {
		if x.Kind == tourney.RulingLateArrival {
			if err := r.ruling(where, round, tb, x); err != nil {
				return err
			}
		}
	}
	var deals []tourney.DealInput
	for _, d := range tb.Deals {
		if !d.TimeOut {
			deals = append(deals, tourney.DealInput{Number: d.Number, NS: d.NS, EW: d.EW})
		}
	}
	if len(deals) == 0 {
		return nil
	}
	v, err := r.st.Table(round, tb.Number)
	if err != nil {
		return importRefused(where, err)
	}
	return r.do(where+".deals", tourney.EnterScore{Round: round, Table: tb.Number, Version: v.Sheet.Version, Deals: deals})
}

// rulings gives a table's rulings but late arrivals (given before its
// deals) and withdrawals (the withdrawal gives them). A team match's
// ruling reaches each of its tables: one already there is not given again.
func (r *replay) rulings(where string, round int, tb ResultsTable) error {
	for i, x := range tb.Rulings {
		if x.Kind == tourney.RulingLateArrival || x.Kind == "withdrawal" {
			continue
		}
		v, err := r.st.Table(round, tb.Number)
		if err != nil {
			return importRefused(where, err)
		}
		if len(v.Rulings) > i {
			continue
		}
		if err := r.ruling(fmt.Sprintf("%s.rulings[%d]", where, i), round, tb, x); err != nil {
			return err
		}
	}
	return nil
}

func (r *replay) ruling(where string, round int, tb ResultsTable, x ResultsRuling) error {
	cmd := tourney.Ruling{Round: round, Table: tb.Number, Kind: x.Kind, Entry: r.ids[x.Entry], Deals: x.Deals, Reason: x.Reason}
	if x.Kind == tourney.RulingTimeOut {
		for _, d := range tb.Deals {
			if d.TimeOut {
				cmd.Deal = &tourney.DealInput{Number: d.Number, NS: d.NS, EW: d.EW, TimeOut: true}
			}
		}
	}
	return r.do(where, cmd)
}

// penalties gives the penalties of round n (0: of the event).
func (r *replay) penalties(n int) error {
	for i, p := range r.doc.Penalties {
		if p.Round != n {
			continue
		}
		if err := r.do(fmt.Sprintf("penalties[%d]", i), tourney.Penalty{Round: p.Round, Entry: r.ids[p.Entry],
			VP: p.VP, MP: p.MP, Reason: p.Reason}); err != nil {
			return err
		}
	}
	return nil
}

// store appends the replayed events to the new tournament's log, in
// batches; a cancelled tournament's cancel alone last, so that one opened
// before it was cancelled is public as it was.
func (r *replay) store(tx Tx, t *Tournament) error {
	events := r.events
	var cancel []tourney.Event
	if n := len(events); n > 0 && events[n-1].Kind == tourney.EventCancelled {
		events, cancel = events[:n-1], events[n-1:]
	}
	status := tourney.StatusDraft
	replayed, err := newState(*t)
	if err != nil {
		return err
	}
	for len(events) > 0 {
		batch := events[:min(maxAppend, len(events))]
		events = events[len(batch):]
		m := TournamentMirror{}
		for _, e := range batch {
			if err := replayed.Apply(e); err != nil {
				return err
			}
			m.Players = append(m.Players, addedPlayers(e)...)
		}
		if s := replayed.Status(); s != status {
			status, m.Status = s, TournamentStatus(s)
		}
		if err := r.append(tx, t, batch, m); err != nil {
			return err
		}
	}
	if len(cancel) > 0 {
		return r.append(tx, t, cancel, TournamentMirror{Status: TournamentCancelled, CancelReason: r.st.CancelReason()})
	}
	return nil
}

func (r *replay) append(tx Tx, t *Tournament, events []tourney.Event, m TournamentMirror) error {
	recs := make([]TournamentEventRecord, len(events))
	for i, e := range events {
		recs[i] = TournamentEventRecord{Seq: e.Seq, At: e.At, By: e.By, Kind: e.Kind, Data: e.Data, Reason: e.Reason}
	}
	if err := tx.TournamentEvents().Append(t.ID, t.Version, recs, m); err != nil {
		return err
	}
	t.Version, t.UpdatedAt = recs[len(recs)-1].Seq, recs[len(recs)-1].At
	if m.Status != "" {
		t.Status, t.CancelReason = m.Status, m.CancelReason
		if m.Status != TournamentDraft && m.Status != TournamentCancelled && t.OpenedAt == nil {
			at := recs[len(recs)-1].At
			t.OpenedAt = &at
		}
	}
	return nil
}

// phase is the set-up's phase the document describes.
func (p ResultsPhase) phase() tourney.Phase {
	out := tourney.Phase{Name: p.Name, Movement: Movement(p.Movement), Rounds: p.Rounds, MitchellStep: p.MitchellStep,
		DealsPerRound: p.DealsPerRound, CarryOver: tourney.CarryOver(p.CarryOver), CarryOverPercent: p.CarryOverPercent}
	if p.VPTable != nil {
		t := p.VPTable.Clone()
		out.VPTable = &t
	}
	if p.GroupsBy != "" {
		out.Groups = &tourney.Grouping{By: tourney.GroupBy(p.GroupsBy), Count: p.GroupCount}
	}
	return out
}

// seeding is the groups (entry numbers) the document's phase of round rd
// was seeded into, when rd is that phase's first round and the phase has
// groups: the override then seats the same groups, whatever made them.
func (r *replay) seeding(rd ResultsRound) [][]int {
	phases := r.doc.Event.Phases
	if rd.Phase < 1 || rd.Phase > len(phases) || phases[rd.Phase-1].GroupsBy == "" {
		return nil
	}
	first := 1
	for _, p := range phases[:rd.Phase-1] {
		first += p.Rounds
	}
	if rd.Number != first {
		return nil
	}
	var out [][]int
	for _, g := range phases[rd.Phase-1].Groups {
		out = append(out, slices.Clone(g.Entries))
	}
	return out
}
