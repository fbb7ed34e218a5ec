package store_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestLobbyListsWhatGetReads: the lobby's page, whose rows and seats come
// from the table cache when it holds their version, is what Get reads
// table by table, after each change of seats and row made by another
// handle on the database (another server process) as by this one, warm
// and cold.
func TestLobbyListsWhatGetReads(t *testing.T) {
	for dialect, url := range map[string]func(t testing.TB) string{
		store.SQLite:   storetest.SQLiteURL,
		store.Postgres: storetest.PostgresURL,
	} {
		t.Run(dialect, func(t *testing.T) {
			ctx := t.Context()
			u := url(t)
			a, b := openMigrated(t, u), openMigrated(t, u)
			now := time.Now().UTC().Truncate(time.Microsecond)
			var users [3]domain.User
			var ids []int64
			err := a.InTx(ctx, func(tx domain.Tx) error {
				for i, name := range []string{"Anna", "Bruno", "Carla"} {
					users[i] = domain.User{Email: strings.ToLower(name) + "@example.com", Name: name, CreatedAt: now, UpdatedAt: now}
					if err := tx.Users().Create(&users[i], "hash"); err != nil {
						return err
					}
				}
				for i := range 3 {
					tb := domain.Table{CreatorID: users[0].ID, Rules: "fibur", Options: []byte(`{}`), Players: 2, InviteCode: fmt.Sprint("code", i),
						Status: domain.TableOpen, FreeSeats: 1, Version: 1, ClockUsed: []int64{}, CreatedAt: now, UpdatedAt: now,
						Seats: []domain.Seat{{Seat: 0, UserID: &users[0].ID, JoinedAt: &now}, {Seat: 1}}}
					if err := tx.Tables().Create(&tb); err != nil {
						return err
					}
					ids = append(ids, tb.ID)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			sit := func(id int64, user int) func(tx domain.Tx) error {
				return func(tx domain.Tx) error {
					tb, err := tx.Tables().Lock(id)
					if err != nil {
						return err
					}
					s := domain.Seat{Seat: 1, UserID: &users[user].ID, JoinedAt: &now}
					if err := tx.Tables().SetSeat(id, s); err != nil {
						return err
					}
					tb.FreeSeats--
					tb.Version++
					return tx.Tables().Update(tb)
				}
			}
			leave := func(id int64) func(tx domain.Tx) error {
				return func(tx domain.Tx) error {
					tb, err := tx.Tables().Lock(id)
					if err != nil {
						return err
					}
					if err := tx.Tables().SetSeat(id, domain.Seat{Seat: 1}); err != nil {
						return err
					}
					tb.FreeSeats++
					tb.Version++
					return tx.Tables().Update(tb)
				}
			}
			steps := []struct {
				name   string
				db     *store.DB
				change func(tx domain.Tx) error
			}{
				{"Created", a, nil},
				{"BrunoSitsHere", a, sit(ids[0], 1)},
				{"CarlaSitsThere", b, sit(ids[1], 2)},
				{"BrunoLeavesThere", b, leave(ids[0])},
				{"BrunoSitsAgainHere", a, sit(ids[0], 1)},
				{"StatusThere", b, func(tx domain.Tx) error {
					tb, err := tx.Tables().Lock(ids[2])
					if err != nil {
						return err
					}
					tb.Status, tb.Version = domain.TablePlaying, tb.Version+1
					return tx.Tables().Update(tb)
				}},
			}
			for _, st := range steps {
				if st.change != nil {
					if err := st.db.InTx(ctx, st.change); err != nil {
						t.Fatalf("%s: %v", st.name, err)
					}
				}
				for _, db := range []*store.DB{a, b} {
					for _, cold := range []bool{false, true} {
						if cold {
							store.ForgetTables(db)
						}
						var page []domain.Table
						err := db.View(ctx, func(tx domain.Tx) error {
							var err error
							page, _, err = tx.Tables().List(domain.TableFilter{Limit: 20}, 0)
							return err
						})
						if err != nil {
							t.Fatal(err)
						}
						if len(page) != len(ids) {
							t.Fatalf("%s: %d tables listed", st.name, len(page))
						}
						for _, got := range page {
							want, err := readTable(t, db, got.ID)
							if err != nil {
								t.Fatal(err)
							}
							if !reflect.DeepEqual(got, want) {
								t.Errorf("%s (cold %v): listed\n%+v\nread\n%+v", st.name, cold, got, want)
							}
						}
					}
				}
			}
		})
	}
}
