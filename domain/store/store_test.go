package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

func TestOpenSQLite(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, url, file string
	}{
		{"PlainPath", filepath.Join(dir, "a.db"), "a.db"},
		{"SQLiteScheme", "sqlite://" + filepath.Join(dir, "b.db"), "b.db"},
		{"FilePrefix", "file:" + filepath.Join(dir, "c.db"), "c.db"},
		{"CreatesDirectory", filepath.Join(dir, "sub", "dir", "d.db"), "sub/dir/d.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := store.Open(t.Context(), tt.url)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if db.Dialect() != store.SQLite {
				t.Errorf("dialect %q", db.Dialect())
			}
			if err := db.Ping(t.Context()); err != nil {
				t.Fatal(err)
			}
			var file string
			if err := db.SQL().QueryRowContext(t.Context(), "SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&file); err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(file, tt.file) {
				t.Errorf("database file %q, want …%s", file, tt.file)
			}
		})
	}
	t.Run("ErrEmptyURL", func(t *testing.T) {
		if _, err := store.Open(t.Context(), ""); err == nil {
			t.Error("no error")
		}
	})
}

// TestSQLitePragmasOnEveryConnection holds the write connection and several
// read connections at once and checks the pragmas on each.
func TestSQLitePragmasOnEveryConnection(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := t.Context()
	writer, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	conns := []*sql.Conn{writer}
	for range 4 {
		c, err := store.ReadPool(db).Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns {
		var journal string
		var fk, busy, sync, queryOnly int
		for pragma, dst := range map[string]any{"journal_mode": &journal, "foreign_keys": &fk,
			"busy_timeout": &busy, "synchronous": &sync, "query_only": &queryOnly} {
			if err := c.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(dst); err != nil {
				t.Fatal(err)
			}
		}
		if journal != "wal" || fk != 1 || busy != 5000 || sync != 1 { // 1 = NORMAL
			t.Errorf("connection %d: journal_mode=%s foreign_keys=%d busy_timeout=%d synchronous=%d", i, journal, fk, busy, sync)
		}
		if wantReadOnly := i > 0; (queryOnly == 1) != wantReadOnly {
			t.Errorf("connection %d: query_only=%d", i, queryOnly)
		}
	}
	var autoCheckpoint int
	if err := writer.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&autoCheckpoint); err != nil || autoCheckpoint != 10000 {
		t.Errorf("write connection: wal_autocheckpoint=%d (%v), want the backstop 10000", autoCheckpoint, err)
	}
	// The readers' transactions are deferred: one that has begun does not
	// keep the writer from beginning.
	rtx, err := conns[1].BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rtx.Rollback()
	var n int
	if err := rtx.QueryRowContext(ctx, "SELECT count(*) FROM users").Scan(&n); err != nil {
		t.Fatal(err)
	}
	// _txlock=immediate: BEGIN takes the write lock at once, so another
	// writer (here a second pool that does not wait) is refused while the
	// transaction has not even written yet.
	tx1, err := writer.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx1.Rollback()
	var file string
	if err := tx1.QueryRowContext(ctx, "SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&file); err != nil {
		t.Fatal(err)
	}
	impatient, err := store.Open(ctx, file+"?_busy_timeout=0")
	if err != nil {
		t.Fatal(err)
	}
	defer impatient.Close()
	if tx2, err := impatient.SQL().BeginTx(ctx, nil); err == nil {
		tx2.Rollback()
		t.Error("a second writer began while the first transaction held the write lock")
	}
}

func TestOpenPostgres(t *testing.T) {
	db := storetest.Postgres(t)
	if db.Dialect() != store.Postgres {
		t.Errorf("dialect %q", db.Dialect())
	}
	if err := db.Ping(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Run("ErrUnreachable", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		if _, err := store.Open(ctx, "postgres://nobody:x@127.0.0.1:1/none?sslmode=disable&connect_timeout=2"); err == nil {
			t.Error("no error")
		}
	})
}

func TestTranslateErrors(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Now()
		var u domain.User
		err := db.InTx(ctx, func(tx domain.Tx) error {
			u = domain.User{Email: "a@b.it", Name: "A", CreatedAt: now, UpdatedAt: now}
			return tx.Users().Create(&u, "hash")
		})
		wantCode(t, err, "")
		tests := []struct {
			name string
			fn   func(tx domain.Tx) error
			code domain.Code
			msg  string
		}{
			{"EConflictUniqueEmail", func(tx domain.Tx) error {
				dup := domain.User{Email: "a@b.it", Name: "B", CreatedAt: now, UpdatedAt: now}
				return tx.Users().Create(&dup, "hash")
			}, domain.EConflict, "email is already registered"},
			{"EConflictUniqueFederationID", func(tx domain.Tx) error {
				for range 2 {
					p := domain.Player{Name: "P", FederationID: ptr("F1"), CreatedAt: now, UpdatedAt: now}
					if err := tx.Players().Create(&p); err != nil {
						return err
					}
				}
				return nil
			}, domain.EConflict, "federation id is already in use"},
			{"OKManyNullFederationIDs", func(tx domain.Tx) error {
				for range 2 {
					p := domain.Player{Name: "P", CreatedAt: now, UpdatedAt: now}
					if err := tx.Players().Create(&p); err != nil {
						return err
					}
				}
				return nil
			}, "", ""},
			{"EConflictUniqueMembership", func(tx domain.Tx) error {
				c := domain.Club{Name: "C", CreatedAt: now, UpdatedAt: now}
				if err := tx.Clubs().Create(&c); err != nil {
					return err
				}
				for range 2 {
					m := domain.Membership{ClubID: c.ID, UserID: u.ID, Role: domain.RoleMember, CreatedAt: now}
					if err := tx.Memberships().Create(&m); err != nil {
						return err
					}
				}
				return nil
			}, domain.EConflict, "user is already a member of the club"},
			{"ENotFoundForeignKey", func(tx domain.Tx) error {
				m := domain.Membership{ClubID: 4242, UserID: u.ID, Role: domain.RoleMember, CreatedAt: now}
				return tx.Memberships().Create(&m)
			}, domain.ENotFound, ""},
			{"ENotFoundRecord", func(tx domain.Tx) error {
				_, err := tx.Clubs().Get(4242)
				return err
			}, domain.ENotFound, "club not found"},
			{"ENotFoundUpdate", func(tx domain.Tx) error {
				return tx.Clubs().Update(domain.Club{ID: 4242, Name: "x", UpdatedAt: now})
			}, domain.ENotFound, "club not found"},
			{"ENotFoundDelete", func(tx domain.Tx) error {
				return tx.Players().Delete(4242, time.Now())
			}, domain.ENotFound, "player not found"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := db.InTx(ctx, tt.fn)
				wantCode(t, err, tt.code)
				if tt.msg != "" && err.(*domain.Error).Message != tt.msg {
					t.Errorf("message %q, want %q", err.(*domain.Error).Message, tt.msg)
				}
			})
		}
	})
}

func TestInTxRollsBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Now()
		boom := domain.Errorf(domain.EInvalid, "boom")
		err := db.InTx(ctx, func(tx domain.Tx) error {
			c := domain.Club{Name: "C", CreatedAt: now, UpdatedAt: now}
			if err := tx.Clubs().Create(&c); err != nil {
				return err
			}
			return boom
		})
		if err != boom {
			t.Fatalf("err = %v, want the callback's error", err)
		}
		err = db.View(ctx, func(tx domain.Tx) error {
			_, total, err := tx.Clubs().List(domain.ClubFilter{Limit: 10})
			if total != 0 {
				t.Errorf("%d clubs after rollback", total)
			}
			return err
		})
		wantCode(t, err, "")
	})
}

func TestViewIsReadOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		err := db.View(t.Context(), func(tx domain.Tx) error {
			c := domain.Club{Name: "C", CreatedAt: time.Now(), UpdatedAt: time.Now()}
			return tx.Clubs().Create(&c)
		})
		if err == nil || !strings.Contains(strings.ReplaceAll(err.Error(), "-", ""), "readonly") {
			t.Errorf("err = %v, want a read-only error", err)
		}
	})
}

func TestTimesRoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		at := time.Date(2026, 1, 2, 3, 4, 5, 6007008, time.FixedZone("X", -5*3600))
		c := domain.Club{Name: "C", CreatedAt: at, UpdatedAt: at}
		err := db.InTx(t.Context(), func(tx domain.Tx) error { return tx.Clubs().Create(&c) })
		wantCode(t, err, "")
		var got domain.Club
		err = db.View(t.Context(), func(tx domain.Tx) (err error) { got, err = tx.Clubs().Get(c.ID); return err })
		wantCode(t, err, "")
		want := at.UTC().Truncate(time.Microsecond)
		if got.CreatedAt != want || got.CreatedAt.Location() != time.UTC {
			t.Errorf("created_at %v, want %v", got.CreatedAt, want)
		}
	})
}

func TestSecret(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		gen := func(b byte) func() ([]byte, error) {
			return func() ([]byte, error) { return bytes.Repeat([]byte{b}, 32), nil }
		}
		s1, created, err := db.Secret(ctx, "jwt", gen(1))
		if err != nil || !created || s1[0] != 1 {
			t.Fatalf("first: %v %v %v", s1, created, err)
		}
		s2, created, err := db.Secret(ctx, "jwt", gen(2))
		if err != nil || created || !bytes.Equal(s1, s2) {
			t.Fatalf("second: %v %v %v", s2, created, err)
		}
	})
}

// TestSecretConcurrent has several pools (like several server processes)
// race to create one secret; all must get the same value.
func TestSecretConcurrent(t *testing.T) {
	url := storetest.PostgresURL(t)
	ctx := t.Context()
	first, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if _, err := migrationsUp(ctx, first); err != nil {
		t.Fatal(err)
	}
	const n = 6
	secrets := make([][]byte, n)
	var created int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			db, err := store.Open(ctx, url)
			if err != nil {
				t.Error(err)
				return
			}
			defer db.Close()
			s, c, err := db.Secret(ctx, "jwt", func() ([]byte, error) { return []byte{byte(i)}, nil })
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			secrets[i] = s
			if c {
				created++
			}
		})
	}
	wg.Wait()
	if created != 1 {
		t.Errorf("%d processes created the secret, want 1", created)
	}
	for i := range secrets {
		if !bytes.Equal(secrets[i], secrets[0]) {
			t.Errorf("secret %d = %v, secret 0 = %v", i, secrets[i], secrets[0])
		}
	}
}

func wantCode(t *testing.T, err error, want domain.Code) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("err = %v, want none", err)
		}
		return
	}
	if got := domain.ErrorCode(err); got != want {
		t.Fatalf("err = %v, want code %s", err, want)
	}
}

func ptr[T any](v T) *T { return &v }

func TestModelsMatchMigratedSchema(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		if err := store.CheckModels(db); err != nil {
			t.Error(err)
		}
	})
}

// TestBusyIsUnavailable checks that a write that cannot get its lock in
// time is EUnavailable (a 503 the client may retry), not an internal error:
// on SQLite when the busy timeout runs out, on PostgreSQL when lock_timeout
// does.
func TestBusyIsUnavailable(t *testing.T) {
	ctx := t.Context()
	hold := func(t *testing.T, db *store.DB, clubID int64) (release func()) {
		locked, done := make(chan struct{}), make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = db.InTx(ctx, func(tx domain.Tx) error {
				if _, err := tx.Clubs().Lock(clubID); err != nil {
					t.Error(err)
				}
				close(locked)
				<-done
				return nil
			})
		}()
		<-locked
		return func() { close(done); wg.Wait() }
	}
	check := func(t *testing.T, db *store.DB) {
		now := time.Now()
		c := domain.Club{Name: "C", CreatedAt: now, UpdatedAt: now}
		if err := db.InTx(ctx, func(tx domain.Tx) error { return tx.Clubs().Create(&c) }); err != nil {
			t.Fatal(err)
		}
		release := hold(t, db, c.ID)
		defer release()
		err := db.InTx(ctx, func(tx domain.Tx) error {
			if _, err := tx.Clubs().Lock(c.ID); err != nil {
				return err
			}
			return tx.Clubs().Update(c)
		})
		wantCode(t, err, domain.EUnavailable)
	}
	// Each database with a short lock wait, so that the test is quick.
	for dialect, url := range map[string]func(t *testing.T) string{
		store.SQLite:   func(t *testing.T) string { return storetest.SQLiteURL(t) + "?_busy_timeout=50" },
		store.Postgres: func(t *testing.T) string { return storetest.PostgresURL(t) + "&lock_timeout=50ms" },
	} {
		t.Run(dialect, func(t *testing.T) {
			db, err := store.Open(ctx, url(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := migrationsUp(ctx, db); err != nil {
				t.Fatal(err)
			}
			check(t, db)
		})
	}
}

// TestWritersTakeTurns runs many write transactions at once: on SQLite they
// queue for the one write connection, and every one commits.
func TestWritersTakeTurns(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := range 25 {
					now := time.Now()
					c := domain.Club{Name: fmt.Sprintf("C%d-%d", w, i), CreatedAt: now, UpdatedAt: now}
					if err := db.InTx(ctx, func(tx domain.Tx) error { return tx.Clubs().Create(&c) }); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		err := db.View(ctx, func(tx domain.Tx) error {
			_, total, err := tx.Clubs().List(domain.ClubFilter{Limit: 1})
			if total != 200 {
				t.Errorf("%d clubs, want 200", total)
			}
			return err
		})
		wantCode(t, err, "")
	})
}

// TestViewOne: one query reads as in View; a second query or a write fails
// rather than run outside a transaction.
func TestViewOne(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Now()
		c := domain.Club{Name: "C", CreatedAt: now, UpdatedAt: now}
		wantCode(t, db.InTx(ctx, func(tx domain.Tx) error { return tx.Clubs().Create(&c) }), "")

		var got domain.Club
		err := db.ViewOne(ctx, func(tx domain.Tx) (err error) { got, err = tx.Clubs().Get(c.ID); return err })
		if err != nil || got.Name != "C" {
			t.Fatalf("one query: %+v, %v", got, err)
		}
		err = db.ViewOne(ctx, func(tx domain.Tx) error { _, err := tx.Users().Get(987654); return err })
		wantCode(t, err, domain.ENotFound)

		err = db.ViewOne(ctx, func(tx domain.Tx) error {
			if _, err := tx.Clubs().Get(c.ID); err != nil {
				return err
			}
			_, err := tx.Clubs().Get(c.ID)
			return err
		})
		if err == nil || !strings.Contains(err.Error(), "second query") {
			t.Errorf("two queries: err = %v, want a second-query error", err)
		}
		err = db.ViewOne(ctx, func(tx domain.Tx) error { _, _, err := tx.Clubs().List(domain.ClubFilter{Limit: 10}); return err })
		if err == nil || !strings.Contains(err.Error(), "second query") {
			t.Errorf("a list (count and page): err = %v, want a second-query error", err)
		}
		err = db.ViewOne(ctx, func(tx domain.Tx) error {
			d := domain.Club{Name: "D", CreatedAt: now, UpdatedAt: now}
			return tx.Clubs().Create(&d)
		})
		if err == nil || !strings.Contains(err.Error(), "a write in ViewOne") {
			t.Errorf("a write: err = %v, want it refused", err)
		}
		err = db.ViewOne(ctx, func(tx domain.Tx) error { return tx.Players().Delete(987654, time.Now()) })
		if err == nil || !strings.Contains(err.Error(), "a write in ViewOne") {
			t.Errorf("a delete: err = %v, want it refused", err)
		}
	})
}

// TestGivenUpRequestsStop: a transaction whose context is cancelled stops
// at its next statement and does not commit, on both databases (SQLite's
// driver never sees the cancellation; the store checks for it).
func TestGivenUpRequestsStop(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Now()
		ctx, cancel := context.WithCancel(t.Context())
		err := db.InTx(ctx, func(tx domain.Tx) error {
			c := domain.Club{Name: "Before", CreatedAt: now, UpdatedAt: now}
			if err := tx.Clubs().Create(&c); err != nil {
				return err
			}
			cancel()
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled before commit: err = %v, want context.Canceled", err)
		}
		err = db.InTx(ctx, func(tx domain.Tx) error {
			c := domain.Club{Name: "After", CreatedAt: now, UpdatedAt: now}
			return tx.Clubs().Create(&c)
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled before the transaction: err = %v, want context.Canceled", err)
		}
		for name, view := range map[string]func(context.Context, func(domain.Tx) error) error{"View": db.View, "ViewOne": db.ViewOne} {
			err := view(ctx, func(tx domain.Tx) error { _, err := tx.Clubs().Get(1); return err })
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: err = %v, want context.Canceled", name, err)
			}
		}
		err = db.View(t.Context(), func(tx domain.Tx) error {
			_, total, err := tx.Clubs().List(domain.ClubFilter{Limit: 10})
			if total != 0 {
				t.Errorf("%d clubs stored by given-up transactions", total)
			}
			return err
		})
		wantCode(t, err, "")
	})
}

// TestCheckpointsInTheBackground: writes are copied from the log into the
// database file soon after they commit, by the background checkpointer (the
// write connection would wait for 10000 pages of log).
func TestCheckpointsInTheBackground(t *testing.T) {
	path := storetest.SQLiteURL(t)
	db, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := migrationsUp(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	now := time.Now()
	for i := range 300 {
		c := domain.Club{Name: fmt.Sprintf("Club %d with a name long enough to fill pages", i), CreatedAt: now, UpdatedAt: now}
		if err := db.InTx(t.Context(), func(tx domain.Tx) error { return tx.Clubs().Create(&c) }); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for size() <= before {
		if time.Now().After(deadline) {
			t.Fatalf("the database file stayed at %d bytes: no checkpoint", before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSynchronousCanBeRaised: the durability level is NORMAL unless the
// database URL asks for another (as the README tells).
func TestSynchronousCanBeRaised(t *testing.T) {
	db, err := store.Open(t.Context(), storetest.SQLiteURL(t)+"?_synchronous=FULL")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, pool := range []*sql.DB{db.SQL(), store.ReadPool(db)} {
		var level int
		if err := pool.QueryRowContext(t.Context(), "PRAGMA synchronous").Scan(&level); err != nil || level != 2 {
			t.Errorf("synchronous=%d (%v), want 2 (FULL)", level, err)
		}
	}
}
