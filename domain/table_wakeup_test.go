package domain_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// pausingStorage holds a read transaction's caller between the end of the
// read and its return, once armed: the hook between a read and its publish.
type pausingStorage struct {
	domain.Storage
	armed   atomic.Bool
	read    chan struct{} // receives when a held read has ended
	release chan struct{} // closed to let it return
}

func (p *pausingStorage) View(ctx context.Context, fn func(tx domain.Tx) error) error {
	return p.hold(p.Storage.View(ctx, fn))
}

// ViewOne is held as View is: a state read whose running deal is in memory
// reads the table with one query.
func (p *pausingStorage) ViewOne(ctx context.Context, fn func(tx domain.Tx) error) error {
	return p.hold(p.Storage.ViewOne(ctx, fn))
}

func (p *pausingStorage) hold(err error) error {
	if p.armed.CompareAndSwap(true, false) {
		p.read <- struct{}{}
		<-p.release
	}
	return err
}

// TestPublishedVersionNeverGoesBack: a state read that began before a
// change committed by another server process, and publishes what it read
// after that process's announcement arrived, must not make this process
// forget the newer version: a long poll since the older version answers the
// newer one at once instead of waiting on an entry nothing moves again
// (issue 19: 46-54 % of the tables froze with two processes on PostgreSQL).
func TestPublishedVersionNeverGoesBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		owner := f.user("owner@example.org")
		tb := f.botTable(owner)
		// here is the process under test; f.svc plays the other process.
		st := &pausingStorage{Storage: db, read: make(chan struct{}), release: make(chan struct{})}
		here := domain.NewServices(st, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
		before, err := here.Tables.State(ctx, owner, tb.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		st.armed.Store(true)
		stateRead := make(chan error, 1)
		go func() {
			_, err := here.Tables.State(ctx, owner, tb.ID, "")
			stateRead <- err
		}()
		select { // the read has seen the old version and not yet published it
		case <-st.read:
		case <-time.After(10 * time.Second):
			t.Fatal("the state read never reached the storage")
		}
		moved, err := f.svc.Tables.Move(ctx, owner, tb.ID, domain.MoveInput{Move: json.RawMessage(`{"move":"draw"}`), Version: before.Table.Version})
		if err != nil {
			t.Fatal(err)
		}
		domain.AnnounceTableChange(here.Tables, tb.ID, moved.Table.Version) // as the PostgreSQL feed does
		close(st.release)
		if err := <-stateRead; err != nil {
			t.Fatal(err)
		}
		poll, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		v, _, err := here.Tables.Watch(poll, owner, tb.ID, "", before.Table.Version)
		if err != nil || v != moved.Table.Version {
			t.Fatalf("a poll since version %d answered version %d (err %v); the move made it %d", before.Table.Version, v, err, moved.Table.Version)
		}
	})
}

// TestConcurrentStateReadsShareTheGame: the polls one move wakes read the
// state at once, each seat and spectators, while the next moves are
// played; every answer is the state stored at its version (run under
// -race: views share the cached game while moves take it).
func TestConcurrentStateReadsShareTheGame(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		owner := f.user("owner@example.org")
		tb := f.botTable(owner)
		st, err := f.svc.Tables.State(ctx, owner, tb.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]domain.TableState{} // the owner's state at each version, as the mover was answered
		seen[st.Table.Version] = st
		for i := 0; i < 12 && st.Table.Status == domain.TablePlaying; i++ {
			move := []byte(`{"move":"draw"}`)
			if st.View.Phase != "take" {
				card, _ := json.Marshal(st.View.Hand[0])
				move = []byte(`{"move":"discard","card":` + string(card) + `}`)
			}
			errs := make(chan error, 8)
			answered := st.Table.Version
			for r := range 8 {
				go func() {
					who := owner
					if r%2 == 1 {
						who = domain.Actor{} // a spectator
					}
					got, err := f.svc.Tables.State(ctx, who, tb.ID, "")
					if err == nil && got.Table.Version < answered {
						err = fmt.Errorf("read version %d after %d was answered", got.Table.Version, answered)
					}
					if err == nil && who == owner {
						if want, ok := seen[got.Table.Version]; ok && !reflect.DeepEqual(got.View, want.View) {
							err = fmt.Errorf("version %d: view %+v, the mover was answered %+v", got.Table.Version, got.View, want.View)
						}
					}
					errs <- err
				}()
			}
			if st, err = f.svc.Tables.Move(ctx, owner, tb.ID, domain.MoveInput{Move: move, Version: st.Table.Version}); err != nil {
				t.Fatal(err)
			}
			for range 8 {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
			}
			seen[st.Table.Version] = st
		}
	})
}
