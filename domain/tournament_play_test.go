package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// playField is a running set-up: club A's roles (newClubRoles), a
// referee assigned, and four pairs of players with linked profiles.
type playField struct {
	clubRoles
	t       domain.Tournament
	players []domain.Actor // players[2k], players[2k+1] are entry k+1
}

func newPlayField(f *fixture, rounds int) playField {
	f.t.Helper()
	ctx := f.t.Context()
	pf := playField{clubRoles: newClubRoles(f)}
	in := tournamentInput("Coppa")
	in.Setup.Movement = new(domain.MovementModifiedDanish)
	in.Setup.Rounds = new(rounds)
	t, err := f.svc.Tournaments.Create(ctx, pf.owner, pf.a.ID, in)
	if err != nil {
		f.t.Fatal(err)
	}
	pf.t = t
	if _, err := f.svc.Tournaments.AssignReferee(ctx, pf.owner, t.ID, pf.referee.UserID); err != nil {
		f.t.Fatal(err)
	}
	for i := range 8 {
		u := f.user("p" + string(rune('a'+i)) + "@a.it")
		if _, err := f.svc.Players.Create(ctx, u, domain.PlayerInput{Name: "Player " + string(rune('A'+i)), UserID: &u.UserID}); err != nil {
			f.t.Fatal(err)
		}
		pf.players = append(pf.players, u)
	}
	return pf
}

func act(f *fixture, svc domain.TournamentPlayService, by domain.Actor, id int64, cmd tourney.Command) domain.TournamentActed {
	f.t.Helper()
	out, err := svc.Act(f.t.Context(), by, id, domain.TournamentCommand{Command: cmd})
	if err != nil {
		f.t.Fatalf("%s: %v", cmd.CommandName(), err)
	}
	return out
}

// playerID is the player profile of a user.
func playerID(f *fixture, u domain.Actor) int64 {
	f.t.Helper()
	p, err := f.svc.Players.List(f.t.Context(), domain.PlayerFilter{Limit: 100})
	if err != nil {
		f.t.Fatal(err)
	}
	for _, x := range p.Items {
		if x.UserID != nil && *x.UserID == u.UserID {
			return x.ID
		}
	}
	f.t.Fatalf("user %d has no player", u.UserID)
	return 0
}

func TestTournamentPlayIsSharedByTwoProcessesOnOneDatabase(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 2)
		// A second set of services over the same database is a second
		// server process: its state cache must catch up from the log.
		other := domain.NewServices(f.db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams}).Play
		one := f.svc.Play
		id := pf.t.ID

		act(f, one, pf.owner, id, tourney.OpenRegistration{})
		for k := range 4 { // players register themselves, alternating processes
			svc := []domain.TournamentPlayService{one, other}[k%2]
			a, b := pf.players[2*k], pf.players[2*k+1]
			act(f, svc, a, id, tourney.AddEntry{Players: []int64{playerID(f, a), playerID(f, b)}})
		}
		act(f, other, pf.owner, id, tourney.CloseRegistration{})
		act(f, one, pf.referee, id, tourney.Start{})
		drawn := act(f, other, pf.referee, id, tourney.DrawRound{Round: 1})

		read, err := one.Read(t.Context(), domain.Actor{}, id) // anonymous: the public
		if err != nil {
			t.Fatal(err)
		}
		if read.Tournament.Version != drawn.Event.Seq || read.Snapshot.Seq != drawn.Event.Seq {
			t.Fatalf("process one reads version %d/%d, the other appended %d", read.Tournament.Version, read.Snapshot.Seq, drawn.Event.Seq)
		}
		if read.Tournament.Status != domain.TournamentRunning || len(read.Snapshot.Entries) != 4 || len(read.Snapshot.Rounds[0].Tables) != 2 {
			t.Fatalf("read: status %s, %d entries, round 1 %+v", read.Tournament.Status, len(read.Snapshot.Entries), read.Snapshot.Rounds)
		}
		if read.Staff {
			t.Error("the public is not staff")
		}
		if got := read.Players[playerID(f, pf.players[0])]; got != "Player A" {
			t.Errorf("player name = %q", got)
		}
		// The mirrored status is what lists filter on.
		tt, err := f.svc.Tournaments.Get(t.Context(), domain.Actor{}, id)
		if err != nil || tt.Status != domain.TournamentRunning || tt.Version != drawn.Event.Seq {
			t.Fatalf("tournament row: %+v, %v", tt, err)
		}
	})
}

func TestTournamentPlayStaleCommandsAndSecrets(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 1)
		ctx, svc, id := t.Context(), f.svc.Play, pf.t.ID

		// A draft does not exist for a player, and an anonymous actor cannot act.
		_, err := svc.Act(ctx, pf.players[0], id, domain.TournamentCommand{Command: tourney.AddEntry{Players: []int64{1, 2}}})
		wantCode(t, err, domain.ENotFound)
		_, err = svc.Read(ctx, domain.Actor{}, id)
		wantCode(t, err, domain.ENotFound)
		_, err = svc.Act(ctx, domain.Actor{}, id, domain.TournamentCommand{Command: tourney.OpenRegistration{}})
		wantCode(t, err, domain.EUnauthenticated)

		// A member of the club is not its director: the package's forbidden code passes through.
		_, err = svc.Act(ctx, pf.member, id, domain.TournamentCommand{Command: tourney.OpenRegistration{}})
		if domain.ErrorKind(err) != domain.KindNotFound && domain.ErrorKind(err) != domain.KindForbidden {
			t.Fatalf("member opening registration: %v", err)
		}
		act(f, svc, pf.owner, id, tourney.OpenRegistration{})
		_, err = svc.Act(ctx, pf.member, id, domain.TournamentCommand{Command: tourney.CloseRegistration{}})
		if domain.ErrorKind(err) != domain.KindForbidden {
			t.Fatalf("member closing registration: %v, want forbidden", err)
		}

		// Bad input lists its fields; a conflict keeps its code.
		_, err = svc.Act(ctx, pf.owner, id, domain.TournamentCommand{Command: tourney.AddEntry{Players: []int64{playerID(f, pf.players[0])}}})
		if domain.ErrorKind(err) != domain.KindInvalid || len(err.(*domain.Error).Fields) == 0 {
			t.Fatalf("an entry of one player at 4-player tables: %v", err)
		}
		_, err = svc.Act(ctx, pf.owner, id, domain.TournamentCommand{Command: tourney.OpenRegistration{}})
		if domain.ErrorKind(err) != domain.KindConflict {
			t.Fatalf("opening registration twice: %v, want a conflict", err)
		}

		// The audit trail is for the staff.
		_, err = svc.Audit(ctx, pf.member, id, 0, 100)
		wantCode(t, err, domain.EForbidden)
		events, err := svc.Audit(ctx, pf.referee, id, 0, 100)
		if err != nil || len(events) != 1 || events[0].Kind != tourney.EventRegistrationOpened || events[0].By != pf.owner.UserID {
			t.Fatalf("audit: %+v, %v", events, err)
		}
		_, err = svc.Audit(ctx, pf.referee, id, 0, 0)
		wantCode(t, err, domain.EInvalid)
	})
}

func TestTournamentPlayIdempotencyKeyAnswersTheFirstEvent(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 1)
		ctx, svc, id := t.Context(), f.svc.Play, pf.t.ID
		if opened := act(f, svc, pf.owner, id, tourney.OpenRegistration{}); !opened.Staff {
			t.Fatal("the director's answer is not marked staff: staff-only fields would be hidden from them")
		}
		a, b := pf.players[0], pf.players[1]
		cmd := domain.TournamentCommand{Command: tourney.AddEntry{Players: []int64{playerID(f, a), playerID(f, b)}},
			IdempotencyKey: "k-1", RequestHash: "POST /entries {...}"}
		first, err := svc.Act(ctx, a, id, cmd)
		if err != nil || first.Replayed || first.Staff {
			t.Fatalf("first: %+v, %v", first, err)
		}
		again, err := svc.Act(ctx, a, id, cmd)
		if err != nil || !again.Replayed || again.Event.Seq != first.Event.Seq || again.Staff {
			t.Fatalf("retry: replayed %v seq %d (first %d), %v", again.Replayed, again.Event.Seq, first.Event.Seq, err)
		}
		if n := len(again.Snapshot.Entries); n != 1 {
			t.Fatalf("%d entries after a retry, want 1", n)
		}
		cmd.RequestHash = "POST /entries {other}"
		_, err = svc.Act(ctx, a, id, cmd)
		wantCode(t, err, domain.EIdempotencyKeyReused)
		// Another user may use the same key.
		c, d := pf.players[2], pf.players[3]
		_, err = svc.Act(ctx, c, id, domain.TournamentCommand{Command: tourney.AddEntry{Players: []int64{playerID(f, c), playerID(f, d)}},
			IdempotencyKey: "k-1", RequestHash: "x"})
		wantCode(t, err, "")
	})
}

func TestTournamentPlayRebuildsTheStateWhenTheSetupChanges(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 3)
		ctx, svc, id := t.Context(), f.svc.Play, pf.t.ID
		act(f, svc, pf.owner, id, tourney.OpenRegistration{})
		before, err := svc.Read(ctx, pf.owner, id)
		if err != nil || before.Snapshot.PlannedRounds != 3 {
			t.Fatalf("before: %+v, %v", before.Snapshot, err)
		}
		if _, err := f.svc.Tournaments.Update(ctx, pf.owner, id, domain.TournamentPatch{Setup: domain.SetupInput{Rounds: new(5)}}); err != nil {
			t.Fatal(err)
		}
		after, err := svc.Read(ctx, pf.owner, id)
		if err != nil || after.Snapshot.PlannedRounds != 5 || after.Snapshot.Status != tourney.StatusRegistrationOpen {
			t.Fatalf("after the set-up changed: planned %d status %s, %v", after.Snapshot.PlannedRounds, after.Snapshot.Status, err)
		}
	})
}

// givingUpContext is a request that gives up once armed: the store then
// rolls its transaction back instead of committing (InTx checks ctx.Err()
// before the commit). Done stays nil so that the queries themselves run.
type givingUpContext struct {
	context.Context
	armed *atomic.Bool
}

func (c givingUpContext) Done() <-chan struct{} { return nil }
func (c givingUpContext) Err() error {
	if c.armed.Load() {
		return context.Canceled
	}
	return nil
}

func TestTournamentPlayShowsNoEventOfARolledBackCommand(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 1)
		var armed atomic.Bool
		// Deciding a command reads the clock: from then on the request has
		// given up, so the event is decided and applied but never committed.
		svc := domain.NewServices(f.db, domain.Config{PasswordParams: domain.TestPasswordParams,
			Now: func() time.Time { armed.Store(true); return f.clock.Now() }}).Play
		ctx := givingUpContext{Context: context.Background(), armed: &armed}
		_, err := svc.Act(ctx, pf.owner, pf.t.ID, domain.TournamentCommand{Command: tourney.OpenRegistration{}})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("act: %v, want the request's cancellation", err)
		}
		armed.Store(false)
		read, err := svc.Read(t.Context(), pf.owner, pf.t.ID)
		if err != nil || read.Snapshot.Seq != 0 || read.Snapshot.Status != tourney.StatusDraft || read.Tournament.Version != 0 {
			t.Fatalf("after a rollback: seq %d status %s version %d, %v; want nothing applied", read.Snapshot.Seq, read.Snapshot.Status, read.Tournament.Version, err)
		}
		// And the command can be given again.
		if _, err := svc.Act(t.Context(), pf.owner, pf.t.ID, domain.TournamentCommand{Command: tourney.OpenRegistration{}}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestTournamentPlayConcurrentEntriesAtTwoTablesBothLand(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 1)
		svc, id := f.svc.Play, pf.t.ID
		started := startFourPairRound(f, pf)
		// Two processes, so that the commands race in the database too.
		other := domain.NewServices(f.db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams}).Play
		deal := tourney.DealInput{Number: 1, NS: tourney.Parts{Cards: 300, Burraco: 200, Closing: 100, Total: 600},
			EW: tourney.Parts{Cards: 150, Hand: 50, Total: 100}}
		errs := make(chan error, 2)
		for i, tv := range started.Snapshot.Rounds[0].Tables {
			go func() {
				_, err := []domain.TournamentPlayService{svc, other}[i].Act(t.Context(), pf.referee, id, domain.TournamentCommand{
					Command: tourney.EnterScore{Round: 1, Table: tv.Number, Version: tv.Sheet.Version, Deals: []tourney.DealInput{deal}}})
				errs <- err
			}()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatalf("an entry at one table refused by the other's: %v", err)
			}
		}
		read, err := svc.Read(t.Context(), pf.owner, id)
		if err != nil || read.Snapshot.Seq != started.Event.Seq+2 {
			t.Fatalf("seq %d, want %d; %v", read.Snapshot.Seq, started.Event.Seq+2, err)
		}
		for _, tv := range read.Snapshot.Rounds[0].Tables {
			if len(tv.Sheet.Deals) != 1 || tv.Result.MPNS != 600 {
				t.Fatalf("table %d: %+v", tv.Number, tv.Sheet)
			}
		}
	})
}

func TestTournamentPlayStampMovesWithTheLogAndHidesDrafts(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 1)
		ctx, svc, id := t.Context(), f.svc.Play, pf.t.ID
		_, err := svc.Stamp(ctx, domain.Actor{}, id)
		wantCode(t, err, domain.ENotFound) // a draft, for the public
		_, err = svc.Stamp(ctx, pf.member, id)
		wantCode(t, err, domain.ENotFound)
		draft, err := svc.Stamp(ctx, pf.admin, id)
		if err != nil || draft.Version != 0 || draft.Public {
			t.Fatalf("the draft for its admin: %+v, %v", draft, err)
		}
		opened := act(f, svc, pf.owner, id, tourney.OpenRegistration{})
		st, err := svc.Stamp(ctx, domain.Actor{}, id)
		if err != nil || st.Version != opened.Event.Seq || !st.Public || !st.UpdatedAt.Equal(opened.Tournament.UpdatedAt) {
			t.Fatalf("stamp %+v, %v; want version %d updated %v", st, err, opened.Event.Seq, opened.Tournament.UpdatedAt)
		}
		_, err = svc.Stamp(ctx, domain.Actor{}, id+1000)
		wantCode(t, err, domain.ENotFound)
	})
}

// TestTournamentPlayForkIgnoresARolledBackCommandsState: a command whose
// transaction rolled back after it had kept its state for the commands
// queued behind it (tentative); another process then appends a different
// event under the same number. The next command folds the log, not the
// rolled-back state.
func TestTournamentPlayForkIgnoresARolledBackCommandsState(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 1)
		id := pf.t.ID
		var armed atomic.Bool
		svc := domain.NewServices(f.db, domain.Config{PasswordParams: domain.TestPasswordParams,
			Now: func() time.Time { armed.Store(true); return f.clock.Now() }}).Play
		other := domain.NewServices(f.db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams}).Play
		entry := func(k int) tourney.Command {
			return tourney.AddEntry{Players: []int64{playerID(f, pf.players[2*k]), playerID(f, pf.players[2*k+1])}}
		}
		armed.Store(false)
		act(f, svc, pf.owner, id, tourney.OpenRegistration{})
		armed.Store(false)
		ctx := givingUpContext{Context: context.Background(), armed: &armed}
		if _, err := svc.Act(ctx, pf.owner, id, domain.TournamentCommand{Command: entry(0)}); !errors.Is(err, context.Canceled) {
			t.Fatalf("act: %v, want the request's cancellation", err)
		}
		act(f, other, pf.owner, id, entry(1))
		armed.Store(false)
		act(f, svc, pf.owner, id, entry(2))

		read, err := svc.Read(t.Context(), domain.Actor{}, id)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, e := range read.Snapshot.Entries {
			got = append(got, e.Players...)
		}
		want := append(entry(1).(tourney.AddEntry).Players, entry(2).(tourney.AddEntry).Players...)
		if !slices.Equal(got, want) {
			t.Fatalf("entries' players %v, want %v (the rolled-back entry's are %v)", got, want, entry(0).(tourney.AddEntry).Players)
		}
	})
}

// TestTournamentPlayQueuedCommandsFoldAsTheLog: score entries at both
// tables at once from one process (on SQLite they share transactions,
// each starting from the state the one before it kept) leave the state a
// fresh process folds from the log.
func TestTournamentPlayQueuedCommandsFoldAsTheLog(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 1)
		svc, id := f.svc.Play, pf.t.ID
		started := startFourPairRound(f, pf)
		errs := make(chan error, 2)
		for i, tv := range started.Snapshot.Rounds[0].Tables {
			go func() {
				v := tv.Sheet.Version
				for n := 1; n <= 3; n++ {
					deal := tourney.DealInput{Number: n, NS: tourney.Parts{Cards: 100 * (n + i), Total: 100 * (n + i)},
						EW: tourney.Parts{Cards: 50, Total: 50}}
					out, err := svc.Act(t.Context(), pf.referee, id, domain.TournamentCommand{
						Command: tourney.EnterScore{Round: 1, Table: tv.Number, Version: v, Deals: []tourney.DealInput{deal}}})
					if err != nil {
						errs <- err
						return
					}
					v = out.Event.Seq
				}
				errs <- nil
			}()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		kept, err := svc.Read(t.Context(), domain.Actor{}, id)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := domain.NewServices(f.db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams}).Play.
			Read(t.Context(), domain.Actor{}, id)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(kept.Snapshot)
		b, _ := json.Marshal(fresh.Snapshot)
		if kept.Snapshot.Seq != started.Event.Seq+6 || string(a) != string(b) {
			t.Fatalf("kept state at %d:\n%s\nthe log's at %d:\n%s", kept.Snapshot.Seq, a, fresh.Snapshot.Seq, b)
		}
	})
}

// startFourPairRound enters four pairs of pf's players, starts the
// tournament and its first round (two tables), and returns the round
// start's answer.
func startFourPairRound(f *fixture, pf playField) domain.TournamentActed {
	svc, id := f.svc.Play, pf.t.ID
	act(f, svc, pf.owner, id, tourney.OpenRegistration{})
	for k := range 4 {
		a, b := pf.players[2*k], pf.players[2*k+1]
		act(f, svc, pf.owner, id, tourney.AddEntry{Players: []int64{playerID(f, a), playerID(f, b)}})
	}
	act(f, svc, pf.owner, id, tourney.CloseRegistration{})
	act(f, svc, pf.referee, id, tourney.Start{})
	act(f, svc, pf.referee, id, tourney.DrawRound{Round: 1})
	return act(f, svc, pf.referee, id, tourney.StartRound{Round: 1})
}

// TestTournamentPlayInvalidInputComesAfterTheRightsAndBeforeTheState: a
// command whose input the HTTP layer found invalid (TournamentCommand.Invalid)
// is answered with that verdict once the caller may give the command, even
// where the state would refuse it (a conflict); a caller who may not give
// it is still refused as such; nothing is recorded.
func TestTournamentPlayInvalidInputComesAfterTheRightsAndBeforeTheState(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		pf := newPlayField(f, 1)
		ctx, svc, id := t.Context(), f.svc.Play, pf.t.ID
		act(f, svc, pf.owner, id, tourney.OpenRegistration{})
		invalid := &domain.Error{Code: domain.EInvalid, Message: "some fields are invalid",
			Fields: []domain.FieldError{{Field: "round", Code: "out_of_range", Message: "round must be at least 1"}}}
		// Opening registration twice is a conflict, but the input is wrong first.
		_, err := svc.Act(ctx, pf.owner, id, domain.TournamentCommand{Command: tourney.OpenRegistration{}, Invalid: invalid})
		if !errors.Is(err, invalid) {
			t.Fatalf("the owner, invalid input, a command the state refuses: %v, want the input's verdict", err)
		}
		// A command that would succeed is not given either.
		_, err = svc.Act(ctx, pf.owner, id, domain.TournamentCommand{Command: tourney.CloseRegistration{}, Invalid: invalid})
		if !errors.Is(err, invalid) {
			t.Fatalf("the owner, invalid input, a command the state allows: %v, want the input's verdict", err)
		}
		// A member may not close the registration, whatever the input.
		_, err = svc.Act(ctx, pf.member, id, domain.TournamentCommand{Command: tourney.CloseRegistration{}, Invalid: invalid})
		if domain.ErrorKind(err) != domain.KindForbidden {
			t.Fatalf("a member, invalid input: %v, want forbidden", err)
		}
		events, err := svc.Audit(ctx, pf.referee, id, 0, 100)
		if err != nil || len(events) != 1 {
			t.Fatalf("after the refusals: %d events (%v), want only the opening", len(events), err)
		}
	})
}
