package domain

import (
	"slices"

	"github.com/burraco/burraco/domain/tourney"
)

// defaultSetup is the set-up of a new tournament of the given kind and
// movement before the organiser's choices.
func defaultSetup(kind TournamentKind, m Movement) TournamentSetup {
	s := TournamentSetup{Setup: tourney.Setup{Movement: m, Rounds: defaultRounds(m), MitchellStep: tourney.DefaultMitchellStep,
		TargetScore: tourney.DefaultTargetScore, RestVP: tourney.DefaultRestVP, RestMP: tourney.DefaultRestMP}, Played: PlayedLive}
	if kind == TeamsTournament {
		s.TeamPairs = tourney.DefaultTeamPairs
	}
	return s
}

// defaultRounds is the rounds of a movement when not given: derived from
// the field (0) for round robin and knockout.
func defaultRounds(m Movement) int {
	if m == MovementRoundRobin || m == MovementKnockout {
		return 0
	}
	return tourney.DefaultRounds
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
		s.TeamPairs = tourney.DefaultTeamPairs
	case kind != TeamsTournament:
		s.TeamPairs = 0
	}
	applyOnline(s, in)
	if in.Prizes != nil {
		s.Prizes = normalPrizes(*in.Prizes)
	}
	if in.Phases != nil {
		s.Phases = nil
		if len(*in.Phases) > 0 {
			s.Phases = slices.Clone(*in.Phases)
		}
	}
	s.MirrorPhases()
}

// validateSetup records every invalid set-up field of t in v: the request's
// own (builtin_vp_table), then the set-up's (tourney.Setup.Problems).
func validateSetup(v *Validator, t *Tournament, in SetupInput) {
	v.Check(in.VPTable == nil || !in.BuiltinVPTable, "builtin_vp_table", "invalid",
		"builtin_vp_table goes back to the built-in table: do not give a vp_table with it")
	for _, p := range t.Setup.Problems(string(t.Kind), t.DealsPerRound) {
		v.Add(p.Field, p.Code, p.Message)
	}
	checkOnline(v, &t.TournamentSetup)
	checkPrizes(v, t.Prizes, t.Phases)
	if len(t.Phases) > 0 {
		checkMirrored(v, in)
	}
}

// checkMirrored checks the set-up fields the phases then decide
// (tourney.Setup.MirrorPhases) as given: a value out of its range is
// refused even where the phases supersede it, so that what the request
// says is never silently wrong.
func checkMirrored(v *Validator, in SetupInput) {
	if in.MitchellStep != nil {
		v.Check(*in.MitchellStep >= 1 && *in.MitchellStep <= tourney.MaxMitchellStep, "mitchell_step", "out_of_range",
			"mitchell_step must be between 1 and 20 tables")
	}
	if in.Rounds != nil {
		v.Check(*in.Rounds >= 0 && *in.Rounds <= tourney.MaxRounds, "rounds", "out_of_range", "rounds must be between 0 and 50")
	}
	if in.Movement != nil {
		v.Check(in.Movement.Valid(), "movement", "invalid", "movement is not one of the movements")
	}
	if in.VPTable != nil {
		for _, p := range in.VPTable.Validate() {
			v.Add("vp_table", p.Code, p.Message)
		}
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
