package tourney

import (
	"fmt"

	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/vp"
)

// Kinds of event (RULES §10).
const (
	KindPairs      = "pairs"
	KindTeams      = "teams"
	KindIndividual = "individual"
)

// Movements.
const (
	Mitchell       = "mitchell"
	Danish         = "danish"
	ModifiedDanish = "modified_danish"
	RoundRobin     = "round_robin"
	Random         = "random"
	Knockout       = "knockout"
)

// Defaults of the set-up's zero values.
const (
	DefaultTargetScore = 2005
	DefaultRestVP      = 14
	DefaultRestMP      = 355
	DefaultTeamPairs   = 2
	MaxRounds          = 99
	MaxDealsPerRound   = 8
)

// Setup is how a tournament is played, from the tournament record; the
// service fills it. Zero values take the defaults documented per field.
type Setup struct {
	Kind            string // "pairs" | "teams" | "individual"
	PlayersPerTable int    // 4 or 2 (individual needs 4)
	// Movement is "mitchell" | "danish" | "modified_danish" | "round_robin"
	// | "random" | "knockout". Individual events use "random" (partners
	// change by a drawn search, pairing.Individual); knockout is for pairs.
	Movement     string
	MitchellStep int // tables EW move per round (0: 1)
	// Rounds is the planned number of rounds; a knockout derives its own
	// from the bracket and ignores it; 0 in a round robin means a complete
	// one (every entry meets every other: n−1 rounds, n when n is odd).
	Rounds        int
	DealsPerRound int // 1..8 (2..4 typical)
	// TargetScore is a knockout table's target (0: 2005): the table plays
	// until a side has reached it at the end of a deal with the totals
	// different; deals played while tied at or past it are tie-break deals.
	TargetScore int
	// VP is the MP→VP table; nil means vp.Builtin(DealsPerRound), which
	// exists for 3 and 4 deals only: other lengths and team events need it.
	// A knockout does not use it (a table won is 1 VP, lost 0).
	VP *vp.Table
	// TieBreaks is the standings' order (nil: standings.DefaultTieBreaks).
	TieBreaks []standings.Criterion
	// RestVP and RestMP are the bye (rest) score (both 0: 14 VP, 355 MP).
	RestVP, RestMP int
	// AbandonVP is the most VP an entry that abandons keeps (0: 6 in rounds
	// of up to 3 deals, 8 from 4); RemainingGetsRest gives the entry left
	// at the table the rest score instead of what it scored.
	AbandonVP         int
	RemainingGetsRest bool
	ForbidSameClub    bool
	// AvoidRepeatOpponents makes a modified Danish avoid every earlier
	// opponent while it can, the last round included (beyond RULES §10,
	// which refuses only the previous round's and pairs the last round as
	// pure Danish). Other movements ignore it.
	AvoidRepeatOpponents bool
	// LateEntryRound: entries are accepted while the next round to draw is
	// at most this round (0: only before the start). Fixed schedules
	// (Mitchell, round robin, knockout) take no late entries.
	LateEntryRound int
	TeamPairs      int    // teams: pairs (tables) a team fields per match (0: 2)
	Rules          string // engine rule set id (fibur, fibur-row, reale, aberto, fechado): plausible score ranges
	// RoundUp10 is the Brazilian option round_up_10: a side's deal total is
	// its parts' sum rounded up to a multiple of 10.
	RoundUp10 bool
	LotsSeed  uint64 // seed of the lots draw (set by the service at creation, crypto random)
	// Online: the rounds are played at online tables and the engine writes
	// the sheets (see OpenOnlineTables); scores by hand are refused.
	Online bool
}

// normalized is s with its defaults filled in and the VP table resolved.
// It does not validate.
func (s Setup) normalized() Setup {
	if s.MitchellStep == 0 {
		s.MitchellStep = 1
	}
	if s.TargetScore == 0 {
		s.TargetScore = DefaultTargetScore
	}
	if s.RestVP == 0 && s.RestMP == 0 {
		s.RestVP, s.RestMP = DefaultRestVP, DefaultRestMP
	}
	if s.Kind == KindTeams && s.TeamPairs == 0 {
		s.TeamPairs = DefaultTeamPairs
	}
	if s.Kind != KindTeams {
		s.TeamPairs = 1
	}
	if s.TieBreaks == nil {
		s.TieBreaks = append([]standings.Criterion(nil), standings.DefaultTieBreaks...)
	}
	if s.VP == nil {
		if t, ok := vp.Builtin(s.DealsPerRound); ok {
			s.VP = &t
		}
	} else {
		t := s.VP.Clone()
		s.VP = &t
	}
	return s
}

// validate lists every problem of a normalized set-up.
func (s Setup) validate() error {
	var ps problems
	s.validateShape(&ps)
	s.validateScoring(&ps)
	return ps.err(CodeInvalidSetup, "the set-up is not valid")
}

func (s Setup) validateShape(ps *problems) {
	switch s.Kind {
	case KindPairs, KindTeams, KindIndividual:
	default:
		ps.add("kind", PUnknown, "kind %q is not pairs, teams or individual", s.Kind)
	}
	if s.PlayersPerTable != 4 && s.PlayersPerTable != 2 {
		ps.add("players_per_table", PUnknown, "players per table must be 4 or 2, not %d", s.PlayersPerTable)
	} else if s.Kind == KindIndividual && s.PlayersPerTable != 4 {
		ps.add("players_per_table", PNotAllowed, "an individual event needs tables of 4 (partners change)")
	}
	switch s.Movement {
	case Mitchell, Danish, ModifiedDanish, RoundRobin, Random, Knockout:
	default:
		ps.add("movement", PUnknown, "movement %q is not known", s.Movement)
	}
	if s.Kind == KindIndividual && s.Movement != Random {
		ps.add("movement", PNotAllowed, "an individual event changes partners by a draw: its movement is random")
	}
	if s.Movement == Knockout && s.Kind != KindPairs {
		ps.add("movement", PNotAllowed, "a knockout is played by pairs")
	}
	if s.MitchellStep < 1 {
		ps.add("mitchell_step", POutOfRange, "the Mitchell step must be 1 or more")
	}
	fullRoundRobin := s.Movement == RoundRobin && s.Rounds == 0 // as many rounds as the field needs
	if s.Movement != Knockout && !fullRoundRobin && (s.Rounds < 1 || s.Rounds > MaxRounds) {
		ps.add("rounds", POutOfRange, "rounds must be 1 to %d, not %d", MaxRounds, s.Rounds)
	}
	if s.DealsPerRound < 1 || s.DealsPerRound > MaxDealsPerRound {
		ps.add("deals_per_round", POutOfRange, "deals per round must be 1 to %d, not %d", MaxDealsPerRound, s.DealsPerRound)
	}
	if s.TeamPairs < 1 || s.TeamPairs > 8 {
		ps.add("team_pairs", POutOfRange, "a team fields 1 to 8 pairs per match, not %d", s.TeamPairs)
	}
	if s.LateEntryRound < 0 {
		ps.add("late_entry_round", POutOfRange, "the late-entry round cannot be negative")
	}
	if _, ok := ruleRanges[s.Rules]; !ok {
		ps.add("rules", PUnknown, "rule set %q is not known", s.Rules)
	}
	if s.RoundUp10 && s.Rules != "aberto" && s.Rules != "fechado" {
		ps.add("round_up_10", PNotAllowed, "round_up_10 is an option of aberto and fechado only")
	}
}

func (s Setup) validateScoring(ps *problems) {
	if s.TargetScore < 5 || s.TargetScore%5 != 0 {
		ps.add("target_score", PNotMultiple, "the target score must be a positive multiple of 5")
	}
	if s.Movement != Knockout {
		switch {
		case s.VP == nil && s.Kind == KindTeams:
			ps.add("vp", PRequired, "a team event needs the organiser's team VP table")
		case s.VP == nil:
			ps.add("vp", PRequired, "there is no built-in VP table for %d-deal rounds: the organiser sets one", s.DealsPerRound)
		default:
			for _, p := range s.VP.Validate() {
				field := "vp"
				if p.Band >= 0 {
					field = fmt.Sprintf("vp.bands[%d]", p.Band)
				}
				ps.add(field, p.Code, "%s", p.Message)
			}
		}
	}
	seen := map[standings.Criterion]bool{}
	for i, c := range s.TieBreaks {
		if !c.Valid() || seen[c] {
			ps.add(fmt.Sprintf("tie_breaks[%d]", i), PUnknown, "tie-break %q is not known or is listed twice", c)
		}
		seen[c] = true
	}
	if s.RestVP < 0 || s.RestMP%5 != 0 {
		ps.add("rest", POutOfRange, "the rest score must be VP ≥ 0 and MP a multiple of 5")
	}
	if s.AbandonVP < 0 {
		ps.add("abandon_vp", POutOfRange, "the abandonment VP cannot be negative")
	}
}

// rangeSet is the plausible range of each part of a side's deal score under
// one rule set (RULES §7a): Deck is the value of every card of the pack, the
// most a side can meld or hold; Bonus the most burraco bonuses a side can
// score in a deal.
type rangeSet struct{ Deck, Bonus int }

// ruleRanges: fibur 108 cards (jokers 30, 2s 20) = 1080; reale 104 cards
// without jokers = 960; Brazilian 108 cards with 2s at 10 and jokers up to 50
// (option joker_points) = 1080. Bonuses: fifteen clean burraco at most in
// fibur (3000); reale's A..A is 1000 and seven fit in a pack (7000);
// Brazilian canastras of 2s are 1000 (5000 is plenty).
var ruleRanges = map[string]rangeSet{
	"fibur":     {Deck: 1080, Bonus: 3000},
	"fibur-row": {Deck: 1080, Bonus: 3000},
	"reale":     {Deck: 960, Bonus: 7000},
	"aberto":    {Deck: 1080, Bonus: 5000},
	"fechado":   {Deck: 1080, Bonus: 5000},
}
