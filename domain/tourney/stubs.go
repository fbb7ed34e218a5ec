package tourney

import "github.com/burraco/burraco/domain/pairing"

// Skeleton: the implementation follows in the next commits.

var errTODO = errf(KindConflict, "not_implemented", "not implemented yet")

func (OpenRegistration) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (CloseRegistration) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (Start) decide(*State, Actor, pairing.Rand) (payload, string, error) { return nil, "", errTODO }
func (AddEntry) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (UpdateEntry) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (CheckIn) decide(*State, Actor, pairing.Rand) (payload, string, error)  { return nil, "", errTODO }
func (Withdraw) decide(*State, Actor, pairing.Rand) (payload, string, error) { return nil, "", errTODO }
func (DrawRound) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (OverridePairings) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (StartRound) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (EnterScore) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (ConfirmScore) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (CorrectScore) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (Ruling) decide(*State, Actor, pairing.Rand) (payload, string, error)  { return nil, "", errTODO }
func (Penalty) decide(*State, Actor, pairing.Rand) (payload, string, error) { return nil, "", errTODO }
func (CloseRound) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (ReopenRound) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (Finish) decide(*State, Actor, pairing.Rand) (payload, string, error) { return nil, "", errTODO }
func (PublishResults) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}
func (Cancel) decide(*State, Actor, pairing.Rand) (payload, string, error) { return nil, "", errTODO }
func (SetForbidden) decide(*State, Actor, pairing.Rand) (payload, string, error) {
	return nil, "", errTODO
}

func (*RegistrationOpened) check(*State) error { return errTODO }
func (*RegistrationClosed) check(*State) error { return errTODO }
func (*Started) check(*State) error            { return errTODO }
func (*EntryAdded) check(*State) error         { return errTODO }
func (*EntryUpdated) check(*State) error       { return errTODO }
func (*CheckedIn) check(*State) error          { return errTODO }
func (*Withdrawn) check(*State) error          { return errTODO }
func (*RoundDrawn) check(*State) error         { return errTODO }
func (*PairingsOverridden) check(*State) error { return errTODO }
func (*RoundStarted) check(*State) error       { return errTODO }
func (*ScoreEntered) check(*State) error       { return errTODO }
func (*ScoreConfirmed) check(*State) error     { return errTODO }
func (*ScoreCorrected) check(*State) error     { return errTODO }
func (*RulingMade) check(*State) error         { return errTODO }
func (*PenaltyGiven) check(*State) error       { return errTODO }
func (*RoundClosed) check(*State) error        { return errTODO }
func (*RoundReopened) check(*State) error      { return errTODO }
func (*Finished) check(*State) error           { return errTODO }
func (*ResultsPublished) check(*State) error   { return errTODO }
func (*Cancelled) check(*State) error          { return errTODO }
func (*ForbiddenSet) check(*State) error       { return errTODO }

func (*RegistrationOpened) apply(*State, Event) {}
func (*RegistrationClosed) apply(*State, Event) {}
func (*Started) apply(*State, Event)            {}
func (*EntryAdded) apply(*State, Event)         {}
func (*EntryUpdated) apply(*State, Event)       {}
func (*CheckedIn) apply(*State, Event)          {}
func (*Withdrawn) apply(*State, Event)          {}
func (*RoundDrawn) apply(*State, Event)         {}
func (*PairingsOverridden) apply(*State, Event) {}
func (*RoundStarted) apply(*State, Event)       {}
func (*ScoreEntered) apply(*State, Event)       {}
func (*ScoreConfirmed) apply(*State, Event)     {}
func (*ScoreCorrected) apply(*State, Event)     {}
func (*RulingMade) apply(*State, Event)         {}
func (*PenaltyGiven) apply(*State, Event)       {}
func (*RoundClosed) apply(*State, Event)        {}
func (*RoundReopened) apply(*State, Event)      {}
func (*Finished) apply(*State, Event)           {}
func (*ResultsPublished) apply(*State, Event)   {}
func (*Cancelled) apply(*State, Event)          {}
func (*ForbiddenSet) apply(*State, Event)       {}

func (s *State) entry(id int64) (*Entry, error) {
	if id < 1 || id > int64(len(s.entries)) {
		return nil, notFound(CodeEntryNotFound, "no entry %d", id)
	}
	return s.entries[id-1], nil
}

func (s *State) round(n int) (*round, error) {
	if n < 1 || n > len(s.rounds) {
		return nil, notFound(CodeRoundNotFound, "no round %d", n)
	}
	return s.rounds[n-1], nil
}

func (r *round) table(n int) (*table, error) {
	for _, t := range r.tables {
		if t.Number == n {
			return t, nil
		}
	}
	return nil, notFound(CodeTableNotFound, "round %d has no table %d", r.number, n)
}

func (s *State) result(*round, *table) Result                { return Result{} }
func (s *State) matchResults(*round) []MatchResult           { return nil }
func (s *State) Standings() (Standings, error)               { return Standings{}, errTODO }
func (s *State) PlannedRounds() int                          { return s.setup.Rounds }
func ParseCommand(name string, data []byte) (Command, error) { return nil, errTODO }
