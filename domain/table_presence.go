package domain

import (
	"fmt"
	"sync"
	"time"
)

// PresenceGrace is how long a seat stays present after its last poll or
// stream ended (or its last move): a client polling without a wait, or
// between two long polls, is not gone for that gap.
const PresenceGrace = 10 * time.Second

// SeatPresence is whether a seated player is at the table (issue 29), as
// this server process knows from their requests: present while they hold a
// long poll or an event stream open on the table, or ended one (or polled,
// moved, claimed or aborted) less than PresenceGrace ago; gone otherwise.
type SeatPresence struct {
	Seat    int
	Present bool
	// Since is, for a present seat, since when it has been present without a
	// break; for a gone seat, when it was last seen, or, when this process
	// has not seen it, when the process began to count presence or the
	// player took the seat, whichever is later (a server restarted does
	// not count its downtime against anybody).
	Since time.Time
	// WindowEnds is, for a gone seat of a playing table, when its reconnect
	// window ends (Since plus the table's ReconnectSeconds, counted from the
	// match's start at the earliest): the others may claim from then.
	WindowEnds *time.Time
}

// presenceBook keeps, in this process's memory, when each player was last
// seen at each table. It writes nothing to the database: a poll is the hot
// path. With several server processes, each knows only the polls it serves
// (see TableService.Presence).
type presenceBook struct {
	mu    sync.Mutex
	seen  map[presenceKey]*seen
	floor time.Time // nothing seen before this is known: the start, or the last prune
}

type presenceKey struct {
	table int64
	user  int64
}

type seen struct {
	open  int       // polls and streams open now
	last  time.Time // when a poll last began or ended, or the player moved
	since time.Time // the start of the current presence
}

// maxPresence bounds the entries kept; past it, those with nothing open
// are dropped, and the floor moves up (their players count as unseen from
// then: a longer window, never a shorter one).
const maxPresence = 50_000

func newPresenceBook() *presenceBook { return &presenceBook{seen: map[presenceKey]*seen{}} }

func (e *seen) present(now time.Time) bool {
	return e.open > 0 || now.Sub(e.last) < PresenceGrace
}

// enter records a poll or stream of user at table id opened at now.
func (b *presenceBook) enter(id, user int64, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.floor.IsZero() {
		b.floor = now
	}
	k := presenceKey{id, user}
	e := b.seen[k]
	if e == nil {
		b.prune(now)
		e = &seen{}
		b.seen[k] = e
	}
	if !e.present(now) {
		e.since = now
	}
	e.open++
	e.last = now
}

// leave records the end of a poll or stream enter recorded.
func (b *presenceBook) leave(id, user int64, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e := b.seen[presenceKey{id, user}]; e != nil && e.open > 0 {
		e.open--
		e.last = now
	}
}

// touch records a sign of life of user at table id (a move) at now.
func (b *presenceBook) touch(id, user int64, now time.Time) {
	b.enter(id, user, now)
	b.leave(id, user, now)
}

// prune drops, when there are too many, the entries with nothing open.
func (b *presenceBook) prune(now time.Time) {
	if len(b.seen) < maxPresence {
		return
	}
	for k, e := range b.seen {
		if e.open == 0 {
			delete(b.seen, k)
		}
	}
	b.floor = now
}

// presenceSeats is what presence needs of a table: who sits where, since
// when, its window and whether its match is being played.
type presenceSeats struct {
	id        int64
	users     []int64 // per seat: 0 for empty or a bot
	joined    []time.Time
	started   time.Time // zero before the start
	reconnect int
	playing   bool
}

func presenceSeatsOf(t Table) presenceSeats {
	p := presenceSeats{id: t.ID, users: make([]int64, t.Players), joined: make([]time.Time, t.Players),
		reconnect: t.ReconnectSeconds, playing: t.Status == TablePlaying}
	if t.StartedAt != nil {
		p.started = *t.StartedAt
	}
	for _, s := range t.Seats {
		if s.UserID != nil && !s.Bot && s.Seat < t.Players {
			p.users[s.Seat] = *s.UserID
			if s.JoinedAt != nil {
				p.joined[s.Seat] = *s.JoinedAt
			}
		}
	}
	return p
}

// of returns the presence of each seat of t a user holds, at now; nil for
// a closed table (nobody sits at it any more).
func (b *presenceBook) of(t presenceSeats, now time.Time) []SeatPresence {
	var out []SeatPresence
	b.mu.Lock()
	defer b.mu.Unlock()
	floor := b.floor
	if floor.IsZero() || floor.After(now) {
		floor = now
	}
	for seat, user := range t.users {
		if user == 0 {
			continue
		}
		if out == nil {
			out = make([]SeatPresence, 0, len(t.users))
		}
		p := SeatPresence{Seat: seat}
		if e := b.seen[presenceKey{t.id, user}]; e != nil && e.present(now) {
			p.Present, p.Since = true, e.since
		} else {
			p.Since = later(floor, t.joined[seat])
			if e != nil {
				p.Since = later(p.Since, e.last)
			}
			if t.playing {
				end := later(p.Since, t.started).Add(time.Duration(t.reconnect) * time.Second)
				p.WindowEnds = &end
			}
		}
		out = append(out, p)
	}
	return out
}

// Presence implements TableService.
func (s *tableViews) Presence(id int64) ([]SeatPresence, bool) {
	seats, ok := s.notes.presenceSeats(id)
	if !ok || !seats.open() {
		return nil, ok
	}
	return s.presence.of(seats, s.now()), true
}

// open reports whether anyone sits at the table: open or playing.
func (p presenceSeats) open() bool { return p.users != nil }

// presenceSeats returns what presence needs of table id as last known.
func (n *tableNotifier) presenceSeats(id int64) (presenceSeats, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.tables[id]
	if w == nil || !w.known {
		return presenceSeats{}, false
	}
	return w.access.presence, true
}

// presenceOfTable is presenceSeatsOf for the notifier's entry: nothing for
// a closed table.
func presenceOfTable(t Table) presenceSeats {
	if t.Status.Closed() {
		return presenceSeats{id: t.ID}
	}
	return presenceSeatsOf(t)
}

// checkClaims records the invalid claim settings of a new table.
func checkClaims(v *Validator, t *Table, in TableInput) {
	t.ReconnectSeconds = DefaultReconnectSeconds
	if in.ReconnectSeconds != nil {
		t.ReconnectSeconds = *in.ReconnectSeconds
	}
	v.Check(t.ReconnectSeconds >= MinReconnectSeconds && t.ReconnectSeconds <= MaxClockSeconds, "reconnect_seconds",
		"out_of_range", fmt.Sprintf("reconnect_seconds must be from %d to %d", MinReconnectSeconds, MaxClockSeconds))
	t.ClaimPolicy = in.ClaimPolicy
	if t.ClaimPolicy == "" {
		t.ClaimPolicy = ClaimWin
	}
	v.Check(t.ClaimPolicy.Valid(), "claim_policy", "invalid", "claim_policy must be win, draw, bot or none")
}
