package main

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/burraco/burraco/internal/servertest"
)

// TestALongPollIsWokenByAMoveWithParkingOnOrOff: a real serve process,
// with its long polls parked (the default) and with -park-polls=false (the
// operator's way back to net/http's own handling), answers a seat's long
// poll with the version a move made.
func TestALongPollIsWokenByAMoveWithParkingOnOrOff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	for _, tc := range []struct {
		name string
		env  []string
	}{
		{"parked", nil},
		{"unparked", []string{"BURRACO_PARK_POLLS=false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := servertest.Start(t, servertest.Options{Env: tc.env})
			a := newPlayer(t, srv.URL, "anna@example.com")
			var tb struct {
				ID int64 `json:"id"`
			}
			a.must("POST", "/api/v1/tables", map[string]any{"rules": "fibur", "players": 2, "auto_start": true, "grace_seconds": 0}, 201, &tb)
			a.must("POST", tablesPath(tb.ID, "bots"), nil, 200, nil)
			for round := range 3 {
				var st tableState
				a.must("GET", tablesPath(tb.ID, "state"), nil, 200, &st)
				type answer struct {
					code int
					body []byte
				}
				answered := make(chan answer, 1)
				go func() {
					code, b, _ := a.send("GET", fmt.Sprintf("%s?since=%d&wait=30", tablesPath(tb.ID, "state"), st.Version), nil)
					answered <- answer{code, b}
				}()
				time.Sleep(200 * time.Millisecond) // the poll is waiting (parked or not)
				if _, err := a.playTurn(st); err != nil {
					t.Fatal(err)
				}
				select {
				case got := <-answered:
					var after tableState
					if got.code != 200 || json.Unmarshal(got.body, &after) != nil || after.Version <= st.Version {
						t.Fatalf("round %d: the poll since %d answered %d %s", round, st.Version, got.code, got.body)
					}
				case <-time.After(20 * time.Second):
					t.Fatalf("round %d: the poll since %d was not woken by the move", round, st.Version)
				}
			}
		})
	}
}
