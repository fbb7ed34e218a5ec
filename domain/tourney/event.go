package tourney

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Event is one entry of a tournament's log. Seq numbers the log from 1 with
// no gaps (the tournament's version is the last Seq); At is when it was
// decided and By the user who gave the command; Kind names the payload in
// Data (the Event* constants; DecodeEvent reads it); Reason is the reason
// given, where the command has one (corrections, rulings, penalties,
// overrides, reopening, cancelling).
type Event struct {
	Seq    int64           `json:"seq"`
	At     time.Time       `json:"at"`
	By     int64           `json:"by"`
	Kind   string          `json:"kind"`
	Data   json.RawMessage `json:"data"`
	Reason string          `json:"reason,omitempty"`
}

// Kinds of event, one per payload type.
const (
	EventRegistrationOpened = "registration_opened"
	EventRegistrationClosed = "registration_closed"
	EventStarted            = "started"
	EventEntryAdded         = "entry_added"
	EventEntryUpdated       = "entry_updated"
	EventCheckedIn          = "checked_in"
	EventWithdrawn          = "withdrawn"
	EventRoundDrawn         = "round_drawn"
	EventPairingsOverridden = "pairings_overridden"
	EventRoundStarted       = "round_started"
	EventScoreEntered       = "score_entered"
	EventScoreConfirmed     = "score_confirmed"
	EventScoreCorrected     = "score_corrected"
	EventRuling             = "ruling"
	EventPenalty            = "penalty"
	EventRoundClosed        = "round_closed"
	EventRoundReopened      = "round_reopened"
	EventFinished           = "finished"
	EventResultsPublished   = "results_published"
	EventCancelled          = "cancelled"
	EventForbiddenSet       = "forbidden_set"
)

// payload is the data of one kind of event: check says whether the state
// accepts it (the same checks Decide made, less who may and versions),
// apply folds it in.
type payload interface {
	kind() string
	check(s *State) error
	apply(s *State, e Event)
}

// Payloads, exported so the API can show the audit log (DecodeEvent).
type (
	// RegistrationOpened: draft or registration_closed → registration_open.
	RegistrationOpened struct{}
	// RegistrationClosed: registration_open → registration_closed.
	RegistrationClosed struct{}
	// Started: → running. Absent entries (not checked in) are left out;
	// Order is the entries in the order of the fixed schedules (Mitchell,
	// round robin); Forbidden the referee's pairs those schedules keep apart.
	Started struct {
		Absent    []int64    `json:"absent,omitempty"`
		Order     []int64    `json:"order,omitempty"`
		Forbidden [][2]int64 `json:"forbidden,omitempty"`
	}
	// EntryAdded holds the whole new entry.
	EntryAdded struct {
		Entry Entry `json:"entry"`
	}
	// EntryUpdated holds the fields changed.
	EntryUpdated UpdateEntry
	// CheckedIn sets an entry's check-in.
	CheckedIn struct {
		Entry     int64 `json:"entry"`
		CheckedIn bool  `json:"checked_in"`
	}
	// Withdrawn: the entry after AfterRound rounds drawn; Forfeits are the
	// tables of Round it forfeited.
	Withdrawn struct {
		Entry      int64 `json:"entry"`
		AfterRound int   `json:"after_round"`
		Round      int   `json:"round,omitempty"`
		Forfeits   []int `json:"forfeits,omitempty"`
	}
	// RoundDrawn is a drawn round: its tables, byes, (knockout) bracket and
	// the rule that drew it (a Rule* constant; absent in logs written
	// before it was recorded).
	RoundDrawn struct {
		Round   int           `json:"round"`
		Tables  []TableLayout `json:"tables"`
		Byes    []int64       `json:"byes,omitempty"`
		Bracket []int64       `json:"bracket,omitempty"`
		Rule    string        `json:"rule,omitempty"`
		// Groups is the phase's seeding, in the draw of a phase's first
		// round (tournaments in phases only): the groups and each one's
		// entries in seeded order.
		Groups []Group `json:"groups,omitempty"`
	}
	// PairingsOverridden is a round set by hand; Replaced when it replaced
	// published pairings.
	PairingsOverridden struct {
		Round    int           `json:"round"`
		Tables   []TableLayout `json:"tables"`
		Byes     []int64       `json:"byes,omitempty"`
		Replaced bool          `json:"replaced,omitempty"`
		Groups   []Group       `json:"groups,omitempty"` // as RoundDrawn's
	}
	// RoundStarted: pairings_published → playing.
	RoundStarted struct {
		Round int `json:"round"`
	}
	// ScoreEntered: deals entered by Side (ns or ew; empty for the staff,
	// whose entries are Confirmed at once).
	ScoreEntered struct {
		Round     int         `json:"round"`
		Table     int         `json:"table"`
		Deals     []DealInput `json:"deals"`
		Side      string      `json:"side,omitempty"`
		Confirmed bool        `json:"confirmed,omitempty"`
	}
	// ScoreConfirmed: the deals confirmed.
	ScoreConfirmed struct {
		Round int   `json:"round"`
		Table int   `json:"table"`
		Deals []int `json:"deals"`
	}
	// ScoreCorrected: a deal replaced by the referee. Before is the deal as
	// it was, Deal as it is now. RedrawnRounds were drawn again on the
	// corrected standings (Redraws holds the new draws); KeptRounds depend
	// on the results but were already being played, so their pairings stay.
	// Both lists are always present, empty when there are none.
	ScoreCorrected struct {
		Round         int          `json:"round"`
		Table         int          `json:"table"`
		Deal          DealInput    `json:"deal"`
		Before        Deal         `json:"before"`
		RedrawnRounds []int        `json:"redrawn_rounds"`
		KeptRounds    []int        `json:"kept_rounds"`
		Redraws       []RoundDrawn `json:"redraws,omitempty"`
	}
	// RulingMade is a referee's ruling (see Ruling).
	RulingMade struct {
		Round int        `json:"round"`
		Table int        `json:"table"`
		Kind  string     `json:"kind"`
		Entry int64      `json:"entry,omitempty"`
		Deal  *DealInput `json:"deal,omitempty"`
		Deals int        `json:"deals,omitempty"`
	}
	// PenaltyGiven is a penalty (the reason is the event's).
	PenaltyGiven struct {
		Round int   `json:"round,omitempty"`
		Entry int64 `json:"entry"`
		VP    int   `json:"vp,omitempty"`
		MP    int   `json:"mp,omitempty"`
	}
	// RoundClosed: playing → closed.
	RoundClosed struct {
		Round int `json:"round"`
	}
	// RoundReopened: closed → playing.
	RoundReopened struct {
		Round int `json:"round"`
	}
	// Finished: running → finished.
	Finished struct{}
	// ResultsPublished: finished → results_published.
	ResultsPublished struct{}
	// Cancelled: → cancelled (the reason is the event's).
	Cancelled struct{}
	// ForbiddenSet changes the referee's list of pairs kept apart: the
	// pairs Added ({low, high} entry ids, new to the list) and Removed.
	// Events written before 2026-11-28 gave the whole new list as Pairs
	// instead (possibly with a pair twice, or both ways round), which
	// replaces the list; new events never set it.
	ForbiddenSet struct {
		Pairs   [][2]int64 `json:"pairs,omitempty"`
		Added   [][2]int64 `json:"added"`
		Removed [][2]int64 `json:"removed"`
	}
)

// newPayload is an empty payload of an event kind.
func newPayload(kind string) (payload, bool) {
	var p payload
	switch kind {
	case EventRegistrationOpened:
		p = &RegistrationOpened{}
	case EventRegistrationClosed:
		p = &RegistrationClosed{}
	case EventStarted:
		p = &Started{}
	case EventEntryAdded:
		p = &EntryAdded{}
	case EventEntryUpdated:
		p = &EntryUpdated{}
	case EventCheckedIn:
		p = &CheckedIn{}
	case EventWithdrawn:
		p = &Withdrawn{}
	case EventRoundDrawn:
		p = &RoundDrawn{}
	case EventPairingsOverridden:
		p = &PairingsOverridden{}
	case EventRoundStarted:
		p = &RoundStarted{}
	case EventScoreEntered:
		p = &ScoreEntered{}
	case EventScoreConfirmed:
		p = &ScoreConfirmed{}
	case EventScoreCorrected:
		p = &ScoreCorrected{}
	case EventRuling:
		p = &RulingMade{}
	case EventPenalty:
		p = &PenaltyGiven{}
	case EventRoundClosed:
		p = &RoundClosed{}
	case EventRoundReopened:
		p = &RoundReopened{}
	case EventFinished:
		p = &Finished{}
	case EventResultsPublished:
		p = &ResultsPublished{}
	case EventCancelled:
		p = &Cancelled{}
	case EventForbiddenSet:
		p = &ForbiddenSet{}
	case EventOnlineTablesOpened:
		p = &OnlineTablesOpened{}
	case EventDealPlayed:
		p = &DealPlayed{}
	case EventStandIn:
		p = &StandIn{}
	default:
		return nil, false
	}
	return p, true
}

// DecodeEvent reads an event's payload: a pointer to one of the payload
// types above (*ScoreCorrected, …), for the audit log.
func DecodeEvent(e Event) (any, error) {
	p, err := decodePayload(e)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func decodePayload(e Event) (payload, error) {
	p, ok := newPayload(e.Kind)
	if !ok {
		return nil, errf(KindInvalid, CodeBadEvent, "event %d: unknown kind %q", e.Seq, e.Kind)
	}
	data := e.Data
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, errf(KindInvalid, CodeBadEvent, "event %d (%s): %v", e.Seq, e.Kind, err)
	}
	if dec.More() {
		return nil, errf(KindInvalid, CodeBadEvent, "event %d (%s): data after the payload", e.Seq, e.Kind)
	}
	if c, ok := p.(*ScoreCorrected); ok {
		// Logs written before the lists were always recorded left them out.
		c.RedrawnRounds = nonNil(c.RedrawnRounds)
		c.KeptRounds = nonNil(c.KeptRounds)
	}
	return p, nil
}

func (*RegistrationOpened) kind() string { return EventRegistrationOpened }
func (*RegistrationClosed) kind() string { return EventRegistrationClosed }
func (*Started) kind() string            { return EventStarted }
func (*EntryAdded) kind() string         { return EventEntryAdded }
func (*EntryUpdated) kind() string       { return EventEntryUpdated }
func (*CheckedIn) kind() string          { return EventCheckedIn }
func (*Withdrawn) kind() string          { return EventWithdrawn }
func (*RoundDrawn) kind() string         { return EventRoundDrawn }
func (*PairingsOverridden) kind() string { return EventPairingsOverridden }
func (*RoundStarted) kind() string       { return EventRoundStarted }
func (*ScoreEntered) kind() string       { return EventScoreEntered }
func (*ScoreConfirmed) kind() string     { return EventScoreConfirmed }
func (*ScoreCorrected) kind() string     { return EventScoreCorrected }
func (*RulingMade) kind() string         { return EventRuling }
func (*PenaltyGiven) kind() string       { return EventPenalty }
func (*RoundClosed) kind() string        { return EventRoundClosed }
func (*RoundReopened) kind() string      { return EventRoundReopened }
func (*Finished) kind() string           { return EventFinished }
func (*ResultsPublished) kind() string   { return EventResultsPublished }
func (*Cancelled) kind() string          { return EventCancelled }
func (*ForbiddenSet) kind() string       { return EventForbiddenSet }

// nonNil is s, or an empty list for nil: a list the JSON always carries.
func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// badEvent is Apply's refusal of an event the state cannot take.
func badEvent(e Event, err error) error {
	if te, ok := err.(*Error); ok {
		return &Error{Kind: te.Kind, Code: te.Code, Message: fmt.Sprintf("event %d (%s): %s", e.Seq, e.Kind, te.Message), Problems: te.Problems}
	}
	return errf(KindInvalid, CodeBadEvent, "event %d (%s): %v", e.Seq, e.Kind, err)
}
