package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// TestAnEncodedStateHasRoomForItsNewline: the body a state is kept as in
// the state cache (encodeState, then the newline respond writes) is the
// state's whole encoding, in a buffer of exactly its size: appending the
// newline copied every kept body into one a quarter larger (issue 30's
// memory per table).
func TestAnEncodedStateHasRoomForItsNewline(t *testing.T) {
	h := tableHandlers{s: &server{stampedItems: newStampedBodies(maxStampedItems)}}
	at := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	uid1, uid2 := int64(1), int64(2)
	for _, c := range []struct {
		name string
		st   domain.TableState
	}{
		{"AnOpenTable", domain.TableState{Seat: -1, Table: domain.Table{ID: 9, CreatorID: 1, Rules: "fibur", Players: 2, Status: domain.TableOpen,
			FreeSeats: 1, Version: 2, CreatedAt: at, UpdatedAt: at, Seats: []domain.Seat{{Seat: 0, UserID: &uid1, UserName: "Anna"}}}}},
		{"APlayingTableWithDeals", domain.TableState{Seat: 1, Totals: []int{120, -40}, Deals: []domain.DealScore{{Number: 1, StartedAt: at}},
			Table: domain.Table{ID: 8, CreatorID: 2, Rules: "fibur", Players: 2, Status: domain.TablePlaying, Version: 40, DealNumber: 2,
				CreatedAt: at, UpdatedAt: at, Seats: []domain.Seat{{Seat: 0, UserID: &uid1, UserName: "Anna"}, {Seat: 1, UserID: &uid2, UserName: "Bruno"}}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, err := h.encodeState(c.st)
			if err != nil {
				t.Fatal(err)
			}
			whole, _ := json.Marshal(tableStateOut(c.st))
			if string(body) != string(whole) {
				t.Fatalf("encodeState\n%s\nwant\n%s", body, whole)
			}
			kept := append(body, '\n') // as stateBody and the move's answer keep it
			if &kept[0] != &body[0] || cap(kept) != len(kept) {
				t.Errorf("the newline reallocated the body: len %d cap %d", len(kept), cap(kept))
			}
		})
	}
}

// sharedStates is a TableService whose State answers one table at a fixed
// version, counting the reads and failing on a done context as the store
// does; Presence says nobody is present. Its other methods are not called.
type sharedStates struct {
	domain.TableService
	reads atomic.Int64
	st    domain.TableState
}

func (f *sharedStates) State(ctx context.Context, _ domain.Actor, _ int64, _ string) (domain.TableState, error) {
	f.reads.Add(1)
	if err := ctx.Err(); err != nil {
		return domain.TableState{}, err
	}
	return f.st, nil
}

func (f *sharedStates) Presence(int64) ([]domain.SeatPresence, bool) { return nil, false }

// TestAWaiterOfASharedStateReadsItOnlyOnceDone drives the state cache's
// shared read into the moment the owner has written its result but not
// yet closed done, and sends a second caller of the same state then. A
// caller whose request is still live waits and answers the owner's body
// (one read for both). A caller whose request has already ended reads
// nothing of the shared call: it reads afresh, which fails on its done
// context (efba0f4; before it, the ended waiter read call.ok and call.body
// unsynchronised with the owner, and here answered the owner's body).
func TestAWaiterOfASharedStateReadsItOnlyOnceDone(t *testing.T) {
	at := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name      string
		ended     bool
		wantCode  int
		wantErr   error
		wantReads int64
	}{
		{"ALiveWaiterAnswersTheOwnersRead", false, http.StatusOK, nil, 1},
		{"AnEndedWaiterReadsAfreshAndFails", true, 0, context.Canceled, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			fake := &sharedStates{st: domain.TableState{Seat: -1, Table: domain.Table{ID: 9, CreatorID: 1, Rules: "fibur", Players: 2,
				Status: domain.TableOpen, FreeSeats: 2, Version: 3, CreatedAt: at, UpdatedAt: at}}}
			s := &server{cfg: Config{RequestTimeout: time.Minute}, svc: domain.Services{Tables: fake},
				states: newStateCache(), stampedItems: newStampedBodies(maxStampedItems)}
			h := tableHandlers{s: s}
			written, release := make(chan struct{}), make(chan struct{})
			s.states.ownerWrote = func() { close(written); <-release }

			owner := httptest.NewRecorder()
			ownerErr := make(chan error, 1)
			go func() {
				ownerErr <- h.answerState(owner, httptest.NewRequest(http.MethodGet, "/api/v1/tables/9/state", nil), 9, "", 3, -1, false)
			}()
			<-written // the owner holds its result and has not closed done

			ctx, cancel := context.WithCancel(context.Background())
			if c.ended {
				cancel()
			}
			defer cancel()
			waiter := httptest.NewRecorder()
			waiterErr := make(chan error, 1)
			go func() {
				req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/api/v1/tables/9/state", nil)
				waiterErr <- h.answerState(waiter, req, 9, "", 3, -1, false)
			}()
			if c.ended {
				// An ended waiter does not wait for the owner: it answers
				// while the owner is still held.
				if err := <-waiterErr; !errors.Is(err, c.wantErr) {
					t.Errorf("the ended waiter: error %v, want %v (answered %d %q)", err, c.wantErr, waiter.Code, waiter.Body)
				}
				close(release)
			} else {
				close(release)
				if err := <-waiterErr; err != nil {
					t.Errorf("the live waiter: %v", err)
				}
			}
			if err := <-ownerErr; err != nil || owner.Code != http.StatusOK {
				t.Fatalf("the owner: %v, %d", err, owner.Code)
			}
			if c.wantCode == http.StatusOK && (waiter.Code != http.StatusOK || waiter.Body.String() != owner.Body.String()) {
				t.Errorf("the live waiter answered %d %q, want the owner's %q", waiter.Code, waiter.Body, owner.Body)
			}
			if got := fake.reads.Load(); got != c.wantReads {
				t.Errorf("%d state reads, want %d", got, c.wantReads)
			}
		})
	}
}

// TestABodyOfANewerVersionIsAnsweredWithItsOwnETag: a caller asking a
// version the cache has moved past, and answered the newer version's
// body, is told that version in the ETag (its next If-None-Match or
// If-Match then names what it was shown).
func TestABodyOfANewerVersionIsAnsweredWithItsOwnETag(t *testing.T) {
	at := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	fake := &sharedStates{st: domain.TableState{Seat: -1, Table: domain.Table{ID: 9, CreatorID: 1, Rules: "fibur", Players: 2,
		Status: domain.TableOpen, FreeSeats: 2, Version: 5, CreatedAt: at, UpdatedAt: at}}}
	s := &server{cfg: Config{RequestTimeout: time.Minute}, svc: domain.Services{Tables: fake},
		states: newStateCache(), stampedItems: newStampedBodies(maxStampedItems)}
	h := tableHandlers{s: s}
	s.states.offer(9, 5, -1, []byte(`{"version":5}`+"\n"))

	w := httptest.NewRecorder()
	if err := h.answerState(w, httptest.NewRequest(http.MethodGet, "/api/v1/tables/9/state", nil), 9, "", 3, -1, false); err != nil {
		t.Fatal(err)
	}
	if w.Code != http.StatusOK || w.Body.String() != `{"version":5}`+"\n" {
		t.Fatalf("answered %d %q, want the body held for version 5", w.Code, w.Body)
	}
	if got, want := w.Header().Get("ETag"), tableETag(9, 5, -1); got != want {
		t.Errorf("ETag %s with version 5's body, want %s", got, want)
	}
}

// BenchmarkEncodeState encodes a four-seat table's state at a deal's
// start, as each seat's poll does once per version:
//
//	go test ./api -run '^$' -bench EncodeState -benchmem
func BenchmarkEncodeState(b *testing.B) {
	h := tableHandlers{s: &server{stampedItems: newStampedBodies(maxStampedItems)}}
	rules, err := engine.NewRules("fibur", 4)
	if err != nil {
		b.Fatal(err)
	}
	g, err := engine.Deal(rules, 0, 42, nil)
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	var seats []domain.Seat
	for i := range 4 {
		uid := int64(i + 1)
		seats = append(seats, domain.Seat{Seat: i, UserID: &uid, UserName: "player " + string(rune('A'+i)), JoinedAt: &at})
	}
	view := g.View(1)
	st := domain.TableState{Seat: 1, View: &view, Totals: []int{0, 0}, Deal: &domain.DealScore{Number: 1, StartedAt: at},
		Table: domain.Table{ID: 8, CreatorID: 1, Rules: "fibur", Players: 4, Status: domain.TablePlaying, Version: 40, DealNumber: 1,
			CreatedAt: at, UpdatedAt: at, Seats: seats}}
	b.ReportAllocs()
	for range b.N {
		if _, err := h.encodeState(st); err != nil {
			b.Fatal(err)
		}
	}
}
