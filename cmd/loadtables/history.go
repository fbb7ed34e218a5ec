package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// historyLen is how many answers a client keeps for a stuck table's report:
// a seat's last few dozen requests cover the table's last moves and the
// long polls' 304s since.
const historyLen = 50

// history is a client's last answers, oldest first once read: what a seat
// was told is what a stuck report needs (a seat that polls on while its
// turn has come was told something that did not show its turn, or did not
// act on what it was told).
type history struct {
	mu   sync.Mutex
	ring [historyLen]heard
	n    int // answers kept so far; ring[n%historyLen] is the next slot
}

// heard is one answer: the request, when it was sent and answered, its
// status and ETag, and for a table state what a player acts on.
type heard struct {
	request        string
	sent, answered time.Time
	code           int // -1: no answer (the error is in status)
	etag           string
	state          bool // the body is a table state: the fields below are its
	version        int64
	status         string
	deal, seat     int
	view           bool // a view was there: turn and phase are its
	turn           int
	phase          string
	hand           int // cards in the seat's hand
}

// add keeps h, forgetting the oldest answer past historyLen.
func (l *history) add(h heard) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring[l.n%historyLen] = h
	l.n++
}

// lines returns the answers kept, oldest first, one line each.
func (l *history) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	first := max(0, l.n-historyLen)
	out := make([]string, 0, l.n-first)
	for i := first; i < l.n; i++ {
		out = append(out, l.ring[i%historyLen].String())
	}
	return out
}

// String is one answer as a stuck report prints it: clock times (to find
// the request in a server's log or the database's rows, whose times are
// UTC), the time the server took, and what a player reads of the state.
func (h heard) String() string {
	s := fmt.Sprintf("%s +%s %s -> ", h.sent.UTC().Format("15:04:05.000"), h.answered.Sub(h.sent).Round(time.Millisecond), h.request)
	if h.code < 0 {
		return s + "no answer: " + h.status
	}
	s += fmt.Sprint(h.code)
	if h.etag != "" {
		s += " ETag " + h.etag
	}
	if !h.state {
		return s
	}
	s += fmt.Sprintf(" version %d %s deal %d seat %d", h.version, h.status, h.deal, h.seat)
	if !h.view {
		return s + " no view"
	}
	return s + fmt.Sprintf(" turn %d phase %s", h.turn, h.phase)
}

// summary is what a stuck table's report shows of the answer with body b
// that h was made of: a table state's version, status, turn and phase, or
// the body's first bytes.
func (h heard) summary(b []byte) string {
	if h.state {
		s := fmt.Sprintf("(version %d, %s, deal %d, seat %d", h.version, h.status, h.deal, h.seat)
		if h.view {
			s += fmt.Sprintf(", turn %d, phase %s, %d cards in hand", h.turn, h.phase, h.hand)
		}
		return s + ")"
	}
	if len(b) > 120 {
		b = b[:120]
	}
	return string(bytes.TrimSpace(b))
}

// errNotAState is answerState's error for an answer that is not 2xx.
var errNotAState = errors.New("not a 2xx answer")

// answerState reads a 2xx answer's body as a state.
func answerState(code int, b []byte) (tableState, error) {
	var st tableState
	if code/100 != 2 {
		return st, errNotAState
	}
	err := readState(b, &st)
	return st, err
}

// heardOf is what h keeps of an answer: st is its body read as a state
// (read: it was one, answerState).
func heardOf(request string, sent, answered time.Time, code int, etag string, st *tableState, read bool) heard {
	h := heard{request: request, sent: sent, answered: answered, code: code, etag: etag}
	if read && st.Table.ID != 0 {
		h.state, h.version, h.status, h.deal, h.seat = true, st.Table.Version, st.Table.Status, st.Table.DealNumber, st.Seat
		if st.View != nil {
			h.view, h.turn, h.phase, h.hand = true, st.View.Turn, st.View.Phase, len(st.View.Hand)
		}
	}
	return h
}

// stateNow asks the state of table id afresh (no since: answered at once)
// for each of its seats, once their clients have stopped: what the server
// says now beside what each seat was last told tells a wrong answer kept
// by the server (the same now) from one that was wrong only when it was
// made, or a client that did not act on a right one.
func stateNow(ctx context.Context, id int64, seats []*client) []string {
	out := make([]string, len(seats))
	for i, cl := range seats {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, _, _ = cl.do(rctx, "GET", fmt.Sprintf("/api/v1/tables/%d/state", id), nil, nil, nil)
		cancel()
		if ls := cl.heard.lines(); len(ls) > 0 {
			out[i] = ls[len(ls)-1]
		}
	}
	return out
}
