package engine

import "fmt"

// MatchFormat says when a match ends (RULES §10): after a fixed number of
// deals, or when a team reaches a target score at the end of a deal.
type MatchFormat struct {
	Deals         int  `json:"deals,omitempty"`          // fixed number of deals (0: play to Target)
	Target        int  `json:"target,omitempty"`         // target score (2005 default, 1005, 3000, …)
	RequireWinner bool `json:"require_winner,omitempty"` // fixed deals: a tie is broken by tie-break deals
}

// Validate reports whether the format can end a match: a positive number of
// deals, or (Deals 0) a positive target. Errors: ErrBadOption (a negative
// field, or neither deals nor a target: such a match would be over before
// its first deal).
func (f MatchFormat) Validate() error {
	switch {
	case f.Deals < 0:
		return ruleErr(ErrBadOption, fmt.Sprintf("match deals %d: must be 0 (play to the target) or more", f.Deals))
	case f.Target < 0:
		return ruleErr(ErrBadOption, fmt.Sprintf("match target %d: must be positive", f.Target))
	case f.Deals == 0 && f.Target == 0:
		return ruleErr(ErrBadOption, "match format: neither a number of deals nor a target score")
	}
	return nil
}

// MatchStatus is where a match stands after some deals.
type MatchStatus struct {
	Totals   []int `json:"totals"`    // running totals per team
	Over     bool  `json:"over"`      // no more deals
	Winner   int   `json:"winner"`    // winning team, -1 when none (not over, or a draw)
	Draw     bool  `json:"draw"`      // over without a winner
	TieBreak bool  `json:"tie_break"` // the next deal is a tie-break deal
}

// AddScores returns totals plus one deal's team totals (a new slice).
func AddScores(totals []int, deal []Score) []int {
	out := make([]int, max(len(totals), len(deal)))
	copy(out, totals)
	for t, s := range deal {
		out[t] += s.Total
	}
	return out
}

// RunningTotals sums the team totals of the deals played.
func RunningTotals(deals [][]Score) []int {
	var totals []int
	for _, d := range deals {
		totals = AddScores(totals, d)
	}
	return totals
}

// TargetReached reports whether some team has reached target.
func TargetReached(totals []int, target int) bool {
	for _, t := range totals {
		if t >= target {
			return true
		}
	}
	return false
}

// Leader returns the team with the highest total, or -1 when the highest
// total is shared (or there are no totals).
func Leader(totals []int) int {
	best, who := 0, -1
	for t, v := range totals {
		switch {
		case who == -1 && t == 0, v > best:
			best, who = v, t
		case v == best:
			who = -2
		}
	}
	return max(who, -1)
}

// Status returns the match status after the deals played. A format that
// fails Validate never ends a match: Status then reports the running totals
// only (not over, no winner); check formats with Validate when they are
// made.
func (f MatchFormat) Status(deals [][]Score) MatchStatus {
	totals := RunningTotals(deals)
	st := MatchStatus{Totals: totals, Winner: -1}
	if totals == nil || f.Validate() != nil {
		return st
	}
	var decided bool
	if f.Deals > 0 {
		decided = len(deals) >= f.Deals
	} else {
		decided = TargetReached(totals, f.Target)
	}
	if !decided {
		return st
	}
	if w := Leader(totals); w >= 0 {
		st.Over, st.Winner = true, w
		return st
	}
	if f.Deals > 0 && !f.RequireWinner {
		st.Over, st.Draw = true, true
		return st
	}
	st.TieBreak = true
	return st
}

// NextDealer returns the dealer of the next deal: the deal passes clockwise.
func NextDealer(dealer, players int) int { return (dealer + 1) % players }
