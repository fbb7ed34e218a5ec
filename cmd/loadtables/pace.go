package main

import (
	"context"
	"math/rand/v2"
	"time"
)

// thinkJitter is the spread of a think time around -think: each pause is
// drawn uniformly from [think·(1−thinkJitter), think·(1+thinkJitter)], so its
// mean is -think and tables that started together drift apart within a few
// moves instead of moving in lockstep (a thousand tables each moving on the
// same tick would measure bursts, not a room of people).
const thinkJitter = 0.25

// pace is how long a seat's client thinks before each move (a draw or a
// discard): nothing at bots' pace (-think 0), a human's pause otherwise.
type pace struct {
	think time.Duration
	// uniform draws from [0, 1) (rand.Float64; a fixed sequence in tests);
	// sleep waits d or until ctx ends, and reports whether it waited out d
	// (time.Timer; a recorder in tests).
	uniform func() float64
	sleep   func(ctx context.Context, d time.Duration) bool
}

// humanPace is the pace of -think: math/rand/v2's global source (safe for
// every seat's goroutine at once) and a real timer.
func humanPace(think time.Duration) pace {
	return pace{think: think, uniform: rand.Float64, sleep: sleepCtx}
}

// next is the next pause: 0 at bots' pace.
func (p pace) next() time.Duration {
	if p.think <= 0 {
		return 0
	}
	f := 1 - thinkJitter + 2*thinkJitter*p.uniform()
	return time.Duration(float64(p.think) * f)
}

// wait pauses before a move and reports whether the seat should still move
// (false once ctx ended: the table was called stuck or the run timed out).
func (p pace) wait(ctx context.Context) bool {
	d := p.next()
	if d == 0 {
		return ctx.Err() == nil
	}
	return p.sleep(ctx, d)
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
