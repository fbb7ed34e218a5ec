package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

var users atomic.Int64

// newTournament stores a user and a club with a draft tournament, and
// returns the user's and the tournament's ids.
func newTournament(t *testing.T, db *store.DB, now time.Time) (userID, tournamentID int64) {
	t.Helper()
	err := db.InTx(t.Context(), func(tx domain.Tx) error {
		u := domain.User{Email: fmt.Sprintf("u%d@example.com", users.Add(1)), Name: "U", CreatedAt: now, UpdatedAt: now}
		if err := tx.Users().Create(&u, "hash"); err != nil {
			return err
		}
		c := domain.Club{Name: "C", CreatedAt: now, UpdatedAt: now}
		if err := tx.Clubs().Create(&c); err != nil {
			return err
		}
		tm := domain.Tournament{ClubID: c.ID, Name: "T", Rules: "fibur", Options: []byte("{}"), PlayersPerTable: 4,
			Kind: domain.PairsTournament, DealsPerRound: 3, StartsAt: now, Status: domain.TournamentDraft, LotsSeed: 1<<64 - 1,
			CreatedAt: now, UpdatedAt: now}
		if err := tx.Tournaments().Create(&tm); err != nil {
			return err
		}
		userID, tournamentID = u.ID, tm.ID
		return nil
	})
	wantCode(t, err, "")
	return userID, tournamentID
}

func event(seq int64, at time.Time, by int64, kind, data string) domain.TournamentEventRecord {
	return domain.TournamentEventRecord{Seq: seq, At: at, By: by, Kind: kind, Data: json.RawMessage(data), Reason: "r" + kind}
}

func appendEvents(t *testing.T, db *store.DB, id, expect int64, m domain.TournamentMirror, events ...domain.TournamentEventRecord) error {
	t.Helper()
	return db.InTx(t.Context(), func(tx domain.Tx) error { return tx.TournamentEvents().Append(id, expect, events, m) })
}

func readEvents(t *testing.T, db *store.DB, id, after int64) []domain.TournamentEventRecord {
	t.Helper()
	var got []domain.TournamentEventRecord
	err := db.View(t.Context(), func(tx domain.Tx) (err error) { got, err = tx.TournamentEvents().After(id, after); return err })
	wantCode(t, err, "")
	return got
}

func getTournament(t *testing.T, db *store.DB, id int64) domain.Tournament {
	t.Helper()
	var tm domain.Tournament
	err := db.View(t.Context(), func(tx domain.Tx) (err error) { tm, err = tx.Tournaments().Get(id); return err })
	wantCode(t, err, "")
	return tm
}

// jsonEqual compares event data as JSON values: PostgreSQL's JSONB keeps
// the value, not the bytes.
var jsonEqual = cmp.Comparer(func(a, b json.RawMessage) bool {
	var va, vb any
	return json.Unmarshal(a, &va) == nil && json.Unmarshal(b, &vb) == nil && cmp.Equal(va, vb)
})

// TestTournamentEventsAppendAndRead appends to a tournament's log in two
// goes and reads it back whole and from a seq on, with the version and the
// mirrored status, reason and opening time moving with it.
func TestTournamentEventsAppendAndRead(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Date(2026, 3, 1, 12, 0, 0, 123456000, time.UTC)
		user, id := newTournament(t, db, now)
		if got := readEvents(t, db, id, 0); got == nil || len(got) != 0 {
			t.Fatalf("a new log: %#v, want empty", got)
		}
		first := []domain.TournamentEventRecord{
			event(1, now.Add(time.Minute), user, "registration_opened", `{}`),
			event(2, now.Add(2*time.Minute), 0, "entry_added", `{"entry": {"id": 7, "players": [1, 2]}, "seed": 18446744073709551615}`),
		}
		wantCode(t, appendEvents(t, db, id, 0, domain.TournamentMirror{Status: domain.TournamentRegistrationOpen}, first...), "")
		tm := getTournament(t, db, id)
		opened := now.Add(2 * time.Minute)
		if tm.Version != 2 || tm.Status != domain.TournamentRegistrationOpen || tm.OpenedAt == nil || !tm.OpenedAt.Equal(opened) ||
			!tm.UpdatedAt.Equal(opened) || tm.LotsSeed != 1<<64-1 {
			t.Errorf("after two events: version %d, status %s, opened %v, updated %v, seed %d", tm.Version, tm.Status, tm.OpenedAt, tm.UpdatedAt, tm.LotsSeed)
		}

		second := []domain.TournamentEventRecord{event(3, now.Add(time.Hour), user, "cancelled", `{"why":"rain"}`)}
		wantCode(t, appendEvents(t, db, id, 2, domain.TournamentMirror{Status: domain.TournamentCancelled, CancelReason: "rain"}, second...), "")
		tm = getTournament(t, db, id)
		if tm.Version != 3 || tm.Status != domain.TournamentCancelled || tm.CancelReason != "rain" || !tm.OpenedAt.Equal(opened) {
			t.Errorf("after cancelling: version %d, status %s, reason %q, opened %v (want kept)", tm.Version, tm.Status, tm.CancelReason, tm.OpenedAt)
		}
		if diff := cmp.Diff(append(first, second...), readEvents(t, db, id, 0), jsonEqual); diff != "" {
			t.Errorf("the log (-appended +read):\n%s", diff)
		}
		if diff := cmp.Diff(second, readEvents(t, db, id, 2), jsonEqual); diff != "" {
			t.Errorf("after seq 2 (-appended +read):\n%s", diff)
		}
		var v int64
		err := db.View(t.Context(), func(tx domain.Tx) (err error) { v, err = tx.TournamentEvents().Version(id); return err })
		wantCode(t, err, "")
		if v != 3 {
			t.Errorf("version %d, want 3", v)
		}
	})
}

// TestTournamentEventsRefusals: a stale version, a gap in the seqs, no
// events, and an unknown tournament.
func TestTournamentEventsRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		_, id := newTournament(t, db, now)
		none := domain.TournamentMirror{}
		wantCode(t, appendEvents(t, db, id, 0, none, event(1, now, 0, "a", `{}`)), "")
		t.Run("EVersionConflictStale", func(t *testing.T) {
			wantCode(t, appendEvents(t, db, id, 0, none, event(1, now, 0, "b", `{}`)), domain.EVersionConflict)
		})
		t.Run("EVersionConflictAhead", func(t *testing.T) {
			wantCode(t, appendEvents(t, db, id, 5, none, event(6, now, 0, "b", `{}`)), domain.EVersionConflict)
		})
		t.Run("EVersionConflictNamesCurrentVersion", func(t *testing.T) {
			var de *domain.Error
			if !errors.As(appendEvents(t, db, id, 0, none, event(1, now, 0, "b", `{}`)), &de) || de.Current == nil || *de.Current != 1 {
				t.Errorf("a stale append: %+v, want the current version 1", de)
			}
		})
		t.Run("ENotFoundTournament", func(t *testing.T) {
			wantCode(t, appendEvents(t, db, 424242, 0, none, event(1, now, 0, "b", `{}`)), domain.ENotFound)
			err := db.View(t.Context(), func(tx domain.Tx) error { _, err := tx.TournamentEvents().Version(424242); return err })
			wantCode(t, err, domain.ENotFound)
		})
		t.Run("InternalSeqGap", func(t *testing.T) {
			err := appendEvents(t, db, id, 1, none, event(2, now, 0, "b", `{}`), event(4, now, 0, "c", `{}`))
			if err == nil || domain.ErrorCode(err) != domain.EInternal {
				t.Errorf("a gap in the seqs: %v, want an internal error", err)
			}
		})
		t.Run("InternalNoEvents", func(t *testing.T) {
			if err := appendEvents(t, db, id, 1, none); domain.ErrorCode(err) != domain.EInternal {
				t.Errorf("no events: %v, want an internal error", err)
			}
		})
		// The primary key refuses a seq taken even when the version column
		// does not show it (here put back by hand): the second guard.
		t.Run("EVersionConflictSeqTaken", func(t *testing.T) {
			_, err := db.SQL().ExecContext(t.Context(), `UPDATE tournaments SET version = 0 WHERE id = $1`, id)
			wantCode(t, err, "")
			wantCode(t, appendEvents(t, db, id, 0, none, event(1, now, 0, "b", `{}`)), domain.EVersionConflict)
			if tm := getTournament(t, db, id); tm.Version != 0 {
				t.Errorf("the refused append left version %d, want its rollback to 0", tm.Version)
			}
		})
		if got := readEvents(t, db, id, 0); len(got) != 1 || got[0].Kind != "a" {
			t.Errorf("after the refusals the log is %+v, want the first event only", got)
		}
	})
}

// TestTournamentEventsConcurrentAppendOneWins has several writers read the
// same version and then append at the same seq at once: exactly one wins,
// the others get EVersionConflict, and the log holds the winner's event
// only. The writers read the version before their write transaction (as a
// service that decides on a cached state does) on both databases; on
// PostgreSQL also inside it, holding their transactions open together
// (SQLite runs write transactions one at a time, so there a writer that
// reads inside its transaction always sees the last one's version).
func TestTournamentEventsConcurrentAppendOneWins(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		t.Run("ReadBefore", func(t *testing.T) { concurrentAppends(t, db, false) })
		if db.Dialect() == store.Postgres {
			t.Run("ReadInside", func(t *testing.T) { concurrentAppends(t, db, true) })
		}
	})
}

func concurrentAppends(t *testing.T, db *store.DB, readInside bool) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	_, id := newTournament(t, db, now)
	const writers = 4
	var read, start, wg sync.WaitGroup
	read.Add(writers)
	start.Add(1)
	errs := make([]error, writers)
	version := func(tx domain.Tx) (int64, error) {
		v, err := tx.TournamentEvents().Version(id)
		read.Done()
		start.Wait() // every writer has read before any appends
		return v, err
	}
	for i := range writers {
		wg.Go(func() {
			var v int64
			var err error
			if !readInside {
				err = db.View(t.Context(), func(tx domain.Tx) (err error) { v, err = version(tx); return err })
			}
			if err != nil {
				errs[i] = err
				return
			}
			errs[i] = db.InTx(t.Context(), func(tx domain.Tx) error {
				if readInside {
					if v, err = version(tx); err != nil {
						return err
					}
				}
				return tx.TournamentEvents().Append(id, v, []domain.TournamentEventRecord{event(v+1, now, 0, fmt.Sprint("w", i), `{}`)},
					domain.TournamentMirror{})
			})
		})
	}
	read.Wait()
	start.Done()
	wg.Wait()
	won, winner := 0, ""
	for i, err := range errs {
		switch {
		case err == nil:
			won++
			winner = fmt.Sprint("w", i)
		case domain.ErrorCode(err) != domain.EVersionConflict:
			t.Errorf("writer %d: %v, want success or version_conflict", i, err)
		}
	}
	got := readEvents(t, db, id, 0)
	if won != 1 || len(got) != 1 || got[0].Kind != winner {
		t.Errorf("%d writers won (errors %v), log %+v; want exactly one, its event alone", won, errs, got)
	}
	if tm := getTournament(t, db, id); tm.Version != 1 {
		t.Errorf("version %d, want 1", tm.Version)
	}
}
