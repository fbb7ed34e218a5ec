package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
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
