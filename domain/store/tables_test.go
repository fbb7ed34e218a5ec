package store_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTableUpdateStoresEveryChange: Update writes only the columns that
// differ from the row its transaction locked, so every column is changed
// here on its own, then several at once, twice in one transaction, and
// without a lock (every column written), and read back each time: through
// the table cache, and from the row.
func TestTableUpdateStoresEveryChange(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Now().UTC().Truncate(time.Microsecond)
		var tb domain.Table
		err := db.InTx(ctx, func(tx domain.Tx) error {
			u := domain.User{Email: "anna@example.com", Name: "Anna", CreatedAt: now, UpdatedAt: now}
			if err := tx.Users().Create(&u, "hash"); err != nil {
				return err
			}
			tb = domain.Table{CreatorID: u.ID, Rules: "fibur", Options: []byte(`{"target":2005}`), Players: 2,
				InviteCode: "code", Status: domain.TableOpen, FreeSeats: 1, Version: 1, ClockUsed: []int64{},
				CreatedAt: now, UpdatedAt: now, TurnSeconds: 10, BankSeconds: 20, BankLeft: []int64{20000, 20000},
				ReconnectSeconds: 90, ClaimPolicy: domain.ClaimDraw,
				Seats: []domain.Seat{{Seat: 0, UserID: &u.ID, JoinedAt: &now}, {Seat: 1}}}
			return tx.Tables().Create(&tb)
		})
		if err != nil {
			t.Fatal(err)
		}
		later := func(d time.Duration) *time.Time { v := now.Add(d); return &v }
		one, two := 1, 0
		steps := []struct {
			name   string
			lock   bool
			change []func(*domain.Table)
		}{
			{"Status", true, []func(*domain.Table){func(t *domain.Table) { t.Status = domain.TablePlaying }}},
			{"FreeSeats", true, []func(*domain.Table){func(t *domain.Table) { t.FreeSeats = 0 }}},
			{"DealNumber", true, []func(*domain.Table){func(t *domain.Table) { t.DealNumber = 1 }}},
			{"StartedAt", true, []func(*domain.Table){func(t *domain.Table) { t.StartedAt = later(time.Second) }}},
			{"TurnStartedAt", true, []func(*domain.Table){func(t *domain.Table) { t.TurnStartedAt = later(2 * time.Second) }}},
			{"ClockUsed", true, []func(*domain.Table){func(t *domain.Table) { t.ClockUsed = []int64{1500, 0} }}},
			{"UpdatedAt", true, []func(*domain.Table){func(t *domain.Table) { t.UpdatedAt = *later(3 * time.Second) }}},
			{"VersionOnly", true, nil},
			{"TwiceInOneTransaction", true, []func(*domain.Table){
				func(t *domain.Table) { t.TurnStartedAt, t.ClockUsed = later(4*time.Second), []int64{1500, 700} },
				func(t *domain.Table) { t.TurnStartedAt, t.DealNumber = later(5*time.Second), 2 }}},
			{"Winner", true, []func(*domain.Table){func(t *domain.Table) { t.Winner = &one }}},
			{"LostOnTime", true, []func(*domain.Table){func(t *domain.Table) { t.LostOnTime = &two }}},
			{"AbandonedBy", true, []func(*domain.Table){func(t *domain.Table) { t.AbandonedBy = &one }}},
			{"Draw", true, []func(*domain.Table){func(t *domain.Table) { t.Winner, t.Draw = nil, true }}},
			{"FinishedTogether", true, []func(*domain.Table){func(t *domain.Table) {
				t.Status, t.Result, t.FinishedAt, t.TurnStartedAt = domain.TableFinished, domain.ResultPlayed, later(6*time.Second), nil
			}}},
			{"BankLeft", true, []func(*domain.Table){func(t *domain.Table) { t.BankLeft = []int64{5000, 20000} }}},
			// Claimed and aborted are stored with result '' and an outcome
			// (migration 0020): read back as they were.
			{"Claimed", true, []func(*domain.Table){func(t *domain.Table) { t.Result, t.Draw, t.AbandonedBy = domain.ResultClaimed, true, &one }}},
			{"Aborted", true, []func(*domain.Table){func(t *domain.Table) { t.Result, t.Draw, t.AbandonedBy = domain.ResultAborted, false, nil }}},
			{"PlayedAgain", true, []func(*domain.Table){func(t *domain.Table) { t.Result = domain.ResultPlayed }}},
			{"WithoutLock", false, []func(*domain.Table){func(t *domain.Table) {
				t.Status, t.Result, t.FinishedAt, t.LostOnTime, t.AbandonedBy = domain.TablePlaying, "", nil, nil, nil
			}}},
		}
		want := tb
		for _, st := range steps {
			err := db.InTx(ctx, func(tx domain.Tx) error {
				load := tx.Tables().Get
				if st.lock {
					load = tx.Tables().Lock
				}
				cur, err := load(tb.ID)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(cur, want) {
					t.Fatalf("%s: read before the update\n%+v\nwant\n%+v", st.name, cur, want)
				}
				changes := st.change
				if len(changes) == 0 {
					changes = []func(*domain.Table){func(*domain.Table) {}}
				}
				for _, change := range changes {
					change(&cur)
					cur.Version++
					if err := tx.Tables().Update(cur); err != nil {
						return err
					}
				}
				want = cur
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			for _, cold := range []bool{false, true} { // from the table cache, then from the row
				if cold {
					store.ForgetTables(db)
				}
				got, err := readTable(t, db, tb.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: read back (cold %v)\n%+v\nwant\n%+v", st.name, cold, got, want)
				}
			}
		}
	})
}

func readTable(t *testing.T, db *store.DB, id int64) (domain.Table, error) {
	var tb domain.Table
	err := db.View(t.Context(), func(tx domain.Tx) error {
		var err error
		tb, err = tx.Tables().Get(id)
		return err
	})
	return tb, err
}

// TestTableCacheKeepsOnlyCommittedVersions: two handles on one database
// (two server processes). A changes a table and rolls back; B changes it
// at the same version and commits: A then reads B's table, not its own
// rolled-back one, as it does after B commits a version A had read before.
func TestTableCacheKeepsOnlyCommittedVersions(t *testing.T) {
	for dialect, url := range map[string]func(t testing.TB) string{
		store.SQLite:   storetest.SQLiteURL,
		store.Postgres: storetest.PostgresURL,
	} {
		t.Run(dialect, func(t *testing.T) {
			u := url(t)
			a, b := openMigrated(t, u), openMigrated(t, u)
			id, _ := openTwoSeatTable(t, a, "Anna")
			change := func(db *store.DB, free int, fail bool) {
				changeTable(t, db, id, fail, func(_ domain.Tx, tb *domain.Table) error { tb.FreeSeats = free; return nil }, nil)
			}
			check := func(db *store.DB, who string, version int64, free int) {
				t.Helper()
				got, err := readTable(t, db, id)
				if err != nil {
					t.Fatal(err)
				}
				if got.Version != version || got.FreeSeats != free {
					t.Fatalf("%s reads version %d with %d free seats, want version %d with %d", who, got.Version, got.FreeSeats, version, free)
				}
			}
			check(a, "A", 1, 2)
			change(a, 1, true) // A's version 2, rolled back
			check(a, "A after its rollback", 1, 2)
			change(b, 0, false) // B's version 2, committed
			check(a, "A after B's commit", 2, 0)
			change(a, 1, false) // A's version 3
			check(b, "B after A's commit", 3, 1)
			check(a, "A after its commit", 3, 1)
		})
	}
}

// openTwoSeatTable makes a user of each name and an open table of two free
// seats created by the first; it returns the table's id and the users'.
func openTwoSeatTable(t *testing.T, db *store.DB, names ...string) (int64, []int64) {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Microsecond)
	var id int64
	users := make([]int64, len(names))
	err := db.InTx(t.Context(), func(tx domain.Tx) error {
		for i, name := range names {
			u := domain.User{Email: strings.ToLower(name) + "@example.com", Name: name, CreatedAt: now, UpdatedAt: now}
			if err := tx.Users().Create(&u, "hash"); err != nil {
				return err
			}
			users[i] = u.ID
		}
		tb := domain.Table{CreatorID: users[0], Rules: "fibur", Options: []byte(`{}`), Players: 2, InviteCode: "code",
			Status: domain.TableOpen, FreeSeats: 2, Version: 1, CreatedAt: now, UpdatedAt: now,
			Seats: []domain.Seat{{Seat: 0}, {Seat: 1}}}
		err := tx.Tables().Create(&tb)
		id = tb.ID
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id, users
}

// changeTable changes table id in one transaction of db as a table's
// change does: locks it, lets change change it, writes its next version,
// reads it back, then runs after (when not nil); fail rolls it all back.
// It returns the version written.
func changeTable(t *testing.T, db *store.DB, id int64, fail bool, change func(domain.Tx, *domain.Table) error, after func(domain.Tx) error) int64 {
	t.Helper()
	errRollback := errors.New("roll back")
	var version int64
	err := db.InTx(t.Context(), func(tx domain.Tx) error {
		tb, err := tx.Tables().Lock(id)
		if err != nil {
			return err
		}
		if err := change(tx, &tb); err != nil {
			return err
		}
		tb.Version++
		if err := tx.Tables().Update(tb); err != nil {
			return err
		}
		if _, err := tx.Tables().Get(id); err != nil { // reads its own change, as a start does
			return err
		}
		version = tb.Version
		if after != nil {
			if err := after(tx); err != nil {
				return err
			}
		}
		if fail {
			return errRollback
		}
		return nil
	})
	if err != nil && !(fail && errors.Is(err, errRollback)) {
		t.Fatal(err)
	}
	return version
}

func openMigrated(t *testing.T, url string) *store.DB {
	t.Helper()
	db, err := store.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := migrationsUp(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestMoveUpToFindsTheLastMoveAtOrBeforeAVersion: across deals, the move
// with the greatest version at most the one asked, moves without a
// version (from before moves had one) never; none is ENotFound.
func TestMoveUpToFindsTheLastMoveAtOrBeforeAVersion(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Now().UTC().Truncate(time.Microsecond)
		var tb domain.Table
		err := db.InTx(ctx, func(tx domain.Tx) error {
			u := domain.User{Email: "anna@example.com", Name: "Anna", CreatedAt: now, UpdatedAt: now}
			if err := tx.Users().Create(&u, "hash"); err != nil {
				return err
			}
			tb = domain.Table{CreatorID: u.ID, Rules: "fibur", Options: []byte(`{}`), Players: 2, Status: domain.TablePlaying,
				Version: 7, DealNumber: 2, ClockUsed: []int64{}, CreatedAt: now, UpdatedAt: now,
				Seats: []domain.Seat{{Seat: 0, UserID: &u.ID, JoinedAt: &now}, {Seat: 1, Bot: true}}}
			if err := tx.Tables().Create(&tb); err != nil {
				return err
			}
			for deal, versions := range map[int][]int64{1: {0, 3, 4}, 2: {6, 7}} {
				if err := tx.Tables().CreateDeal(domain.TableDeal{TableID: tb.ID, Number: deal, Totals: []int{0, 0},
					Position: []byte(`{}`), StartedAt: now}); err != nil {
					return err
				}
				for i, v := range versions {
					if err := tx.Tables().AppendMove(domain.TableMove{TableID: tb.ID, Deal: deal, Index: i, Seat: i % 2,
						Move: []byte(`{"move":"draw"}`), At: now, Version: v}); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			version   int64
			deal, idx int // deal 0: none
		}{{0, 0, 0}, {2, 0, 0}, {3, 1, 1}, {5, 1, 2}, {6, 2, 0}, {100, 2, 1}} {
			var m domain.TableMove
			err := db.View(ctx, func(tx domain.Tx) error {
				var err error
				m, err = tx.Tables().MoveUpTo(tb.ID, c.version)
				return err
			})
			switch {
			case c.deal == 0 && domain.ErrorCode(err) != domain.ENotFound:
				t.Errorf("up to %d: %+v, %v, want not found", c.version, m, err)
			case c.deal > 0 && (err != nil || m.Deal != c.deal || m.Index != c.idx):
				t.Errorf("up to %d: deal %d move %d (%v), want deal %d move %d", c.version, m.Deal, m.Index, err, c.deal, c.idx)
			}
		}
	})
}

// TestDealFromReadsTheDealAskedForAndItsMovesFromTheIndexGiven: a cached
// deal caught up with the log (domain's catchUpFrom) reads the deal of the
// table and number asked and its moves from the index given, never
// another table's deal. On SQLite the statement's placeholders are bound
// in the order they first appear in its text: with $3 (from) written
// before $1 and $2 it read table id = the deal's number and deal number =
// from, moves from the table's id: here table A's deal 1, which has no
// moves, so a state read took B's moves as all played (the stuck table of
// 2026-11-28, docs/performance.md).
func TestDealFromReadsTheDealAskedForAndItsMovesFromTheIndexGiven(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Now().UTC().Truncate(time.Microsecond)
		var a, b domain.Table
		var number int // B's deal: numbered as A's id, so that the misbinding found A's deal 1
		err := db.InTx(ctx, func(tx domain.Tx) error {
			u := domain.User{Email: "anna@example.com", Name: "Anna", CreatedAt: now, UpdatedAt: now}
			if err := tx.Users().Create(&u, "hash"); err != nil {
				return err
			}
			for i, tb := range []*domain.Table{&a, &b} {
				*tb = domain.Table{CreatorID: u.ID, InviteCode: fmt.Sprint("invite-", i), Rules: "fibur", Options: []byte(`{}`), Players: 2, Status: domain.TablePlaying,
					Version: 5, DealNumber: 1, ClockUsed: []int64{}, CreatedAt: now, UpdatedAt: now,
					Seats: []domain.Seat{{Seat: 0, UserID: &u.ID, JoinedAt: &now}, {Seat: 1, Bot: true}}}
				if err := tx.Tables().Create(tb); err != nil {
					return err
				}
			}
			number = int(a.ID)
			if err := tx.Tables().CreateDeal(domain.TableDeal{TableID: a.ID, Number: 1, Dealer: 0, Seed: 11, Totals: []int{0, 0},
				Position: []byte(`{}`), StartedAt: now}); err != nil {
				return err
			}
			if err := tx.Tables().CreateDeal(domain.TableDeal{TableID: b.ID, Number: number, Dealer: 1, Seed: 22, Totals: []int{0, 0},
				Position: []byte(`{}`), StartedAt: now}); err != nil {
				return err
			}
			for i := range 3 {
				if err := tx.Tables().AppendMove(domain.TableMove{TableID: b.ID, Deal: number, Index: i, Seat: i % 2,
					Move: []byte(`{"move":"draw"}`), At: now, Version: int64(6 + i)}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name    string
			table   int64
			number  int
			from    int
			moves   []int // the indexes read
			missing bool
		}{
			{"TheMovesFromTheIndex", b.ID, number, 1, []int{1, 2}, false},
			{"EveryMoveFromZero", b.ID, number, 0, []int{0, 1, 2}, false},
			{"NoMovePastTheLast", b.ID, number, 3, nil, false},
			{"ENotFoundForADealTheTableHasNot", b.ID, number + 1, 0, nil, true},
		} {
			t.Run(c.name, func(t *testing.T) {
				var d domain.TableDeal
				var moves []domain.TableMove
				err := db.View(ctx, func(tx domain.Tx) error {
					var err error
					d, moves, err = tx.Tables().DealFrom(c.table, c.number, c.from)
					return err
				})
				if c.missing {
					if domain.ErrorCode(err) != domain.ENotFound {
						t.Fatalf("deal %d of table %d: %+v, %v; want not found", c.number, c.table, d, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if d.TableID != b.ID || d.Number != number || d.Seed != 22 || d.Dealer != 1 {
					t.Errorf("read deal %d of table %d with seed %d and dealer %d, want table %d's deal %d (seed 22, dealer 1)",
						d.Number, d.TableID, d.Seed, d.Dealer, b.ID, number)
				}
				var got []int
				for _, m := range moves {
					if m.TableID != b.ID || m.Deal != number {
						t.Errorf("move %d of table %d deal %d, want table %d deal %d", m.Index, m.TableID, m.Deal, b.ID, number)
					}
					got = append(got, m.Index)
				}
				if !reflect.DeepEqual(got, c.moves) {
					t.Errorf("moves %v, want %v", got, c.moves)
				}
			})
		}
	})
}

// TestSeatsChangedAndReadBackAtTheirNewVersionAreCached: a transaction
// that changes a table's seats, writes the table's next version and reads
// the table back (a match's start) leaves the seats of that version in the
// cache once it commits, so that the first state reads need no query; a
// seat changed after that read, without a version of its own, leaves
// nothing cached for the version; a transaction rolled back leaves
// nothing.
func TestSeatsChangedAndReadBackAtTheirNewVersionAreCached(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Now().UTC().Truncate(time.Microsecond)
		id, users := openTwoSeatTable(t, db, "Anna", "Bruno")
		sit := func(seat int, user int64, thenSit *int64, fail bool) int64 {
			t.Helper()
			var after func(domain.Tx) error
			if thenSit != nil { // a seat changed after the read, with no version of its own
				after = func(tx domain.Tx) error {
					return tx.Tables().SetSeat(id, domain.Seat{Seat: 1 - seat, UserID: thenSit, JoinedAt: &now})
				}
			}
			return changeTable(t, db, id, fail, func(tx domain.Tx, tb *domain.Table) error {
				tb.FreeSeats--
				return tx.Tables().SetSeat(id, domain.Seat{Seat: seat, UserID: &user, JoinedAt: &now})
			}, after)
		}
		cached := func(version int64) (domain.Table, bool) {
			t.Helper()
			var tb domain.Table
			var ok bool
			if err := db.View(ctx, func(tx domain.Tx) error { tb, ok = tx.Tables().Cached(id, version); return nil }); err != nil {
				t.Fatal(err)
			}
			return tb, ok
		}

		v := sit(0, users[0], nil, true)
		if _, ok := cached(v); ok {
			t.Fatalf("a rolled-back version %d is cached", v)
		}
		v = sit(0, users[0], nil, false)
		tb, ok := cached(v)
		if !ok || tb.Seats[0].UserID == nil || *tb.Seats[0].UserID != users[0] || tb.Seats[1].UserID != nil {
			t.Fatalf("version %d: cached %v, seats %+v; want Anna in seat 0, seat 1 free", v, ok, tb.Seats)
		}
		v = sit(0, users[0], &users[1], false) // seat 0 again, then Bruno in seat 1 after the read
		if tb, ok := cached(v); ok {
			t.Fatalf("version %d's seats are cached as read before a later change: %+v", v, tb.Seats)
		}
	})
}
