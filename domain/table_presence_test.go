package domain

import (
	"testing"
	"time"
)

// TestSeatPresenceFollowsPollsAndTheGrace: a seat is present while a poll
// of its player is open (however long), and for PresenceGrace after the
// last ended; then gone since that end, its window ending ReconnectSeconds
// later; a seat never seen is gone since the book began (or the player sat,
// if later), its window counted from the match's start at the earliest.
func TestSeatPresenceFollowsPollsAndTheGrace(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	seats := presenceSeats{id: 7, users: []int64{1, 2, 0, 4}, joined: []time.Time{t0, t0, {}, at(30)},
		started: at(5), reconnect: 60, playing: true}
	b := newPresenceBook()
	b.enter(7, 1, t0) // a long poll of seat 0, open for a minute
	b.touch(7, 2, t0) // a poll of seat 1 answered at once
	end := func(s int) *time.Time { e := at(s); return &e }
	for _, c := range []struct {
		name string
		now  int
		act  func()
		want []SeatPresence
	}{
		{name: "AllSeenJustNow", now: 9, want: []SeatPresence{
			{Seat: 0, Present: true, Since: t0}, {Seat: 1, Present: true, Since: t0},
			{Seat: 3, Since: at(30), WindowEnds: end(90)}}},
		{name: "AShortPollIsGoneAfterTheGrace", now: 10, want: []SeatPresence{
			{Seat: 0, Present: true, Since: t0}, {Seat: 1, Since: t0, WindowEnds: end(65)},
			{Seat: 3, Since: at(30), WindowEnds: end(90)}}},
		{name: "AnOpenPollKeepsItsSeatPresent", now: 60, act: func() { b.leave(7, 1, at(60)) }, want: []SeatPresence{
			{Seat: 0, Present: true, Since: t0}, {Seat: 1, Since: t0, WindowEnds: end(65)},
			{Seat: 3, Since: at(30), WindowEnds: end(90)}}},
		{name: "GoneSinceTheLastPollEnded", now: 70, want: []SeatPresence{
			{Seat: 0, Since: at(60), WindowEnds: end(120)}, {Seat: 1, Since: t0, WindowEnds: end(65)},
			{Seat: 3, Since: at(30), WindowEnds: end(90)}}},
		{name: "BackIsPresentFromItsPoll", now: 80, act: func() { b.touch(7, 2, at(80)) }, want: []SeatPresence{
			{Seat: 0, Since: at(60), WindowEnds: end(120)}, {Seat: 1, Present: true, Since: at(80)},
			{Seat: 3, Since: at(30), WindowEnds: end(90)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.act != nil {
				c.act()
			}
			got := b.of(seats, at(c.now))
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i, w := range c.want {
				g := got[i]
				if g.Seat != w.Seat || g.Present != w.Present || !g.Since.Equal(w.Since) ||
					(g.WindowEnds == nil) != (w.WindowEnds == nil) || g.WindowEnds != nil && !g.WindowEnds.Equal(*w.WindowEnds) {
					t.Errorf("seat %d: got %+v (window %v), want %+v (window %v)", w.Seat, g, g.WindowEnds, w, w.WindowEnds)
				}
			}
		})
	}
}
