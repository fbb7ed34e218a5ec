package tourney

import (
	"encoding/json"
	"time"

	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/standings"
)

// Tournament statuses.
const (
	StatusDraft              = "draft"
	StatusRegistrationOpen   = "registration_open"
	StatusRegistrationClosed = "registration_closed"
	StatusRunning            = "running"
	StatusFinished           = "finished"
	StatusResultsPublished   = "results_published"
	StatusCancelled          = "cancelled"
)

// Round statuses.
const (
	RoundStatusPublished = "pairings_published"
	RoundStatusPlaying   = "playing"
	RoundStatusClosed    = "closed"
)

// Deal statuses.
const (
	DealEntered   = "entered"   // by a player, waiting for an opponent or the staff
	DealConfirmed = "confirmed" // by an opponent or the staff, or entered by the staff
)

// Entry is a pair, team or (individual events) player of the tournament.
// ID is given in order of entry, from 1. Players are player ids (for teams,
// pair by pair: the first two are its first pair). FirstRound is the first
// round a late entry can play (0: from the start). WithdrawnAfter is how
// many rounds were drawn when it withdrew.
type Entry struct {
	ID             int64   `json:"id"`
	Number         int     `json:"number"`
	Seed           int     `json:"seed,omitempty"`
	Name           string  `json:"name,omitempty"`
	Club           string  `json:"club,omitempty"`
	Players        []int64 `json:"players"`
	FeePaid        bool    `json:"fee_paid"`
	CheckedIn      bool    `json:"checked_in"`
	Withdrawn      bool    `json:"withdrawn"`
	WithdrawnAfter int     `json:"withdrawn_after_round,omitempty"`
	FirstRound     int     `json:"first_round,omitempty"`
}

// TableLayout is who sits at a table: NS against EW (entries: pairs, or
// teams, whose pair number Pair sits there in team match Match), or in an
// individual event the players N and S against E and W.
type TableLayout struct {
	Number int `json:"number"`
	// Group is the table's group in a phase with groups (docs/PHASES.md);
	// the fold sets it from the phase's seeding.
	Group string `json:"group,omitempty"`
	Match int    `json:"match,omitempty"`
	Pair  int    `json:"pair,omitempty"`
	NS    int64  `json:"ns,omitempty"`
	EW    int64  `json:"ew,omitempty"`
	N     int64  `json:"n,omitempty"`
	S     int64  `json:"s,omitempty"`
	E     int64  `json:"e,omitempty"`
	W     int64  `json:"w,omitempty"`
}

// Deal is one deal of a sheet as it stands: the parts of both sides, who
// entered it (EnteredSide ns or ew for a player, empty for the staff) and
// who confirmed it. TieBreak marks a knockout's tie-break deal (played while
// tied at or past the target); Corrections counts the referee's corrections.
type Deal struct {
	Number      int        `json:"number"`
	NS          Parts      `json:"ns"`
	EW          Parts      `json:"ew"`
	TimeOut     bool       `json:"time_out,omitempty"`
	TieBreak    bool       `json:"tie_break,omitempty"`
	Status      string     `json:"status"`
	EnteredBy   int64      `json:"entered_by"`
	EnteredSide string     `json:"entered_side,omitempty"`
	EnteredAt   time.Time  `json:"entered_at"`
	ConfirmedBy int64      `json:"confirmed_by,omitempty"`
	ConfirmedAt *time.Time `json:"confirmed_at,omitempty"`
	Corrections int        `json:"corrections,omitempty"`
	// Engine marks a deal the server wrote from an online table's play,
	// confirmed by the engine; Record is the deal record it was played in.
	Engine bool       `json:"engine,omitempty"`
	Record *RecordRef `json:"record,omitempty"`
}

// RulingRecord is a ruling at a table, as recorded.
type RulingRecord struct {
	Seq    int64     `json:"seq"`
	At     time.Time `json:"at"`
	By     int64     `json:"by"`
	Kind   string    `json:"kind"`
	Entry  int64     `json:"entry,omitempty"`
	Deals  int       `json:"deals,omitempty"`
	Reason string    `json:"reason,omitempty"`
}

// table is a table of a round and its sheet.
type table struct {
	TableLayout
	version int64
	deals   []Deal
	planned int // deals the table plays (0 in a knockout: to the target)
	rulings []RulingRecord
	decided string // the ruling kind that decided the table, if one did
	online  int64  // the online table that plays it (Setup.Online), once the round started
	left    int64  // abandonment: the entry that left
	absent  int64  // bye ruling: the entry that did not turn up
}

// round is a round of the tournament.
type round struct {
	number     int
	status     string
	tables     []*table // by number order
	byes       []int64
	bracket    []int64
	draws      int // 1 + redraws
	overridden bool
	reopened   int
	rule       string // what drew it (Rule*)
	redraw     *Redraw
	phase      int       // its phase, from 1
	startedAt  time.Time // when play started (round_started); zero before
}

// State is a tournament as the fold of its events. Decide never changes it;
// Apply does. Reads and Decide may run concurrently with each other (the
// standings they compute lazily are cached under a lock); Apply needs the
// state to itself — the service serialises commands per tournament, as the
// event log's sequence does.
//
// State is an event-sourced aggregate: every command is decided against
// it and every event applied to it (the commands' decide and the events'
// apply methods are their own, in entries.go, lifecycle.go, rounds.go,
// …), and the rules they consult (the draw, the sheets' checks, the
// standings) and the reads of the fold are its methods, some ninety. It is
// the one type the house's bound of 40 methods a type (issue 31) leaves
// aside: every rule reads the one state the log folds into.
type State struct {
	setup          Config
	seq            int64
	status         string
	cancelReason   string
	entries        []*Entry // entry i has ID i+1
	playerEntry    map[int64]int64
	rounds         []*round
	forbidden      [][2]int64
	schedForbidden [][2]int64
	order          []int64
	penalties      []standings.Penalty
	seatings       map[int][]Group // phase → its groups as seeded (never changed in place)
	cache          *standingsCache
}

// New is the state of a tournament before its first event (draft), or every
// problem of its configuration (an *Error with code invalid_setup).
func New(c Config) (*State, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &State{setup: c.normalized(), status: StatusDraft, playerEntry: map[int64]int64{},
		seatings: map[int][]Group{}, cache: new(standingsCache)}, nil
}

// Replay is the state after the events, in order.
func Replay(c Config, events []Event) (*State, error) {
	s, err := New(c)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if err := s.Apply(e); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Seq is the sequence number of the last event applied: the tournament's
// version (0 before any).
func (s *State) Seq() int64 { return s.seq }

// Decide answers a command given by who at time at: the event to append
// (Seq the next one), or why not (*Error). It never changes the state.
// Randomness (random draws, individual rounds, round-robin seating) comes
// from rnd; a draw is recorded in the event, so replay does not need it.
func (s *State) Decide(cmd Command, who Actor, at time.Time, rnd pairing.Rand) (Event, error) {
	if cmd == nil {
		return Event{}, errf(KindInvalid, CodeInvalidCommand, "no command")
	}
	p, reason, err := cmd.decide(s, who, rnd)
	if err != nil {
		return Event{}, err
	}
	if err := p.check(s); err != nil {
		return Event{}, err
	}
	data, err := json.Marshal(p)
	if err != nil {
		return Event{}, errf(KindInvalid, CodeInvalidCommand, "encoding the event: %v", err)
	}
	return Event{Seq: s.seq + 1, At: at.UTC().Truncate(time.Microsecond), By: who.UserID,
		Kind: p.kind(), Data: data, Reason: reason}, nil
}

// Apply folds an event into the state: the next in sequence (Seq one more
// than Seq()), of a known kind, that the state accepts. On error the state
// is unchanged.
func (s *State) Apply(e Event) error {
	if e.Seq != s.seq+1 {
		return errf(KindConflict, CodeSeqGap, "event %d does not follow %d", e.Seq, s.seq)
	}
	p, err := decodePayload(e)
	if err != nil {
		return err
	}
	if err := p.check(s); err != nil {
		return badEvent(e, err)
	}
	p.apply(s, e)
	s.seq = e.Seq
	s.cache = new(standingsCache)
	return nil
}

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

func timePtr(t time.Time) *time.Time { return &t }
