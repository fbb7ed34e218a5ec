package domain

import "time"

// chargeClock books the time of a turn that a move of seat has just ended
// (the turn passed on, or the deal ended) to the seat's match clock, and
// starts the next turn's clock. Moves within a turn book nothing: a turn
// (mano) is the take, the melds and the discard together.
func (s *tableService) chargeClock(p *playing, seat int, now time.Time) {
	t := p.t
	if !p.game.Over() && p.game.Turn() == seat {
		return
	}
	if t.TurnStartedAt != nil && seat < len(t.ClockUsed) {
		t.ClockUsed[seat] += now.Sub(*t.TurnStartedAt).Milliseconds()
	}
	t.TurnStartedAt = &now
}
