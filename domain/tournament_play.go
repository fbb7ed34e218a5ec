package domain

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/tourney"
)

// TournamentPlayService runs a tournament's life after its set-up: the
// lifecycle's actions, entries, rounds and pairings, live score sheets,
// rulings, penalties, standings and the audit trail. The tournament's
// event log is the record (see package tourney): each command is decided
// against the fold of the log and, when accepted, appended to it in the
// same transaction that moves the tournament's version, so the version a
// client saw tells it whether anything changed.
//
// Authorisation: anyone may read a tournament once it has left draft
// (its entries, published pairings, sheets, results and standings); the
// audit trail is for its referees and directors. Who may give which
// command is the tourney package's (Actor): the club's admins and owners
// and site admins direct; assigned referees referee; a player acts for
// their own entry and table.
type TournamentPlayService interface {
	// Act decides a command and stores its event. Errors: EUnauthenticated,
	// ENotFound (tournament, or a draft the actor may not see; entry,
	// round, table or deal), EForbidden, EInvalid (every bad field),
	// EConflict and the tourney package's conflict codes (stale_sheet, …),
	// EIdempotencyKeyReused.
	Act(ctx context.Context, actor Actor, id int64, in TournamentCommand) (TournamentActed, error)
	// Read returns the tournament and its state as it stands. Errors:
	// ENotFound.
	Read(ctx context.Context, actor Actor, id int64) (TournamentRead, error)
	// Prizes gives the tournament's prize list from its final standings
	// (issue 32; see AwardPrizes), to those who may read it. Errors:
	// ENotFound, EStandingsNotFinal (not finished, or a table not final).
	Prizes(ctx context.Context, actor Actor, id int64) (TournamentPrizes, error)
	// Audit returns the events of the log after seq after, at most limit
	// (1..500), oldest first: who did what, when, why, and for corrections
	// the sheet before and after. Errors: EUnauthenticated, ENotFound,
	// EForbidden (not a referee or director of it), EInvalid.
	Audit(ctx context.Context, actor Actor, id int64, after int64, limit int) ([]tourney.Event, error)
	// Stamp returns the tournament's version and last update, for a poll
	// to answer 304 without reading its state: one cheap query (and the
	// role check of a draft). Errors: ENotFound (also a draft the actor may
	// not see).
	Stamp(ctx context.Context, actor Actor, id int64) (TournamentStamp, error)
	// Mine lists the tournaments the actor is entered in (through any of
	// their player profiles) or assigned to referee, each with its state,
	// by start time; a draft they may not see is left out. Errors:
	// EUnauthenticated.
	Mine(ctx context.Context, actor Actor) ([]MyTournament, error)
	// Follow hears the storage's TournamentFeed until ctx ends; while it
	// does, Stamp answers a public tournament's stamp from memory.
	Follow(ctx context.Context) error
}

// TournamentCommand is a command to a tournament with the request's
// Idempotency-Key (optional). RequestHash identifies the request the key
// was sent with (the API hashes method, path and body): the same key with
// another request is refused.
type TournamentCommand struct {
	Command        tourney.Command
	IdempotencyKey string
	RequestHash    string
	// Invalid, when set, is what the caller's input breaks of the
	// command's schema (the HTTP layer checks it: bounds, enums, lengths).
	// It is the answer once the caller is known to be allowed the command:
	// after a 404 for a tournament they may not see and a 403 for a
	// command they may not give, before any refusal of the state (409),
	// which would otherwise hide what is wrong with the input (issue 29).
	Invalid error
}

// TournamentRead is a tournament with its state. Snapshot is shared by
// every reader of the same version: read it, never change it. Staff is set
// when the reader referees or directs the tournament; Players names the
// players of its entries.
type TournamentRead struct {
	Tournament Tournament
	Snapshot   *tourney.Snapshot
	Staff      bool
	Players    map[int64]string
}

// TournamentActed is the result of a command: the state after it and the
// event it appended. Replayed is set when the command was a retry of a
// request with the same Idempotency-Key, answered with the first event
// and the state as it was right after it.
type TournamentActed struct {
	TournamentRead
	Event    tourney.Event
	Replayed bool
}

// ForbiddenPairs is the pairs of entries the referees keep apart, for
// the tournament's referees and directors only: a pair is kept apart
// because its players are family, or otherwise close, which a club does
// not publish (the reasons are in the audit trail, theirs alone too).
// Errors: EUnauthenticated, EForbidden.
func (r TournamentRead) ForbiddenPairs(actor Actor) ([][2]int64, error) {
	switch {
	case actor.Anonymous():
		return nil, errLoginRequired
	case !r.Staff:
		return nil, Errorf(EForbidden, "the forbidden pairs are for the tournament's referees and directors")
	}
	return r.Snapshot.Forbidden, nil
}

// AuditLimitMax bounds one page of the audit trail.
const AuditLimitMax = 500

type tournamentPlayService struct {
	st     Storage
	now    func() time.Time
	random io.Reader
	states *tournamentStates
	stamps *tournamentStamps // shared with the tournamentService
	tables onlineTables      // the online tables of tournaments played online
}

func newTournamentPlayService(st Storage, now func() time.Time, random io.Reader, stamps *tournamentStamps) *tournamentPlayService {
	return &tournamentPlayService{st: st, now: now, random: random, states: newTournamentStates(), stamps: stamps}
}

// Read implements TournamentPlayService.
func (s *tournamentPlayService) Read(ctx context.Context, actor Actor, id int64) (TournamentRead, error) {
	if out, ok := s.readKept(actor, id); ok {
		return out, nil
	}
	var out TournamentRead
	err := s.st.View(ctx, func(tx Tx) error {
		a := accessFor(tx, actor)
		t, err := visibleTournament(a, id)
		if err != nil {
			return err
		}
		staff := false
		if !actor.Anonymous() {
			if staff, err = a.canRefereeTournament(t); err != nil {
				return err
			}
		}
		cell := s.states.cell(id)
		cell.mu.Lock()
		defer cell.mu.Unlock()
		if err := cell.catchUp(tx, t); err != nil {
			return err
		}
		out, err = cell.read(tx, t)
		out.Staff = staff
		return err
	})
	return out, err
}

// readKept is Read without a query, when it can be: for an anonymous
// reader (who is staff of nothing) of a public tournament whose stamp is
// kept in memory and proves the kept state current. A draft's stamp is
// never kept, so who may see it is always asked of the database.
func (s *tournamentPlayService) readKept(actor Actor, id int64) (TournamentRead, bool) {
	if !actor.Anonymous() {
		return TournamentRead{}, false
	}
	st, ok := s.stamps.get(id)
	if !ok {
		return TournamentRead{}, false
	}
	cell := s.states.cell(id)
	cell.mu.Lock()
	defer cell.mu.Unlock()
	return cell.readKept(st)
}

// Act implements TournamentPlayService.
func (s *tournamentPlayService) Act(ctx context.Context, actor Actor, id int64, in TournamentCommand) (TournamentActed, error) {
	if actor.Anonymous() {
		return TournamentActed{}, errLoginRequired
	}
	if in.Command == nil {
		return TournamentActed{}, Errorf(EInvalid, "no command")
	}
	var v Validator
	checkIdempotencyKey(&v, in.IdempotencyKey)
	if err := v.Err(); err != nil {
		return TournamentActed{}, err
	}
	idem := in.idempotent(actor, id)
	seed, err := s.drawSeed()
	if err != nil {
		return TournamentActed{}, err
	}
	var out TournamentActed
	var next *forked // the state after the command, published once committed
	var after Tournament
	err = s.st.InTx(ctx, func(tx Tx) error {
		next = nil
		a := accessFor(tx, actor)
		t, err := tx.Tournaments().Lock(id)
		if err != nil {
			return err
		}
		t.Options = storedOptions(t.Rules, t.Options)
		if ok, err := a.canSeeTournament(t); err != nil || !ok {
			return orDenied(err, errTournamentNotFound)
		}
		who, err := tourneyActor(tx, a, t)
		if err != nil {
			return err
		}
		staff := who.Referee || who.Director
		// The command is decided and applied on a private copy of the
		// state, caught up inside this transaction; the copy replaces the
		// shared state only after the commit (below), so no reader ever
		// sees an event that could still roll back.
		f, err := s.states.cell(id).fork(tx, t)
		if err != nil {
			return err
		}
		var e tourney.Event
		if ok, err := idem.replay(tx, s.now(), &e); err != nil || ok {
			if err != nil {
				return err
			}
			out.Event, out.Replayed = e, true
			out.TournamentRead, err = readAt(tx, t, e.Seq)
			out.Staff = staff
			return err
		}
		cmd, err := regionGroups(tx, f.state, in.Command)
		if err != nil {
			return err
		}
		e, err = f.state.Decide(cmd, who, s.now(), pairing.NewRand(seed))
		if in.Invalid != nil && !callerRefused(err) {
			return in.Invalid
		}
		if err != nil {
			return fromTourney(err)
		}
		before := f.state.Status()
		if err := f.state.Apply(e); err != nil {
			return fmt.Errorf("tournament %d: applying its own event %d: %w", id, e.Seq, err)
		}
		m := TournamentMirror{Players: addedPlayers(e)}
		if after := f.state.Status(); after != before {
			m.Status = TournamentStatus(after)
			m.CancelReason = f.state.CancelReason()
		}
		recs := []TournamentEventRecord{{Seq: e.Seq, At: e.At, By: e.By, Kind: e.Kind, Data: e.Data, Reason: e.Reason}}
		var tables []Table // a round of an online tournament just started: its online tables
		if start, ok := in.Command.(tourney.StartRound); ok && t.PlayedOnline() {
			var opened tourney.Event
			if tables, opened, err = s.onlineRoundStarted(tx, t, f, start.Round, actor.UserID); err != nil {
				return err
			}
			recs = append(recs, TournamentEventRecord{Seq: opened.Seq, At: opened.At, By: opened.By, Kind: opened.Kind, Data: opened.Data})
		}
		if err := tx.TournamentEvents().Append(id, t.Version, recs, m); err != nil {
			return err
		}
		f.recs = append(f.recs, recs...)
		last := recs[len(recs)-1]
		t.Version, t.UpdatedAt = last.Seq, last.At // as Append stored them
		if m.Status != "" {
			t.Status, t.CancelReason = m.Status, m.CancelReason
			if m.Status != TournamentDraft && m.Status != TournamentCancelled && t.OpenedAt == nil {
				t.OpenedAt = &last.At // as Append stored it
			}
		}
		if len(tables) > 0 {
			// The tables deal once the round and its tables are in the log:
			// a table of bots plays its match now, its deals appended to
			// the log after them; the state catches up with them.
			if err := s.startOnlineTables(tx, tables); err != nil {
				return err
			}
			now, err := tx.Tournaments().Get(id)
			if err != nil {
				return err
			}
			if err := applyLog(tx, now, f.state); err != nil {
				return err
			}
			f.known = false // its events are not all in f.recs
			t.Version, t.UpdatedAt = now.Version, now.UpdatedAt
		}
		if err := idem.remember(tx, s.now(), &e); err != nil {
			if errors.Is(err, errAnsweredBefore) { // the replay above found none: a command of the key committed since
				return Errorf(EConflict, "a request under this Idempotency-Key was answered meanwhile; send it again for its answer")
			}
			return err
		}
		out.Event, out.Staff = e, staff
		next, after = f, t
		if err := f.name(tx); err != nil {
			return err
		}
		// The next command of this transaction (SQLite: a batch of
		// writers) starts from this state rather than fold these events
		// again; any other finds it does not match the log it reads.
		s.states.cell(id).keep(f)
		return nil
	})
	// Whatever the outcome: a commit whose answer was lost still changed
	// the tournament.
	s.stamps.changed(id)
	if err == nil && next != nil {
		// The readable state is computed once committed, so that the
		// writer is not held for it. Until published the state is only
		// cloned by the forks of commands queued behind this one
		// (tentative): Snapshot changes nothing of it but its standings
		// cache, which has its own mutex.
		staff := out.Staff
		if out.TournamentRead, err = next.read(after); err != nil {
			return out, err
		}
		out.Staff = staff
		s.states.cell(id).publish(next)
	}
	return out, err
}

// Stamp implements TournamentPlayService.
func (s *tournamentPlayService) Stamp(ctx context.Context, actor Actor, id int64) (TournamentStamp, error) {
	if st, ok := s.stamps.get(id); ok { // public: no access to check
		return st, nil
	}
	epoch := s.stamps.begin()
	var st TournamentStamp
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		if st, err = tx.Tournaments().Stamp(id); err != nil {
			return err
		}
		if st.Public {
			return nil
		}
		ok, err := accessFor(tx, actor).canSeeTournament(Tournament{ID: id, ClubID: st.ClubID})
		if err != nil || !ok {
			return orDenied(err, errTournamentNotFound)
		}
		return nil
	})
	if err != nil {
		return TournamentStamp{}, err
	}
	s.stamps.put(st, epoch)
	return st, nil
}

// Follow implements TournamentPlayService.
func (s *tournamentPlayService) Follow(ctx context.Context) error {
	feed, ok := s.st.(TournamentFeed)
	if !ok {
		<-ctx.Done()
		return nil
	}
	return feed.FollowTournaments(ctx, s.stamps.changed, s.stamps.listening)
}

// Audit implements TournamentPlayService.
func (s *tournamentPlayService) Audit(ctx context.Context, actor Actor, id int64, after int64, limit int) ([]tourney.Event, error) {
	if actor.Anonymous() {
		return nil, errLoginRequired
	}
	v := Validator{}
	v.Check(after >= 0, "after", "out_of_range", "after must be 0 or more")
	v.Check(limit >= 1 && limit <= AuditLimitMax, "limit", "out_of_range", fmt.Sprintf("limit must be 1 to %d", AuditLimitMax))
	if err := v.Err(); err != nil {
		return nil, err
	}
	var out []tourney.Event
	err := s.st.View(ctx, func(tx Tx) error {
		a := accessFor(tx, actor)
		t, err := visibleTournament(a, id)
		if err != nil {
			return err
		}
		if ok, err := a.canRefereeTournament(t); err != nil || !ok {
			return orDenied(err, Errorf(EForbidden, "the audit trail is for the tournament's referees and directors"))
		}
		recs, err := tx.TournamentEvents().After(id, after)
		if err != nil {
			return err
		}
		if len(recs) > limit {
			recs = recs[:limit]
		}
		out = make([]tourney.Event, len(recs))
		for i, r := range recs {
			out[i] = eventOf(r)
		}
		return nil
	})
	return out, err
}

// tourneyActor is who the actor is to the tournament: their player
// profiles, and whether they referee or direct it.
func tourneyActor(tx Tx, a *access, t Tournament) (tourney.Actor, error) {
	who := tourney.Actor{UserID: a.actor.UserID}
	var err error
	if who.Director, err = a.canManageTournament(t); err != nil {
		return who, err
	}
	if who.Referee, err = a.canRefereeTournament(t); err != nil {
		return who, err
	}
	who.Players, err = tx.Players().IDsOfUser(a.actor.UserID)
	return who, err
}

// drawSeed is a fresh seed for the draws a command may make (a random
// draw, an individual round); the draw itself is recorded in the event.
func (s *tournamentPlayService) drawSeed() (uint64, error) {
	var b [8]byte
	if _, err := io.ReadFull(s.random, b[:]); err != nil {
		return 0, fmt.Errorf("drawing a seed: %w", err)
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// readAt is the tournament's state as it was right after event seq, read
// from its log: a retry with an Idempotency-Key answers as the first
// request did (its sheet, entry or round then), not with the state now
// (issue 19). It replays the log from the start; retries are rare.
func readAt(tx Tx, t Tournament, seq int64) (TournamentRead, error) {
	st, err := newState(t)
	if err != nil {
		return TournamentRead{}, err
	}
	recs, err := tx.TournamentEvents().After(t.ID, 0)
	if err != nil {
		return TournamentRead{}, err
	}
	for _, r := range recs {
		if r.Seq > seq {
			break
		}
		if err := st.Apply(eventOf(r)); err != nil {
			return TournamentRead{}, fmt.Errorf("tournament %d: replaying its log: %w", t.ID, err)
		}
	}
	f := &forked{state: st}
	if err := f.name(tx); err != nil {
		return TournamentRead{}, err
	}
	return f.read(t)
}

// idempotent is the command as its Idempotency-Key knows it: the API's
// request hash (method, path and body) when given, else the command itself.
func (in TournamentCommand) idempotent(actor Actor, id int64) idempotentRequest {
	h := in.RequestHash
	if h == "" {
		b, _ := json.Marshal(in.Command)
		h = in.Command.CommandName() + "\n" + string(b)
	}
	return newIdempotentRequest(actor.UserID, in.IdempotencyKey, tournamentScope(id), fmt.Sprint(id), h)
}

func eventOf(r TournamentEventRecord) tourney.Event {
	return tourney.Event{Seq: r.Seq, At: r.At.UTC(), By: r.By, Kind: r.Kind, Data: r.Data, Reason: r.Reason}
}

// fromTourney maps a refusal of the tourney package to the domain's error:
// its kind picks the status, its code passes through, and an invalid
// command's problems become the fields.
// callerRefused reports whether err refuses the caller (forbidden), not
// the command's input or the tournament's state.
func callerRefused(err error) bool {
	var te *tourney.Error
	return errors.As(err, &te) && te.Kind == tourney.KindForbidden
}

func fromTourney(err error) error {
	var te *tourney.Error
	if !errors.As(err, &te) {
		return err
	}
	kind, ok := tourneyKinds[te.Kind]
	if !ok {
		kind = KindInternal
	}
	e := &Error{Kind: kind, Code: Code(te.Code), Message: te.Message, Err: err}
	for _, p := range te.Problems {
		e.Fields = append(e.Fields, FieldError{Field: p.Field, Code: p.Code, Message: p.Message})
	}
	return e
}

// addedPlayers is the players of the entry an event added (none for other
// events): the tournament_players index the log's mirror keeps.
func addedPlayers(e tourney.Event) []int64 {
	if e.Kind != tourney.EventEntryAdded {
		return nil
	}
	p, err := tourney.DecodeEvent(e)
	if err != nil {
		return nil // the event was just decided and applied: it reads
	}
	return p.(*tourney.EntryAdded).Entry.Players
}
