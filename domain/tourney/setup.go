package tourney

import (
	"fmt"
	"slices"
	"strings"

	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/vp"
)

// Kinds of event (RULES §10).
const (
	KindPairs      = "pairs"
	KindTeams      = "teams"
	KindIndividual = "individual"
)

// Movement is how a tournament's entries are paired round after round
// (RULES §10; package pairing).
type Movement string

// Movements.
const (
	Mitchell       Movement = "mitchell"        // NS stay, EW move MitchellStep tables each round
	Danish         Movement = "danish"          // pure Danish: 1–2, 3–4, … by standings
	ModifiedDanish Movement = "modified_danish" // Danish without a rematch of the previous round
	RoundRobin     Movement = "round_robin"     // all'italiana: every entry meets every other
	Random         Movement = "random"          // a random draw each round
	Knockout       Movement = "knockout"        // winners go on; tables play to TargetScore
)

// Movements lists the movements.
var Movements = []Movement{Mitchell, Danish, ModifiedDanish, RoundRobin, Random, Knockout}

// Valid reports whether m is one of the movements.
func (m Movement) Valid() bool { return slices.Contains(Movements, m) }

// Set-up defaults and limits. A table plays 2, 3 or 4 deals (smazzate) a
// round (RULES §10).
const (
	MinDealsPerRound    = 2
	MaxDealsPerRound    = 4
	DefaultRounds       = 4    // of a movement that needs a number of rounds
	DefaultMitchellStep = 1    // tables the EW pairs move per round
	DefaultTargetScore  = 2005 // of a knockout table (RULES §10's default target)
	DefaultRestVP       = 14   // RULES §10's example of a rest score
	DefaultRestMP       = 355
	DefaultTeamPairs    = 2
	MaxRounds           = 50
	MaxMitchellStep     = 20
	MaxTargetScore      = 1000000
	MaxRestMP           = 5000
	MaxTeamPairs        = 8
)

// Config is what a tournament's log is folded under: the frame the
// tournament record holds (kind, tables, deals, rule set, lots) and its
// Setup. The service fills it.
type Config struct {
	Kind            string // "pairs" | "teams" | "individual"
	PlayersPerTable int    // 4 or 2 (individual needs 4)
	DealsPerRound   int    // 2..4
	Rules           string // engine rule set id (fibur, fibur-row, reale, aberto, fechado): plausible score ranges
	// RoundUp10 is the Brazilian option round_up_10: a side's deal total is
	// its parts' sum rounded up to a multiple of 10.
	RoundUp10 bool
	LotsSeed  uint64 // seed of the lots draw (set by the service at creation, crypto random)
	// Online: the rounds are played at online tables and the engine writes
	// the sheets (see OpenOnlineTables); scores by hand are refused.
	Online bool
	Setup
}

// Setup is how a tournament is played beyond the rules of its tables: the
// movement, the rounds, the VP conversion, the tie-breaks and the scores of
// byes and abandoned tables (RULES §10), as the organiser chose it. It is
// one type from the request to the fold: the domain stores it, Problems
// validates it (the only place), and the fold plays it.
type Setup struct {
	Movement Movement
	// Rounds is the number of rounds; 0 means derived from the field when
	// the tournament starts (round robin: every entry meets every other:
	// n−1 rounds, n when n is odd; knockout: the bracket, where it is
	// always 0).
	Rounds int
	// MitchellStep is how many tables the EW pairs move each round in a
	// Mitchell.
	MitchellStep int
	// TargetScore is a knockout table's target: the table plays until a
	// side has reached it at the end of a deal with the totals different;
	// deals played while tied at or past it are tie-break deals.
	TargetScore int
	// VPTable is the organiser's own MP→VP table; nil means the built-in
	// table of RULES §10 for the deals per round (3 or 4: there is none for
	// 2-deal rounds nor for team events, which must give their own). A
	// knockout does not use it (a table won is 1 VP, lost 0).
	VPTable *vp.Table
	// TieBreaks is the order of the standings' criteria; nil means
	// standings.DefaultTieBreaks (VP, MP difference, head-to-head,
	// opponents' VP, lots).
	TieBreaks []standings.Criterion
	// RestVP and RestMP are what a bye scores (both 0: 14 VP, 355 MP).
	RestVP, RestMP int
	// AbandonVP is the most VP an entry that abandons keeps; 0 means RULES'
	// 6 (rounds of 2–3 deals) or 8 (4 deals).
	AbandonVP int
	// RemainingGetsRest gives the entry left at an abandoned table the rest
	// score instead of what it scored.
	RemainingGetsRest bool
	// ForbidSameClub keeps entries of the same club apart in the pairings.
	ForbidSameClub bool
	// AvoidRepeatOpponents makes a modified Danish avoid every earlier
	// opponent while it can, the last round included; off, it follows
	// RULES §10: only the previous round's opponent is refused, and the last
	// round is pure Danish. Other movements ignore it.
	AvoidRepeatOpponents bool
	// LateEntryRound: entries are accepted while the next round to draw is
	// at most this round (0: only before the start). Fixed schedules
	// (Mitchell, round robin, knockout) take no late entries.
	LateEntryRound int
	// TeamPairs is how many pairs a team fields per match (team events
	// only; 0 otherwise).
	TeamPairs int
	// Phases, when not empty, play the tournament in phases (issue 32,
	// docs/PHASES.md); Movement, MitchellStep, VPTable and Rounds then
	// mirror them (MirrorPhases). Nil: one phase, as before.
	Phases []Phase
}

// TieBreakOrder is the tie-break order in force: the organiser's or the
// default.
func (s Setup) TieBreakOrder() []standings.Criterion {
	if s.TieBreaks == nil {
		return slices.Clone(standings.DefaultTieBreaks)
	}
	return slices.Clone(s.TieBreaks)
}

// VPTableInForce is the table that converts MP of a tournament of kind
// playing dealsPerRound deals a round: the organiser's, or RULES §10's
// built-in one (3 or 4 deals, pairs and individual events); ok is false
// when there is neither.
func (s Setup) VPTableInForce(kind string, dealsPerRound int) (table vp.Table, ok bool) {
	switch {
	case s.VPTable != nil:
		return s.VPTable.Clone(), true
	case kind == KindTeams:
		return vp.Table{}, false // team tables are the organiser's (RULES §10)
	}
	return vp.Builtin(dealsPerRound)
}

// normalized is c with the defaults of its nil and zero values filled in
// (the VP table and tie-breaks in force, a non-team entry as one pair, the
// rest score) and the VP table copied. It does not validate.
func (c Config) normalized() Config {
	if c.RestVP == 0 && c.RestMP == 0 {
		c.RestVP, c.RestMP = DefaultRestVP, DefaultRestMP
	}
	if c.Kind != KindTeams {
		c.TeamPairs = 1
	}
	c.TieBreaks = c.TieBreakOrder()
	c.normalizePhases()
	t, ok := c.Setup.VPTableInForce(c.Kind, c.DealsPerRound) // a copy
	c.VPTable = nil
	if ok {
		c.VPTable = &t
	}
	return c
}

// validate lists every problem of the frame and the set-up.
func (c Config) validate() error {
	var ps problems
	switch c.Kind {
	case KindPairs, KindTeams, KindIndividual:
	default:
		ps.add("kind", PUnknown, "kind %q is not pairs, teams or individual", c.Kind)
	}
	if c.PlayersPerTable != 4 && c.PlayersPerTable != 2 {
		ps.add("players_per_table", PUnknown, "players per table must be 4 or 2, not %d", c.PlayersPerTable)
	} else if c.Kind == KindIndividual && c.PlayersPerTable != 4 {
		ps.add("players_per_table", PNotAllowed, "an individual event needs tables of 4 (partners change)")
	}
	if c.DealsPerRound < MinDealsPerRound || c.DealsPerRound > MaxDealsPerRound {
		ps.add("deals_per_round", POutOfRange, "deals per round must be %d to %d, not %d", MinDealsPerRound, MaxDealsPerRound, c.DealsPerRound)
	}
	if _, ok := ruleRanges[c.Rules]; !ok {
		ps.add("rules", PUnknown, "rule set %q is not known", c.Rules)
	}
	if c.RoundUp10 && c.Rules != "aberto" && c.Rules != "fechado" {
		ps.add("round_up_10", PNotAllowed, "round_up_10 is an option of aberto and fechado only")
	}
	ps = append(ps, c.Setup.Problems(c.Kind, c.DealsPerRound)...)
	return ps.err(CodeInvalidSetup, "the set-up is not valid")
}

// Problems lists every invalid field of the set-up of a tournament of kind
// playing dealsPerRound deals a round, named as the API names them. The
// VP table in force bounds the VP fields. A kind or deals per round that
// is not valid is the caller's to report; the checks that depend on it are
// left out.
func (s Setup) Problems(kind string, dealsPerRound int) []Problem {
	var ps problems
	s.checkMovement(&ps, kind)
	if s.MitchellStep < 1 || s.MitchellStep > MaxMitchellStep {
		ps.add("mitchell_step", POutOfRange, "mitchell_step must be between 1 and %d tables", MaxMitchellStep)
	}
	if s.TargetScore < 1 || s.TargetScore > MaxTargetScore {
		ps.add("target_score", POutOfRange, "target_score must be between 1 and %d", MaxTargetScore)
	}
	sum := s.checkVPTable(&ps, kind, dealsPerRound)
	checkTieBreaks(&ps, s.TieBreaks)
	if s.RestVP < 0 || s.RestVP > sum {
		ps.add("rest_vp", POutOfRange, "rest_vp must be between 0 and %d (the VP table's sum)", sum)
	}
	checkMP(&ps, "rest_mp", s.RestMP, MaxRestMP)
	if s.AbandonVP < 0 || s.AbandonVP > sum {
		ps.add("abandon_vp", POutOfRange, "abandon_vp must be between 0 (RULES' 6 or 8) and %d (the VP table's sum)", sum)
	}
	lastRound := MaxRounds
	if s.Rounds > 0 {
		lastRound = s.Rounds
	}
	if s.LateEntryRound < 0 || s.LateEntryRound > lastRound {
		ps.add("late_entry_round", POutOfRange, "late_entry_round must be between 0 (before the start only) and %d (the last round)", lastRound)
	}
	s.checkPhases(&ps, kind, dealsPerRound)
	switch {
	case kind == KindTeams:
		if s.TeamPairs < 2 || s.TeamPairs > MaxTeamPairs {
			ps.add("team_pairs", POutOfRange, "team_pairs must be between 2 and %d", MaxTeamPairs)
		}
	case s.TeamPairs != 0:
		ps.add("team_pairs", PInvalid, "team_pairs applies to team events only")
	}
	return ps
}

// checkMovement checks the movement, its rounds, and that the kind can
// play it (an individual event is drawn at random each round; a knockout
// is played by pairs): refused at the set-up, not found out at the first
// command (issue 15: every command answered 500).
func (s Setup) checkMovement(ps *problems, kind string) {
	switch {
	case s.Movement == "":
		ps.add("movement", PRequired, "movement is required: one of %s", movementList())
		return
	case !s.Movement.Valid():
		ps.add("movement", PInvalid, "movement must be one of %s", movementList())
		return
	}
	switch {
	case s.Movement == Knockout:
		if s.Rounds != 0 {
			ps.add("rounds", PInvalid, "a knockout's rounds follow from its bracket: rounds must be 0")
		}
	case len(s.Phases) > 0: // the phases' total: checkPhases bounds it
	case s.Movement == RoundRobin:
		if s.Rounds < 0 || s.Rounds > MaxRounds {
			ps.add("rounds", POutOfRange, "rounds must be between 0 (every entry meets every other) and %d", MaxRounds)
		}
	case s.Rounds < 1 || s.Rounds > MaxRounds:
		ps.add("rounds", POutOfRange, "rounds must be between 1 and %d", MaxRounds)
	}
	switch {
	case kind == KindIndividual && s.Movement != Random:
		ps.add("movement", PNotAllowed, "an individual event changes partners by a draw each round: its movement is random")
	case s.Movement == Knockout && kindValid(kind) && kind != KindPairs:
		ps.add("movement", PNotAllowed, "a knockout is played by pairs")
	}
}

func kindValid(kind string) bool {
	return kind == KindPairs || kind == KindTeams || kind == KindIndividual
}

func movementList() string {
	names := make([]string, len(Movements))
	for i, m := range Movements {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// checkVPTable checks the organiser's VP table, every problem of it, or that
// a built-in one exists, and returns the sum of the table in force (what a
// VP score is bounded by).
func (s Setup) checkVPTable(ps *problems, kind string, dealsPerRound int) int {
	if s.VPTable == nil {
		if _, ok := s.VPTableInForce(kind, dealsPerRound); !ok && kindValid(kind) &&
			dealsPerRound >= MinDealsPerRound && dealsPerRound <= MaxDealsPerRound {
			why := fmt.Sprintf("rounds of %d deals", dealsPerRound)
			if kind == KindTeams {
				why = "team events"
			}
			ps.add("vp_table", PRequired, "there is no built-in VP table for %s (RULES §10): give the event's own", why)
		}
		return vp.DefaultSum
	}
	for _, p := range s.VPTable.Validate() {
		field := "vp_table"
		if p.Band >= 0 {
			field = fmt.Sprintf("vp_table.bands[%d]", p.Band)
		}
		ps.add(field, p.Code, "%s", p.Message)
	}
	if s.VPTable.Sum > 0 {
		return s.VPTable.Sum
	}
	return vp.DefaultSum
}

// checkTieBreaks checks that every criterion is known and listed once.
func checkTieBreaks(ps *problems, crits []standings.Criterion) {
	for i, c := range crits {
		field := fmt.Sprintf("tie_breaks[%d]", i)
		switch {
		case !c.Valid():
			ps.add(field, PInvalid, "%q is not a tie-break: one of %s", c, criterionList())
		case slices.Index(crits, c) < i:
			ps.add(field, PDuplicate, "%q is listed twice", c)
		}
	}
}

func criterionList() string {
	all := []standings.Criterion{standings.ByVP, standings.ByMPDiff, standings.ByMPFor, standings.ByHeadToHead,
		standings.ByOpponentsVP, standings.ByLots}
	names := make([]string, len(all))
	for i, c := range all {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}

// checkMP checks match points: 0..max, a multiple of 5.
func checkMP(ps *problems, field string, mp, max int) {
	switch {
	case mp < 0 || mp > max:
		ps.add(field, POutOfRange, "%s must be between 0 and %d", field, max)
	case mp%vp.Step != 0:
		ps.add(field, PNotMultiple, "%s must be a multiple of 5, as all points are", field)
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
