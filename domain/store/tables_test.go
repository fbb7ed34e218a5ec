package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTableUpdateStoresEveryChange: Update writes only the columns that
// differ from the row its transaction locked, so every column is changed
// here on its own, then several at once, twice in one transaction, and
// without a lock (every column written), and read back each time.
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
				CreatedAt: now, UpdatedAt: now,
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
			got, err := readTable(t, db, tb.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: read back\n%+v\nwant\n%+v", st.name, got, want)
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
