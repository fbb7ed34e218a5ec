package store_test

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// BenchmarkPointRead times a point read (a player in a ViewOne, as
// GET /players/{id} makes it) against the same row read with database/sql
// alone (a statement prepared once, on the store's read pool), in
// alternating rounds; ratio is the time of the raw read over the store's
// (1: the store adds nothing), and ns/op the store's:
//
//	go test ./domain/store -run '^$' -bench PointRead -benchtime 100000x
func BenchmarkPointRead(b *testing.B) {
	db := storetest.SQLite(b)
	id := seedBenchPlayers(b, db, 100)
	ctx := context.Background()
	raw, err := store.ReadPool(db).PrepareContext(ctx, "SELECT id, user_id, name, federation_id, club_id, categories, "+
		"CAST(created_at AS TEXT), CAST(updated_at AS TEXT) FROM players WHERE id = ?")
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	storeRead := func() error {
		return db.ViewOne(ctx, func(tx domain.Tx) error { _, err := tx.Players().Get(id); return err })
	}
	rawRead := func() error {
		var (
			pid, clubID, userID   sql.NullInt64
			name, fed, cats, c, u sql.NullString
		)
		return raw.QueryRowContext(ctx, id).Scan(&pid, &userID, &name, &fed, &clubID, &cats, &c, &u)
	}
	timed := func(n int, read func() error) time.Duration {
		start := time.Now()
		for range n {
			if err := read(); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	const rounds = 10
	var withStore, without time.Duration
	b.ResetTimer()
	for r := range rounds {
		n := b.N / rounds
		if r == rounds-1 {
			n = b.N - n*(rounds-1)
		}
		b.StopTimer()
		without += timed(n, rawRead)
		b.StartTimer()
		withStore += timed(n, storeRead)
	}
	b.StopTimer()
	b.ReportMetric(float64(without)/float64(withStore), "ratio")
}

// TestReadPinKeepsTheLogBounded: with the read pin held between
// checkpoints, bursts of writes still have their log copied back and the
// log restarted from its start, so that the -wal file does not grow from
// one burst to the next; and every write is read at once, by this process
// and by another.
func TestReadPinKeepsTheLogBounded(t *testing.T) {
	url := storetest.SQLiteURL(t)
	db, other := storetest.Open(t, url), storetest.Open(t, url)
	ctx := context.Background()
	now := time.Now().UTC()
	var sizes []int64
	for burst := range 6 {
		for i := range 200 {
			p := domain.Player{Name: fmt.Sprintf("Player %d-%03d", burst, i), CreatedAt: now, UpdatedAt: now}
			if err := db.InTx(ctx, func(tx domain.Tx) error { return tx.Players().Create(&p) }); err != nil {
				t.Fatal(err)
			}
			for _, reader := range []*store.DB{db, other} {
				err := reader.ViewOne(ctx, func(tx domain.Tx) error {
					got, err := tx.Players().Get(p.ID)
					if err == nil && got.Name != p.Name {
						err = fmt.Errorf("read %q, wrote %q", got.Name, p.Name)
					}
					return err
				})
				if err != nil {
					t.Fatalf("burst %d, write %d: %v", burst, i, err)
				}
			}
		}
		// A checkpoint comes a moment after the writes, and the pin is
		// taken again when one has copied the whole log back: two pins
		// after the last write, the second certainly after a checkpoint
		// that began after it.
		pins := store.ReadPins(db)
		for deadline := time.Now().Add(10 * time.Second); store.ReadPins(db) < pins+2; {
			if time.Now().After(deadline) {
				t.Fatalf("burst %d: the pin was not taken again", burst)
			}
			time.Sleep(5 * time.Millisecond)
		}
		fi, err := os.Stat(url + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, fi.Size())
	}
	if last, first := sizes[len(sizes)-1], sizes[0]; last > 2*first {
		t.Fatalf("the log grew from burst to burst: %v bytes", sizes)
	}
	t.Logf("log size after each burst: %v bytes", sizes)
}

// TestTheLogRestartsUnderSteadyWritesAndReads: writes that never pause
// for long, with reads always under way, still have the log restarted
// from its start now and then (a RESTART checkpoint in the writers' turn
// once the log is past its bound): the -wal file is reused instead of
// growing with every write; and every write is read.
func TestTheLogRestartsUnderSteadyWritesAndReads(t *testing.T) {
	defer store.SetRestartLogPages(64)()
	url := storetest.SQLiteURL(t)
	db := storetest.Open(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	now := time.Now().UTC()
	var wg sync.WaitGroup
	var written atomic.Int64
	errs := make(chan error, 16)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				p := domain.Player{Name: fmt.Sprintf("Player %d-%05d", w, i), CreatedAt: now, UpdatedAt: now}
				if err := db.InTx(context.Background(), func(tx domain.Tx) error { return tx.Players().Create(&p) }); err != nil {
					errs <- err
					return
				}
				written.Add(1)
				if err := db.View(context.Background(), func(tx domain.Tx) error {
					got, err := tx.Players().Get(p.ID)
					if err == nil && got.Name != p.Name {
						err = fmt.Errorf("read %q, wrote %q", got.Name, p.Name)
					}
					return err
				}); err != nil {
					errs <- err
					return
				}
				time.Sleep(time.Millisecond)
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	first := logRestarted(t, url)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	restarted := logRestarted(t, url) - first
	t.Logf("%d writes, %d RESTART checkpoints, the log restarted %d times", written.Load(), store.LogRestarts(db), restarted)
	if restarted < 2 {
		t.Fatalf("the log restarted %d times in 5 s of writes", restarted)
	}
}

// TestALongReadHoldsTheWritersBackOnce: a read left open (a backup, an
// export) keeps a RESTART checkpoint from completing; the checkpointer
// then tries no other for a while, instead of holding the writers back at
// every checkpoint while the read lasts; the writes go on meanwhile.
func TestALongReadHoldsTheWritersBackOnce(t *testing.T) {
	defer store.SetRestartLogPages(64)()
	db := storetest.SQLite(t)
	ctx := context.Background()
	reading, release := make(chan struct{}), make(chan struct{})
	go func() {
		_ = db.View(ctx, func(tx domain.Tx) error {
			_, _, err := tx.Players().List(domain.PlayerFilter{Limit: 1})
			close(reading)
			<-release
			return err
		})
	}()
	<-reading
	now := time.Now().UTC()
	written := 0
	for deadline := time.Now().Add(3500 * time.Millisecond); time.Now().Before(deadline); written++ {
		p := domain.Player{Name: fmt.Sprintf("Player %05d", written), CreatedAt: now, UpdatedAt: now}
		if err := db.InTx(ctx, func(tx domain.Tx) error { return tx.Players().Create(&p) }); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	if got := store.LogRestarts(db); got != 1 {
		t.Errorf("%d RESTART checkpoints tried while a read stayed open for 3.5 s, want 1 (then none for %v)", got, store.RestartBackoff)
	}
	t.Logf("%d writes meanwhile", written)
}

// logRestarted reads how many times the log at path+"-wal" was started
// again: its header's checkpoint sequence number (SQLite's file format,
// section 4.1).
func logRestarted(t *testing.T, path string) uint32 {
	t.Helper()
	f, err := os.Open(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var h [16]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		t.Fatal(err)
	}
	return binary.BigEndian.Uint32(h[12:])
}
