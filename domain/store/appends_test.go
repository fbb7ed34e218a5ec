package store_test

import (
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestAppendedMovesAreWrittenWhateverFollows: on PostgreSQL a transaction
// keeps its appended moves to send them with its table's update
// (appends.go); on both databases a move appended is there for the
// statements after it, committed with the transaction whatever follows
// it, and a move that cannot be written fails its transaction, which
// then writes nothing.
func TestAppendedMovesAreWrittenWhateverFollows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		for _, c := range []struct {
			name string
			// play runs in one transaction on table tb at version v,
			// whose deal 1 has moves moves already.
			play      func(tx domain.Tx, tb domain.Table, moves int) error
			wantErr   bool
			wantMoves int   // in the log after it
			wantGrow  int64 // the version's growth
		}{
			{"ReadByTheStatementsAfterIt", func(tx domain.Tx, tb domain.Table, moves int) error {
				if err := tx.Tables().AppendMove(move(tb.ID, moves, tb.Version+1)); err != nil {
					return err
				}
				got, err := tx.Tables().MovesFrom(tb.ID, 1, 0)
				if err == nil && len(got) != moves+1 {
					t.Errorf("the transaction reads %d moves after appending one to %d", len(got), moves)
				}
				return err
			}, false, 1, 0},
			{"CommittedWithNoUpdateAfterIt", func(tx domain.Tx, tb domain.Table, moves int) error {
				return tx.Tables().AppendMove(move(tb.ID, moves, tb.Version+1))
			}, false, 1, 0},
			{"SentWithTheTablesUpdate", func(tx domain.Tx, tb domain.Table, moves int) error {
				locked, err := tx.Tables().Lock(tb.ID)
				if err != nil {
					return err
				}
				for i := range 3 { // a player's move, and the bots' after it
					locked.Version++
					if err := tx.Tables().AppendMove(move(tb.ID, moves+i, locked.Version)); err != nil {
						return err
					}
				}
				return tx.Tables().Update(locked)
			}, false, 3, 3},
			{"BeforeADealsUpdateAndTheTables", func(tx domain.Tx, tb domain.Table, moves int) error {
				locked, err := tx.Tables().Lock(tb.ID)
				if err != nil {
					return err
				}
				locked.Version++
				if err := tx.Tables().AppendMove(move(tb.ID, moves, locked.Version)); err != nil {
					return err
				}
				d, err := tx.Tables().Deal(tb.ID, 1)
				if err != nil {
					return err
				}
				d.Moves = moves + 1
				if err := tx.Tables().UpdateDeal(d); err != nil {
					return err
				}
				return tx.Tables().Update(locked)
			}, false, 1, 1},
			{"ATakenIndexFailsTheTransaction", func(tx domain.Tx, tb domain.Table, moves int) error {
				locked, err := tx.Tables().Lock(tb.ID)
				if err != nil {
					return err
				}
				locked.Version++
				if err := tx.Tables().AppendMove(move(tb.ID, moves-1, locked.Version)); err != nil {
					return err
				}
				return tx.Tables().Update(locked)
			}, true, 0, 0},
		} {
			t.Run(c.name, func(t *testing.T) {
				tb := playingTable(t, db)
				before := movesOf(t, db, tb.ID)
				err := db.InTx(t.Context(), func(tx domain.Tx) error { return c.play(tx, tb, before) })
				if (err != nil) != c.wantErr {
					t.Fatalf("the transaction: %v; want an error: %v", err, c.wantErr)
				}
				store.ForgetTables(db)
				var after domain.Table
				if err := db.View(t.Context(), func(tx domain.Tx) (err error) { after, err = tx.Tables().Get(tb.ID); return err }); err != nil {
					t.Fatal(err)
				}
				if got := movesOf(t, db, tb.ID) - before; got != c.wantMoves || after.Version-tb.Version != c.wantGrow {
					t.Errorf("%d moves written, version %d → %d; want %d moves, %d more", got, tb.Version, after.Version, c.wantMoves, c.wantGrow)
				}
			})
		}
	})
}

// playingTable is a table of two with its first deal and one move.
func playingTable(t *testing.T, db *store.DB) domain.Table {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Microsecond)
	var tb domain.Table
	err := db.InTx(t.Context(), func(tx domain.Tx) error {
		u := domain.User{Email: "a" + now.Format("150405.000000000") + "@example.com", Name: "A", CreatedAt: now, UpdatedAt: now}
		if err := tx.Users().Create(&u, "hash"); err != nil {
			return err
		}
		tb = domain.Table{CreatorID: u.ID, Rules: "fibur", Options: []byte(`{}`), Players: 2, InviteCode: "code" + u.Email,
			Status: domain.TablePlaying, Version: 2, DealNumber: 1, ClockUsed: []int64{}, BankLeft: []int64{}, CreatedAt: now,
			UpdatedAt: now, ClaimPolicy: domain.ClaimDraw, Seats: []domain.Seat{{Seat: 0, UserID: &u.ID, JoinedAt: &now}, {Seat: 1, Bot: true}}}
		if err := tx.Tables().Create(&tb); err != nil {
			return err
		}
		d := domain.TableDeal{TableID: tb.ID, Number: 1, Seed: 7, Totals: []int{0, 0}, Position: []byte(`{}`), StartedAt: now}
		if err := tx.Tables().CreateDeal(d); err != nil {
			return err
		}
		return tx.Tables().AppendMove(move(tb.ID, 0, 2))
	})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func move(table int64, index int, version int64) domain.TableMove {
	return domain.TableMove{TableID: table, Deal: 1, Index: index, Seat: index % 2, Move: []byte(`{"move":"draw"}`),
		At: time.Now(), Version: version, Taken: []byte(`[]`)}
}

func movesOf(t *testing.T, db *store.DB, table int64) int {
	t.Helper()
	var n int
	if err := db.SQL().QueryRow(`SELECT count(*) FROM table_moves WHERE table_id = $1`, table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
