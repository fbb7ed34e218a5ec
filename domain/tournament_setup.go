package domain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/vp"
)

// defaultSetup is the set-up of a new tournament of the given kind and
// movement before the organiser's choices.
func defaultSetup(kind TournamentKind, m Movement) TournamentSetup {
	s := TournamentSetup{Movement: m, Rounds: defaultRounds(m), MitchellStep: DefaultMitchellStep,
		TargetScore: DefaultTargetScore, RestVP: DefaultRestVP, RestMP: DefaultRestMP, Played: PlayedLive}
	if kind == TeamsTournament {
		s.TeamPairs = DefaultTeamPairs
	}
	return s
}

// defaultRounds is the rounds of a movement when not given: derived from
// the field (0) for round robin and knockout.
func defaultRounds(m Movement) int {
	if m == MovementRoundRobin || m == MovementKnockout {
		return 0
	}
	return DefaultRounds
}

// applySetup sets the fields of in that are given over s, for a tournament
// of the kind given. A new movement brings its default rounds unless they
// are given; the team pairs follow the kind (the default for teams, 0 for
// the others) unless given.
func applySetup(s *TournamentSetup, in SetupInput, kind TournamentKind) {
	if in.Movement != nil && *in.Movement != s.Movement && in.Rounds == nil {
		s.Rounds = defaultRounds(*in.Movement)
	}
	setIf(&s.Movement, in.Movement, nil)
	setIf(&s.Rounds, in.Rounds, nil)
	setIf(&s.MitchellStep, in.MitchellStep, nil)
	setIf(&s.TargetScore, in.TargetScore, nil)
	switch {
	case in.VPTable != nil:
		t := in.VPTable.Clone()
		s.VPTable = &t
	case in.BuiltinVPTable:
		s.VPTable = nil
	}
	if in.TieBreaks != nil {
		s.TieBreaks = slices.Clone(in.TieBreaks)
		if len(s.TieBreaks) == 0 {
			s.TieBreaks = nil // the default order
		}
	}
	setIf(&s.RestVP, in.RestVP, nil)
	setIf(&s.RestMP, in.RestMP, nil)
	setIf(&s.AbandonVP, in.AbandonVP, nil)
	setIf(&s.RemainingGetsRest, in.RemainingGetsRest, nil)
	setIf(&s.ForbidSameClub, in.ForbidSameClub, nil)
	setIf(&s.AvoidRepeatOpponents, in.AvoidRepeatOpponents, nil)
	setIf(&s.LateEntryRound, in.LateEntryRound, nil)
	switch {
	case in.TeamPairs != nil:
		s.TeamPairs = *in.TeamPairs
	case kind == TeamsTournament && s.TeamPairs == 0:
		s.TeamPairs = DefaultTeamPairs
	case kind != TeamsTournament:
		s.TeamPairs = 0
	}
	applyOnline(s, in)
}

// validateSetup records every invalid set-up field of t in v. The VP table
// in force bounds the VP fields.
func validateSetup(v *Validator, t *Tournament, in SetupInput) {
	s := &t.TournamentSetup
	v.Check(in.VPTable == nil || !in.BuiltinVPTable, "builtin_vp_table", "invalid",
		"builtin_vp_table goes back to the built-in table: do not give a vp_table with it")
	checkMovement(v, s)
	checkKindMovement(v, t.Kind, s.Movement)
	v.Check(s.MitchellStep >= 1 && s.MitchellStep <= MaxMitchellStep, "mitchell_step", "out_of_range",
		fmt.Sprintf("mitchell_step must be between 1 and %d tables", MaxMitchellStep))
	v.Check(s.TargetScore >= 1 && s.TargetScore <= MaxTargetScore, "target_score", "out_of_range",
		fmt.Sprintf("target_score must be between 1 and %d", MaxTargetScore))
	sum := checkVPTable(v, t)
	checkTieBreaks(v, s.TieBreaks)
	v.Check(s.RestVP >= 0 && s.RestVP <= sum, "rest_vp", "out_of_range", fmt.Sprintf("rest_vp must be between 0 and %d (the VP table's sum)", sum))
	checkMP(v, "rest_mp", s.RestMP, MaxRestMP)
	v.Check(s.AbandonVP >= 0 && s.AbandonVP <= sum, "abandon_vp", "out_of_range",
		fmt.Sprintf("abandon_vp must be between 0 (RULES' 6 or 8) and %d (the VP table's sum)", sum))
	lastRound := MaxRounds
	if s.Rounds > 0 {
		lastRound = s.Rounds
	}
	v.Check(s.LateEntryRound >= 0 && s.LateEntryRound <= lastRound, "late_entry_round", "out_of_range",
		fmt.Sprintf("late_entry_round must be between 0 (before the start only) and %d (the last round)", lastRound))
	checkTeamPairs(v, t.Kind, s.TeamPairs)
	checkOnline(v, s)
}

// checkMovement checks the movement and its rounds.
func checkMovement(v *Validator, s *TournamentSetup) {
	switch {
	case s.Movement == "":
		v.Add("movement", "required", "movement is required: one of "+movementList())
		return
	case !s.Movement.Valid():
		v.Add("movement", "invalid", "movement must be one of "+movementList())
		return
	}
	switch {
	case s.Movement == MovementKnockout:
		v.Check(s.Rounds == 0, "rounds", "invalid", "a knockout's rounds follow from its bracket: rounds must be 0")
	case s.Movement == MovementRoundRobin:
		v.Check(s.Rounds >= 0 && s.Rounds <= MaxRounds, "rounds", "out_of_range",
			fmt.Sprintf("rounds must be between 0 (every entry meets every other) and %d", MaxRounds))
	default:
		v.Check(s.Rounds >= 1 && s.Rounds <= MaxRounds, "rounds", "out_of_range",
			fmt.Sprintf("rounds must be between 1 and %d", MaxRounds))
	}
}

// checkKindMovement refuses the movements a kind cannot play, as the
// tournament's log would later (an individual event is drawn at random
// each round; a knockout is played by pairs): refused at the set-up, not
// found out at the first command (issue 15: every command answered 500).
func checkKindMovement(v *Validator, kind TournamentKind, m Movement) {
	switch {
	case kind == IndividualTournament && m != MovementRandom && m.Valid():
		v.Add("movement", "not_allowed", "an individual event changes partners by a draw each round: its movement is random")
	case m == MovementKnockout && kind.Valid() && kind != PairsTournament:
		v.Add("movement", "not_allowed", "a knockout is played by pairs")
	}
}

// defaultMovement is the movement of a new tournament of kind when none is
// given: random for an individual event (the only one it plays), else
// DefaultMovement.
func defaultMovement(kind TournamentKind) Movement {
	if kind == IndividualTournament {
		return MovementRandom
	}
	return DefaultMovement
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
func checkVPTable(v *Validator, t *Tournament) int {
	if t.VPTable == nil {
		if _, ok := t.VPTableInForce(); !ok && t.Kind.Valid() && t.DealsPerRound >= MinDealsPerRound && t.DealsPerRound <= MaxDealsPerRound {
			why := fmt.Sprintf("rounds of %d deals", t.DealsPerRound)
			if t.Kind == TeamsTournament {
				why = "team events"
			}
			v.Add("vp_table", "required", "there is no built-in VP table for "+why+" (RULES §10): give the event's own")
		}
		return vp.DefaultSum
	}
	for _, p := range t.VPTable.Validate() {
		field := "vp_table"
		if p.Band >= 0 {
			field = fmt.Sprintf("vp_table.bands[%d]", p.Band)
		}
		v.Add(field, p.Code, p.Message)
	}
	if t.VPTable.Sum > 0 {
		return t.VPTable.Sum
	}
	return vp.DefaultSum
}

// checkTieBreaks checks that every criterion is known and listed once.
func checkTieBreaks(v *Validator, crits []standings.Criterion) {
	for i, c := range crits {
		field := fmt.Sprintf("tie_breaks[%d]", i)
		switch {
		case !c.Valid():
			v.Add(field, "invalid", fmt.Sprintf("%q is not a tie-break: one of %s", c, criterionList()))
		case slices.Index(crits, c) < i:
			v.Add(field, "duplicate", fmt.Sprintf("%q is listed twice", c))
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
func checkMP(v *Validator, field string, mp, max int) {
	switch {
	case mp < 0 || mp > max:
		v.Add(field, "out_of_range", fmt.Sprintf("%s must be between 0 and %d", field, max))
	case mp%vp.Step != 0:
		v.Add(field, "not_multiple_5", field+" must be a multiple of 5, as all points are")
	}
}

// checkTeamPairs checks the pairs a team fields: team events only.
func checkTeamPairs(v *Validator, kind TournamentKind, pairs int) {
	switch {
	case kind == TeamsTournament:
		v.Check(pairs >= 2 && pairs <= MaxTeamPairs, "team_pairs", "out_of_range",
			fmt.Sprintf("team_pairs must be between 2 and %d", MaxTeamPairs))
	case pairs != 0:
		v.Add("team_pairs", "invalid", "team_pairs applies to team events only")
	}
}
