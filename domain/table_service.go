package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/burraco/burraco/engine"
)

// tableService implements TableService. Its own methods are the lobby and
// the seats: creating, listing and cancelling tables, sitting down and
// leaving, starting, rematches (table_rematch.go), and the claims of the
// players present about a seat that is gone (table_claims.go). The rest it
// hands to the part that does it, each its own type with what it needs
// and no more: the match played within a transaction (tableMatch,
// table_play.go), the players' moves and the move feed (tableMoves,
// table_moves.go), what a table looks like and the polls that wait on it
// (tableViews, table_state.go), and the clocks, forfeits and stand-ins
// (tableReferee, table_clock.go).
type tableService struct {
	st  Storage
	now func() time.Time
	// maxOpen is how many tables not finished a user may have created
	// (negative: no limit).
	maxOpen int
	// openTTL is how long an open table may wait for its start before
	// CloseStale cancels it (0 or negative: for ever).
	openTTL time.Duration
	notes   *tableNotifier
	// presence is when each player was last seen at each table, from
	// their polls, streams and moves (table_presence.go).
	presence *presenceBook
	// kept keeps the lobby's pages while no table, seat or name changes.
	kept *keptReads
	// match starts the matches of the tables that fill.
	match *tableMatch
	// referee keeps the clocks, calls time-outs and forfeits, and puts
	// bots in for absent players (table_clock.go, table_forfeit.go,
	// table_standin.go): Tick, CallTimeOut and ReplaceByBot are its.
	referee *tableReferee
	moves   *tableMoves
	views   *tableViews
	games   *gameCache
}

// newTableService builds the table service and its parts, which share the
// notifier, the game cache and the presence book. recorder is the
// tournaments' (nil: tables of no tournament only).
func newTableService(st Storage, now func() time.Time, random io.Reader, bot BotFunc, maxOpen int, openTTL time.Duration,
	kept *keptReads, recorder dealRecorder) *tableService {
	if bot == nil {
		bot = EngineBot
	}
	notes, games, presence := newTableNotifier(), newGameCache(), newPresenceBook()
	match := &tableMatch{now: now, random: random, bot: bot, games: games, recorder: recorder}
	referee := &tableReferee{st: st, now: now, notes: notes, games: games, match: match, recorder: recorder}
	return &tableService{st: st, now: now, maxOpen: maxOpen, openTTL: openTTL, notes: notes, presence: presence,
		kept: kept, match: match, referee: referee, games: games,
		moves: &tableMoves{st: st, now: now, notes: notes, games: games, presence: presence, match: match, referee: referee},
		views: &tableViews{st: st, now: now, notes: notes, games: games, presence: presence, match: match, referee: referee}}
}

// Tick implements TableService: the referee's, on every table.
func (s *tableService) Tick(ctx context.Context, now time.Time) (int, error) {
	return s.referee.Tick(ctx, now, nil)
}

// TickOwned implements TableService: the referee's, on the tables own
// gives this process.
func (s *tableService) TickOwned(ctx context.Context, now time.Time, own ClockOwner) (int, error) {
	return s.referee.Tick(ctx, now, own)
}

// CallTimeOut implements TableService: the referee's.
func (s *tableService) CallTimeOut(ctx context.Context, actor Actor, id int64) (TableState, error) {
	return s.referee.CallTimeOut(ctx, actor, id)
}

// ReplaceByBot implements TableService: the referee's.
func (s *tableService) ReplaceByBot(ctx context.Context, actor Actor, id int64, seat int, reason string) (TableState, error) {
	return s.referee.ReplaceByBot(ctx, actor, id, seat, reason)
}

// Move implements TableService: the moves'.
func (s *tableService) Move(ctx context.Context, actor Actor, id int64, in MoveInput) (TableState, error) {
	return s.moves.Move(ctx, actor, id, in)
}

// Moves implements TableService: the moves'.
func (s *tableService) Moves(ctx context.Context, actor Actor, id int64, invite string, deal int, since int64) (MoveFeed, error) {
	return s.moves.Moves(ctx, actor, id, invite, deal, since)
}

// State implements TableService: the views'.
func (s *tableService) State(ctx context.Context, actor Actor, id int64, invite string) (TableState, error) {
	return s.views.State(ctx, actor, id, invite)
}

// Deals implements TableService: the views'.
func (s *tableService) Deals(ctx context.Context, actor Actor, id int64, invite string) ([]DealScore, error) {
	return s.views.Deals(ctx, actor, id, invite)
}

// Record implements TableService: the views'.
func (s *tableService) Record(ctx context.Context, actor Actor, id int64, number int) (DealRecord, error) {
	return s.views.Record(ctx, actor, id, number)
}

// Presence implements TableService: the views'.
func (s *tableService) Presence(id int64) ([]SeatPresence, bool) {
	return s.views.Presence(id)
}

// Watch implements TableService: the views'.
func (s *tableService) Watch(ctx context.Context, actor Actor, id int64, invite string, since int64) (int64, int, error) {
	return s.views.Watch(ctx, actor, id, invite, since)
}

// Follow implements TableService: the views'.
func (s *tableService) Follow(ctx context.Context) error {
	return s.views.Follow(ctx)
}

// Forget implements TableService. The version stays the notifier's floor
// (versions never go backwards); only what was known at it is dropped.
func (s *tableService) Forget(id int64) {
	s.games.drop(id)
	s.notes.forgetTable(id)
}

// errTableNotFound is also the answer about a private table the actor may
// not see, so that its existence does not leak.
var errTableNotFound = Errorf(ENotFound, "table not found")

// forViewer hides the invite code from everyone but the creator and the
// players, and shows a tournament's table without a creator: it is the
// tournament's, not the round's starter's.
func forViewer(t Table, actor Actor) Table {
	if !accessFor(nil, actor).canSeeInviteCode(t) {
		t.InviteCode = ""
	}
	if t.Tournament != nil {
		t.CreatorID = 0
	}
	return t
}

// visibleTable loads a table the actor may see. Errors: ENotFound.
func visibleTable(tx Tx, actor Actor, id int64, invite string, lock bool) (Table, error) {
	load := tx.Tables().Get
	if lock {
		load = tx.Tables().Lock
	}
	t, err := load(id)
	if err != nil {
		return Table{}, err
	}
	if ok, err := accessFor(tx, actor).canSeeTable(t, invite); err != nil {
		return Table{}, err
	} else if !ok {
		return Table{}, errTableNotFound
	}
	return t, nil
}

// Create implements TableService.
func (s *tableService) Create(ctx context.Context, actor Actor, in TableInput) (Table, error) {
	if actor.Anonymous() {
		return Table{}, errLoginRequired
	}
	now := s.now()
	t, err := newTable(in, now)
	if err != nil {
		return Table{}, err
	}
	if t.InviteCode, err = s.match.inviteCode(); err != nil {
		return Table{}, err
	}
	t.CreatorID, t.CreatedAt, t.UpdatedAt = actor.UserID, now, now
	if !in.Spectate {
		seat := 0
		if in.Seat != nil {
			seat = *in.Seat
		}
		t.Seats[seat].UserID, t.Seats[seat].JoinedAt = &actor.UserID, &now
		t.FreeSeats--
	}
	tk := s.notes.ticket()
	err = s.st.InTx(ctx, func(tx Tx) error {
		if t.ClubID != nil {
			if err := mayJoinClubTable(tx, actor, *t.ClubID); err != nil {
				return err
			}
		}
		if err := s.underOpenLimit(tx, actor.UserID); err != nil {
			return err
		}
		return tx.Tables().Create(&t)
	})
	if err != nil {
		return Table{}, err
	}
	s.notes.publish(t, tk)
	return t, nil
}

// underOpenLimit refuses (ETooManyOpenTables) a user who has created as
// many tables not finished as the limit allows: one account filled the
// lobby with 300 tables in 0.2 s (issue 19). The count locks the user's
// row, so that concurrent creations by one user are counted in turn.
func (s *tableService) underOpenLimit(tx Tx, userID int64) error {
	if s.maxOpen < 0 {
		return nil
	}
	n, err := tx.Tables().CountOpenOfCreator(userID)
	if err != nil {
		return err
	}
	if n >= s.maxOpen {
		return Errorf(ETooManyOpenTables, "you have %d tables not finished, the most one may create: finish or cancel one first", n)
	}
	return nil
}

// newTable validates in, collecting every field error, and returns the
// open table it describes (without creator, code or times).
func newTable(in TableInput, now time.Time) (Table, error) {
	var v Validator
	options := checkTableGame(&v, in)
	t := Table{Rules: in.Rules, Options: options, Players: in.Players, Match: in.Match, ClubID: in.ClubID,
		Private: in.Private, AutoStart: in.AutoStart, TurnSeconds: in.TurnSeconds, MatchSeconds: in.MatchSeconds,
		GraceSeconds: DefaultGraceSeconds, Status: TableOpen, FreeSeats: in.Players, Version: 1, ClockUsed: []int64{}}
	checkMatch(&v, &t)
	v.Check(in.TurnSeconds == 0 || in.TurnSeconds >= 5 && in.TurnSeconds <= 3600, "turn_seconds", "out_of_range",
		"turn_seconds must be 0 (no turn clock) or from 5 to 3600")
	v.Check(in.MatchSeconds == 0 || in.MatchSeconds >= 60 && in.MatchSeconds <= MaxClockSeconds, "match_seconds", "out_of_range",
		fmt.Sprintf("match_seconds must be 0 (no match clock) or from 60 to %d", MaxClockSeconds))
	if in.GraceSeconds != nil {
		t.GraceSeconds = *in.GraceSeconds
		v.Check(t.GraceSeconds == 0 || t.GraceSeconds >= MinGraceSeconds && t.GraceSeconds <= MaxClockSeconds,
			"grace_seconds", "out_of_range", fmt.Sprintf("grace_seconds must be 0 (no forfeit for absence) or from %d to %d",
				MinGraceSeconds, MaxClockSeconds))
	}
	t.AbsentPolicy = in.AbsentPolicy
	if t.AbsentPolicy == "" {
		t.AbsentPolicy = AbsentForfeit
	}
	v.Check(t.AbsentPolicy == AbsentForfeit || t.AbsentPolicy == AbsentBot, "absent_policy", "invalid",
		"absent_policy must be forfeit or bot")
	checkClaims(&v, &t, in)
	t.BankSeconds = in.BankSeconds
	v.Check(in.BankSeconds == 0 || in.BankSeconds >= MinBankSeconds && in.BankSeconds <= MaxClockSeconds && in.TurnSeconds > 0,
		"bank_seconds", "out_of_range", fmt.Sprintf("bank_seconds must be 0 (no time bank) or, with turn_seconds, from %d to %d",
			MinBankSeconds, MaxClockSeconds))
	t.Rated = in.Rated
	if in.Deadline != nil {
		d := stored(*in.Deadline)
		t.Deadline = &d
		v.Check(d.After(now), "deadline", "out_of_range", "deadline must be in the future")
	}
	v.Check(in.ClubID == nil || *in.ClubID > 0, "club_id", "invalid", "club_id must be a positive id")
	validSeats := in.Players == 2 || in.Players == 4
	v.Check(in.Seat == nil || !validSeats || *in.Seat >= 0 && *in.Seat < in.Players, "seat", "out_of_range",
		fmt.Sprintf("seat must be from 0 to %d", in.Players-1))
	v.Check(in.Seat == nil || !in.Spectate, "seat", "invalid", "a creator who only watches takes no seat")
	if err := v.Err(); err != nil {
		return Table{}, err
	}
	t.Seats = make([]Seat, t.Players)
	for i := range t.Seats {
		t.Seats[i].Seat = i
	}
	return t, nil
}

// checkTableGame validates the rule set, the players and the options of a
// new table, each bad option its own field ("options.<key>"), and returns
// the complete options the table plays (nil when they cannot be read).
func checkTableGame(v *Validator, in TableInput) json.RawMessage {
	known := slices.Contains(engine.RuleSets(), in.Rules)
	switch {
	case in.Rules == "":
		v.Add("rules", "required", "rules is required: one of "+ruleSetList())
	case !known:
		v.Add("rules", "invalid", fmt.Sprintf("unknown rule set %q; one of %s", in.Rules, ruleSetList()))
	}
	rules := in.Rules
	if !known {
		rules = engine.Fibur // the general rule: 2 or 4 players
	}
	if _, err := engine.NewRules(rules, in.Players); err != nil {
		v.Add("players", "invalid", ruleMessage(err))
	}
	if !known {
		return nil
	}
	problems := engine.OptionProblems(in.Rules, in.Options)
	for _, p := range problems {
		field := "options"
		if p.Key != "" {
			field += "." + p.Key
		}
		v.Add(field, string(engine.ErrBadOption), p.String())
	}
	if len(problems) > 0 {
		return nil
	}
	o, err := engine.ParseOptions(in.Rules, in.Options)
	if err != nil {
		v.Add("options", string(engine.ErrBadOption), ruleMessage(err))
		return nil
	}
	b, err := json.Marshal(o)
	if err != nil {
		v.Add("options", string(engine.ErrBadOption), err.Error())
		return nil
	}
	return b
}

// checkMatch validates the match format with the engine; both fields zero
// means a match to the target of the options.
func checkMatch(v *Validator, t *Table) {
	if t.Match.Deals == 0 && t.Match.Target == 0 && t.Options != nil {
		if o, err := engine.ParseOptions(t.Rules, t.Options); err == nil {
			t.Match.Target = o.Target
		}
	}
	switch err := t.Match.Validate(); {
	case err != nil && (t.Match.Deals != 0 || t.Match.Target != 0 || t.Options != nil):
		v.Add("match", "invalid", ruleMessage(err))
	case t.Match.Deals > MaxMatchDeals:
		v.Add("match", "out_of_range", fmt.Sprintf("a match has at most %d deals", MaxMatchDeals))
	case t.Match.Deals > 0 && t.Match.Target > 0:
		v.Add("match", "invalid", "a match is played either to a number of deals or to a target score, not both")
	case t.Match.Target > 1_000_000:
		v.Add("match", "out_of_range", "the target must be at most 1000000")
	}
}

// mayJoinClubTable checks that the actor may sit at a table of the club:
// its members and site admins. Errors: ENotFound (club), EForbidden.
func mayJoinClubTable(tx Tx, actor Actor, clubID int64) error {
	ok, err := accessFor(tx, actor).canSitAtClubTable(clubID)
	if !ok {
		return orDenied(err, Errorf(EForbidden, "only members of the club may sit at its tables"))
	}
	return nil
}

// Get implements TableService.
func (s *tableService) Get(ctx context.Context, actor Actor, id int64, invite string) (Table, error) {
	var t Table
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		t, err = visibleTable(tx, actor, id, invite, false)
		return err
	})
	if err == nil && standingIn(t, actor) { // a player a bot stands in for is back (see State)
		if err = s.referee.reclaim(ctx, actor, id); err != nil { // the table answered is the one read, before the mark
			return Table{}, err
		}
	}
	return forViewer(t, actor), err
}

// List implements TableService.
func (s *tableService) List(ctx context.Context, actor Actor, f TableFilter) (Page[Table], error) {
	var v Validator
	v.Check(f.Rules == "" || validRuleSet(f.Rules), "rules", "invalid", "rules must be one of "+ruleSetList())
	v.Check(f.Status == "" || f.Status.Valid(), "status", "invalid", "status must be open, playing, finished or cancelled")
	v.Check(f.ClubID == nil || *f.ClubID > 0, "club_id", "invalid", "club_id must be a positive id")
	v.Check(!f.Mine || !actor.Anonymous(), "mine", "invalid", "mine needs a logged-in caller")
	checkPage(&v, &f.Limit, &f.Offset)
	if err := v.Err(); err != nil {
		return Page[Table]{}, err
	}
	// A page differs by caller (their private tables, the invite codes
	// shown to their own tables): the caller is part of the key.
	key := fmt.Sprintf("tables\x00%d\x00%t\x00%s\x00%s\x00%s\x00%t\x00%d\x00%d", actor.UserID, f.OpenSeats, f.Rules,
		optID(f.ClubID), f.Status, f.Mine, f.Limit, f.Offset)
	read := func() (Page[Table], error) {
		page := Page[Table]{Limit: f.Limit, Offset: f.Offset}
		err := s.st.View(ctx, func(tx Tx) error {
			var err error
			page.Items, page.Total, err = tx.Tables().List(f, actor.UserID)
			return err
		})
		for i, t := range page.Items {
			page.Items[i] = forViewer(t, actor)
		}
		page.Stamp = tablesStamp(page)
		return page, err
	}
	return keptFresh(s.kept, key, lobbyRecords, read, func(p Page[Table]) (Page[Table], bool, error) {
		return s.newestTables(ctx, actor, p, read)
	})
}

// lobbyRecords is what decides which tables a lobby page lists, and in
// what order (tableRepo.List): the tables' columns its filters read (an
// INSERT adds a table, and any DELETE counts as a write to every column),
// their seats, and the seated users' names. A move writes none of them: a
// page kept is then shown with each table at its newest version
// (newestTables), and read again only when a table joins or leaves it.
var lobbyRecords = []string{"tables.private", "tables.creator_id", "tables.status", "tables.cancelled", "tables.free_seats",
	"tables.rules", "tables.club_id", "table_seats", "users.name"}

// newestTables is a lobby page with each table at the newest version this
// process knows of (its own commits, and other processes' as its table
// feed hears them), from the store's memory, and whether that changed it: a
// move changes its table's version, not the page. When a newer version is
// not in memory the page is read again (read). A table whose change this
// process did not hear (another process on a SQLite file) shows at the
// version read, for at most Config.KeptReadsMaxAge, as any kept read.
func (s *tableService) newestTables(ctx context.Context, actor Actor, page Page[Table], read func() (Page[Table], error)) (Page[Table], bool, error) {
	var newer map[int]int64 // item → its newest version; nil while none is newer
	for i, t := range page.Items {
		if newest, ok := s.notes.newest(t.ID); ok && newest > t.Version {
			if newer == nil {
				newer = map[int]int64{}
			}
			newer[i] = newest
		}
	}
	if len(newer) == 0 {
		return page, false, nil
	}
	items := slices.Clone(page.Items) // a kept page is shared
	err := s.st.ViewOne(ctx, func(tx Tx) error {
		for i, version := range newer {
			t, ok := tx.Tables().Cached(items[i].ID, version)
			if !ok {
				return errNotInMemory
			}
			items[i] = forViewer(t, actor)
		}
		return nil
	})
	if err != nil {
		p, err := read()
		return p, err == nil, err
	}
	page.Items = items
	page.Stamp = tablesStamp(page)
	return page, true, nil
}

// tablesStamp is a lobby page's Stamp: its paging and its tables'
// ShownStamp.
func tablesStamp(p Page[Table]) string {
	h := fnv.New64a()
	var b []byte
	b = strconv.AppendInt(b, int64(p.Total), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.Limit), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.Offset), 10)
	for _, t := range p.Items {
		b = append(b, '|')
		b = t.appendShownStamp(b)
	}
	_, _ = h.Write(b)
	return "t" + strconv.FormatUint(h.Sum64(), 36)
}

// ShownStamp names the table as a lobby shows it to its caller: a
// table's row and seats are the same at one version for good (every
// change bumps it), so it is told apart by its id and version and what
// does not follow the version: whether the caller is shown the invite
// code, and the seated users' names. Two tables with one ShownStamp are
// shown the same.
func (t Table) ShownStamp() string { return string(t.appendShownStamp(nil)) }

func (t Table) appendShownStamp(b []byte) []byte {
	b = strconv.AppendInt(b, t.ID, 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, t.Version, 10)
	b = appendStampPart(b, t.InviteCode)
	for _, s := range t.Seats {
		b = appendStampPart(b, s.UserName)
	}
	return b
}

// appendStampPart appends str with its length first: no name can end
// another's.
func appendStampPart(b []byte, str string) []byte {
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(len(str)), 10)
	b = append(b, ':')
	return append(b, str...)
}

// Join implements TableService.
func (s *tableService) Join(ctx context.Context, actor Actor, id int64, seat *int, invite string) (Table, error) {
	if actor.Anonymous() {
		return Table{}, errLoginRequired
	}
	return s.changeStarting(ctx, actor, id, invite, func(tx Tx, t *Table) (*playing, error) {
		if t.Status == TableCancelled {
			return nil, errCancelled(*t)
		}
		if t.SeatOf(actor.UserID) >= 0 {
			return nil, Errorf(EConflict, "you already sit at this table (seat %d)", t.SeatOf(actor.UserID))
		}
		if t.ClubID != nil {
			if err := mayJoinClubTable(tx, actor, *t.ClubID); err != nil {
				return nil, err
			}
		}
		return s.sit(tx, t, seat, Seat{UserID: &actor.UserID})
	})
}

// AddBot implements TableService.
func (s *tableService) AddBot(ctx context.Context, actor Actor, id int64, seat *int) (Table, error) {
	if actor.Anonymous() {
		return Table{}, errLoginRequired
	}
	return s.changeStarting(ctx, actor, id, "", func(tx Tx, t *Table) (*playing, error) {
		if err := creatorOnly(*t, actor); err != nil {
			return nil, err
		}
		if t.Rated { // a bot's moves would rate its opponents against nobody
			return nil, Errorf(ERatedWithBots, "a rated table seats no bot: its match moves its players' ratings")
		}
		return s.sit(tx, t, seat, Seat{Bot: true})
	})
}

// creatorOnly refuses anyone but the table's creator (and site admins).
func creatorOnly(t Table, actor Actor) error {
	if !accessFor(nil, actor).canRunTable(t) {
		return Errorf(EForbidden, "only the table's creator may do this")
	}
	return nil
}

// Leave implements TableService.
func (s *tableService) Leave(ctx context.Context, actor Actor, id int64) (Table, error) {
	if actor.Anonymous() {
		return Table{}, errLoginRequired
	}
	return s.change(ctx, actor, id, "", func(tx Tx, t *Table) error {
		seat := t.SeatOf(actor.UserID)
		switch {
		case seat < 0:
			return Errorf(EConflict, "you do not sit at this table")
		case t.Status == TableCancelled:
			return errCancelled(*t)
		case t.Status == TableFinished:
			return Errorf(EConflict, "the match is over")
		case t.Status == TablePlaying:
			return s.referee.abandon(tx, t, seat)
		}
		t.Seats[seat] = Seat{Seat: seat}
		t.FreeSeats++
		if err := tx.Tables().SetSeat(t.ID, t.Seats[seat]); err != nil {
			return err
		}
		if !seatsAPlayer(*t) { // left by everyone: nobody will start it
			s.cancel(t, CancelledEmpty)
		}
		return nil
	})
}

// seatsAPlayer reports whether a user sits at t (bots do not count: they
// start nothing).
func seatsAPlayer(t Table) bool {
	for _, st := range t.Seats {
		if st.UserID != nil {
			return true
		}
	}
	return false
}

// cancel closes the open table t, why: it leaves the lobby and its
// creator's count of open tables, and nothing more happens there. The
// seats stay as they were, the record of who was there.
func (s *tableService) cancel(t *Table, why CancelCause) {
	now := s.now()
	t.Status, t.Cancelled, t.FinishedAt = TableCancelled, why, &now
}

// errCancelled is the refusal of anything at a cancelled table.
func errCancelled(t Table) error {
	return Errorf(ETableCancelled, "table %d was cancelled (%s): nothing is played there; sit at another", t.ID, t.Cancelled)
}

// Cancel implements TableService.
func (s *tableService) Cancel(ctx context.Context, actor Actor, id int64) (Table, error) {
	if actor.Anonymous() {
		return Table{}, errLoginRequired
	}
	return s.change(ctx, actor, id, "", func(tx Tx, t *Table) error {
		if err := creatorOnly(*t, actor); err != nil {
			return err
		}
		switch t.Status {
		case TableCancelled:
			return errCancelled(*t)
		case TablePlaying:
			return Errorf(EConflict, "the match has started: a player may leave it (forfeiting), nobody cancels it")
		case TableFinished:
			return Errorf(EConflict, "the match is over")
		}
		s.cancel(t, CancelledByCreator)
		return nil
	})
}

// CloseStale implements TableService: in batches, each table in a
// transaction of its own (locked, and checked again: it may have started
// meanwhile), published to its pollers once committed.
func (s *tableService) CloseStale(ctx context.Context, now time.Time) (int, error) {
	if s.openTTL <= 0 {
		return 0, nil
	}
	before := now.Add(-s.openTTL)
	closed := 0
	for {
		var ids []int64
		err := s.st.View(ctx, func(tx Tx) error {
			var err error
			ids, err = tx.Tables().StaleOpen(before, PurgeBatch)
			return err
		})
		if err != nil {
			return closed, err
		}
		batch := 0
		for _, id := range ids {
			ok, err := s.closeStale(ctx, id, before)
			if err != nil {
				return closed, fmt.Errorf("table %d: %w", id, err)
			}
			if ok {
				batch++
			}
		}
		closed += batch
		if len(ids) < PurgeBatch || batch == 0 { // none closed: the next read would list them again
			return closed, nil
		}
	}
}

// closeStale cancels table id if it is still open and was created at
// before or earlier, and reports whether it did.
func (s *tableService) closeStale(ctx context.Context, id int64, before time.Time) (bool, error) {
	var t Table
	changed := false
	tk := s.notes.ticket()
	err := s.st.InTx(ctx, func(tx Tx) error {
		var err error
		if t, err = tx.Tables().Lock(id); err != nil || t.Status != TableOpen || t.Tournament != nil || t.CreatedAt.After(before) {
			return err
		}
		read := t.Version
		s.cancel(&t, CancelledExpired)
		changed = true
		return s.match.commitTable(tx, &t, read)
	})
	if err == nil && changed {
		s.notes.publish(t, tk)
	}
	return changed, err
}

// Start implements TableService.
func (s *tableService) Start(ctx context.Context, actor Actor, id int64) (Table, error) {
	if actor.Anonymous() {
		return Table{}, errLoginRequired
	}
	return s.changeStarting(ctx, actor, id, "", func(tx Tx, t *Table) (*playing, error) {
		if err := creatorOnly(*t, actor); err != nil {
			return nil, err
		}
		switch {
		case t.Status == TableCancelled:
			return nil, errCancelled(*t)
		case t.Status != TableOpen:
			return nil, Errorf(EConflict, "the match has already started")
		case t.FreeSeats > 0:
			return nil, Errorf(EConflict, "every seat must be taken to start: %d free", t.FreeSeats)
		}
		return s.match.startPlaying(tx, t)
	})
}

// change runs fn on the locked table the actor may see, then stores it with
// the next version and publishes it after the commit.
func (s *tableService) change(ctx context.Context, actor Actor, id int64, invite string, fn func(tx Tx, t *Table) error) (Table, error) {
	return s.changeStarting(ctx, actor, id, invite, func(tx Tx, t *Table) (*playing, error) { return nil, fn(tx, t) })
}

// changeStarting is change for a change that may start the match: fn
// returns the running deal it dealt (nil: none), which goes into the game
// cache once committed, so that the seats' first states and the first move
// find it there instead of reading and replaying the deal (a thousand
// tables starting at once made as many such reads at the same moment).
func (s *tableService) changeStarting(ctx context.Context, actor Actor, id int64, invite string, fn func(tx Tx, t *Table) (*playing, error)) (Table, error) {
	var t Table
	var started *playing
	tk := s.notes.ticket()
	err := s.st.InTx(ctx, func(tx Tx) error {
		var err error
		started = nil
		if t, err = visibleTable(tx, actor, id, invite, true); err != nil {
			return err
		}
		read := t.Version
		if started, err = fn(tx, &t); err != nil {
			return err
		}
		if err := s.match.commitTable(tx, &t, read); err != nil { // a start's bot moves took a version each
			return err
		}
		t, err = tx.Tables().Get(id) // with the new seats' names
		return err
	})
	if err != nil {
		return Table{}, err
	}
	if started != nil && started.deal.Number == t.DealNumber {
		s.games.put(t, started)
	}
	s.notes.publish(t, tk)
	return forViewer(t, actor), nil
}

// sit puts who in seat (nil: the first free seat) of an open table and
// starts the match when the last seat fills and the table starts by itself.
func (s *tableService) sit(tx Tx, t *Table, seat *int, who Seat) (*playing, error) {
	if t.Status == TableCancelled {
		return nil, errCancelled(*t)
	}
	if t.Status != TableOpen {
		return nil, Errorf(EConflict, "the match has started: no seat is free")
	}
	n, err := freeSeat(*t, seat)
	if err != nil {
		return nil, err
	}
	now := s.now()
	who.Seat, who.JoinedAt = n, &now
	t.Seats[n] = who
	t.FreeSeats--
	if err := tx.Tables().SetSeat(t.ID, who); err != nil {
		return nil, err
	}
	if t.FreeSeats == 0 && t.AutoStart {
		return s.match.startPlaying(tx, t)
	}
	return nil, nil
}

// freeSeat returns seat if it is free, or the first free seat when seat is
// nil. Errors: EInvalid (no such seat), EConflict (taken, or none free).
func freeSeat(t Table, seat *int) (int, error) {
	if seat != nil {
		var v Validator
		v.Check(*seat >= 0 && *seat < t.Players, "seat", "out_of_range", fmt.Sprintf("seat must be from 0 to %d", t.Players-1))
		if err := v.Err(); err != nil {
			return 0, err
		}
		if t.Seats[*seat].Taken() {
			return 0, Errorf(EConflict, "seat %d is taken", *seat)
		}
		return *seat, nil
	}
	for _, s := range t.Seats {
		if !s.Taken() {
			return s.Seat, nil
		}
	}
	return 0, Errorf(EConflict, "the table is full")
}
