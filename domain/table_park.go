package domain

import (
	"context"
	"time"
)

// ParkedPoll is a long poll of a table's version held without a goroutine
// of its own (issue 30: a waiting poll's goroutine and connection were most
// of what a playing table cost). It looks at the table as Watch does, and
// when it would wait, it has a function run at the table's next change
// instead (context.AfterFunc on the notifier's entry: no goroutine until
// then). The seat's presence counts from its first look to End, as a
// Watch's does for its whole wait. Look and End are not safe for
// concurrent use: the caller calls them one at a time.
type ParkedPoll struct {
	s      *tableViews
	actor  Actor
	id     int64
	invite string
	since  int64

	seen, reclaimed bool
	done            func()      // the notifier's count of this waiter, while parked
	stop            func() bool // the function registered for the next change
}

// Park implements TableService.
func (s *tableService) Park(actor Actor, id int64, invite string, since int64) *ParkedPoll {
	return &ParkedPoll{s: s.views, actor: actor, id: id, invite: invite, since: since}
}

// Look is one look of Watch: when the version is past since, or the look
// fails, it answers (answered true) the version and the actor's seat, as
// Watch would. Otherwise it returns the version and seat it saw and, when
// wake is not nil, has wake run once, in a goroutine of its own, at the
// table's next change (which may not move the version: the caller looks
// again then). A nil wake is the last look: the wait has ended.
func (p *ParkedPoll) Look(ctx context.Context, wake func()) (version int64, seat int, answered bool, err error) {
	p.unpark()
	for {
		version, seat, changed, done, err := p.s.look(ctx, p.actor, p.id, p.invite, p.since)
		if err == nil && seat >= 0 && !p.seen {
			p.seen = true // presence from memory, as Watch's wait records it
			p.s.presence.enter(p.id, p.actor.UserID, p.s.now())
		}
		if err == nil && seat >= 0 && !p.reclaimed && p.s.notes.away(p.id, seat) {
			p.reclaimed = true // the player a bot stands in for is back (as in wait)
			if done != nil {
				done()
			}
			if err := p.s.referee.reclaim(ctx, p.actor, p.id); err != nil {
				return 0, -1, true, err
			}
			continue
		}
		if done == nil {
			return version, seat, true, err
		}
		if wake == nil {
			done()
			return version, seat, false, nil
		}
		p.done = done
		if changed != nil { // nil: a finished table read from the database, which nothing moves
			p.stop = context.AfterFunc(changed, wake)
		}
		return version, seat, false, nil
	}
}

// End ends the poll: the function registered for the next change is
// dropped (it may still run, if it already began), and the seat's presence
// ends.
func (p *ParkedPoll) End() {
	p.unpark()
	if p.seen {
		p.seen = false
		p.s.presence.leave(p.id, p.actor.UserID, p.s.now())
	}
}

func (p *ParkedPoll) unpark() {
	if p.stop != nil {
		p.stop()
		p.stop = nil
	}
	if p.done != nil {
		p.done()
		p.done = nil
	}
}

// Brisk implements TableService.
func (s *tableService) Brisk(id int64, d time.Duration) bool { return s.views.notes.brisk(id, d) }
