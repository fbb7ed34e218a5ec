package engine

// LastRound is the last round of turns after a referee's time-out (RULES
// §10): the deal ends after the turn of seat Until (its discard), unless it
// ends sooner (a closing, which scores its bonus, or stock exhaustion).
// TurnsLeft counts the turns still to play, the one in progress included:
// a frontend shows "last round: N turns left".
type LastRound struct {
	Until     int `json:"until"`
	TurnsLeft int `json:"turns_left"`
}

// CallTimeOut is the referee's time-out (RULES §10). The last round of
// turns starts with the partner of the player due to take; if it is called
// before the player on turn has taken, a full round is played from that
// player. The deal then ends after that round, scored as it stands: no
// closing bonus unless a player closes during it (a legal closing scores
// the bonus and ends the deal at once, as always).
//
// Read literally (the decision recorded in the package doc): with 4 players,
// called during seat s's turn after s has taken, the player due to take is
// the next seat s+1 and its partner is s+3, who has just played; the round
// that starts with s+3 is the one in progress (s+3, s, s+1, s+2), so s
// finishes the turn, s+1 and s+2 play, and the deal ends after s+2's
// discard (3 turns left, s's included). Called before s has taken: the full
// round s, s+1, s+2, s+3 (4 turns). With 2 players each seat is its own
// team, so "the partner of the player due to take" is that player, s+1;
// the round that starts with s+1 is in progress (s+1, s) and the deal ends
// with s's discard (1 turn left); before s has taken, the full round s,
// s+1 (2 turns). "s+1" is the next seat in the direction of play.
//
// Errors: ErrDealOver when the deal has ended; ErrNotAllowed when the
// time-out was already called.
func (g *Game) CallTimeOut() error {
	switch {
	case !g.ready():
		return ruleErr(ErrBadPosition, "the game was not dealt or loaded")
	case g.phase == PhaseOver:
		return ruleErr(ErrDealOver, "the deal is over")
	case g.lastRound:
		return ruleErr(ErrNotAllowed, "the time-out was already called: the last round is being played")
	}
	g.lastRound, g.lastRoundUntil = true, g.timeOutUntil()
	return nil
}

// timeOutUntil returns the seat whose turn ends the last round of a
// time-out called now (see CallTimeOut).
func (g *Game) timeOutUntil() int {
	if g.phase == PhaseTake {
		return g.rules.prev(g.turn) // a full round from the player on turn
	}
	first := g.partner(g.rules.next(g.turn)) // starts the last round
	return g.rules.prev(first)
}

// partner returns the next seat after seat, in the direction of play, on
// seat's team; seat itself when it is alone in its team (2 players).
func (g *Game) partner(seat int) int {
	r := g.rules
	for s := r.next(seat); s != seat; s = r.next(s) {
		if r.Team(s) == r.Team(seat) {
			return s
		}
	}
	return seat
}

// LastRound reports the last round after a time-out, while it is played.
func (g *Game) LastRound() (LastRound, bool) {
	if !g.lastRound || g.phase == PhaseOver {
		return LastRound{}, false
	}
	return LastRound{Until: g.lastRoundUntil, TurnsLeft: g.turnsTo(g.lastRoundUntil)}, true
}

// turnsTo counts the turns from the one in progress to seat's, both
// included.
func (g *Game) turnsTo(seat int) int {
	n := 1
	for s := g.turn; s != seat && n <= g.rules.Players; s = g.rules.next(s) {
		n++
	}
	return n
}

// loadLastRound reads a position's last_round: Until must be a seat, the
// deal not over, and TurnsLeft (when given) agree with Until.
func (g *Game) loadLastRound(lr *LastRound) error {
	if lr == nil {
		return nil
	}
	switch {
	case lr.Until < 0 || lr.Until >= g.rules.Players:
		return badPos("last_round until seat %d out of range", lr.Until)
	case g.phase == PhaseOver:
		return badPos("last_round in a deal that is over")
	}
	g.lastRound, g.lastRoundUntil = true, lr.Until
	if want := g.turnsTo(lr.Until); lr.TurnsLeft != 0 && lr.TurnsLeft != want {
		return badPos("last_round turns_left %d, but %d turns lead to seat %d", lr.TurnsLeft, want, lr.Until)
	}
	return nil
}
