package tourney

import (
	"encoding/json"
	"time"

	"github.com/burraco/burraco/domain/standings"
)

// Result is a table's result as it stands. MP are the sides' totals over
// the deals on the sheet (entered and confirmed both count); VP their
// conversion by the event's table (teams: the team match's VP, the same on
// each of its tables; knockout: 1 to the winner, 0 to the loser, once
// decided). A pairs or team table an entry left (abandonment, withdrawal)
// shows RULES §10's outcome: the leaver's VP capped (AbandonVP, else 6 or
// 8), the other side's the rest score when the event says so — the same VP
// the standings count, so sheet, exports and standings agree (MP stay what
// the sheet holds). In an individual event the cap is the leaving player's
// alone, so it shows only in the standings' lines. Complete: every deal played, the
// target reached (knockout), or a ruling decided the table; Final: complete
// with every deal confirmed — what closing the round needs.
type Result struct {
	MPNS      int    `json:"mp_ns"`
	MPEW      int    `json:"mp_ew"`
	VPNS      int    `json:"vp_ns"`
	VPEW      int    `json:"vp_ew"`
	Deals     int    `json:"deals"`
	Complete  bool   `json:"complete"`
	Final     bool   `json:"final"`
	DecidedBy string `json:"decided_by,omitempty"`
	Left      int64  `json:"left,omitempty"`
	Absent    int64  `json:"absent,omitempty"`
	Winner    int64  `json:"winner,omitempty"`
}

// Sheet is a table's score sheet: its version (the seq of the last event
// that touched it: the draw, an entry, a confirmation, a correction, a
// ruling), the deals it plays (0: a knockout table, to the target) and the
// deals so far.
type Sheet struct {
	Version      int64  `json:"version"`
	PlannedDeals int    `json:"planned_deals"`
	Deals        []Deal `json:"deals"`
}

// TableView is a table of a round: who sits there, its sheet, its rulings
// and its result.
type TableView struct {
	TableLayout
	// OnlineTable is the online table that plays it, in a tournament
	// played online once its round started (0: none).
	OnlineTable int64          `json:"online_table,omitempty"`
	Sheet       Sheet          `json:"sheet"`
	Rulings     []RulingRecord `json:"rulings,omitempty"`
	Result      Result         `json:"result"`
}

// MatchResult is a team match: team A (NS) against team B (EW) over its
// tables, MP summed, VP by the team table.
type MatchResult struct {
	Match  int   `json:"match"`
	A      int64 `json:"a"`
	B      int64 `json:"b"`
	MPA    int   `json:"mp_a"`
	MPB    int   `json:"mp_b"`
	VPA    int   `json:"vp_a"`
	VPB    int   `json:"vp_b"`
	Left   int64 `json:"left,omitempty"`
	Absent int64 `json:"absent,omitempty"`
}

// Redraw is why a round was drawn again: a correction of table Table of
// round Round, at At, for Reason (the correction's). Only the latest
// redraw is kept in the view; the audit log has each.
type Redraw struct {
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
	Round  int       `json:"round"`
	Table  int       `json:"table"`
}

// RoundView is a round: status, tables, byes, team matches (teams), the
// knockout bracket (slots in bracket order, 0 an empty slot), the rule that
// drew it, how many times it was drawn (a correction may draw a Danish round
// again, Redraw saying when and why), whether the referee set it by hand,
// and how often it was reopened.
type RoundView struct {
	Number     int           `json:"number"`
	Phase      int           `json:"phase,omitempty"` // in a tournament in phases, from 1
	Status     string        `json:"status"`
	Tables     []TableView   `json:"tables"`
	Byes       []int64       `json:"byes,omitempty"`
	Matches    []MatchResult `json:"matches,omitempty"`
	Bracket    []int64       `json:"bracket,omitempty"`
	Draws      int           `json:"draws"`
	Overridden bool          `json:"overridden,omitempty"`
	Reopened   int           `json:"reopened,omitempty"`
	Rule       string        `json:"rule,omitempty"`
	Redraw     *Redraw       `json:"redraw,omitempty"`
	// StartedAt is when play of the round started; nil before. A console
	// tells a late table by it without reading the audit trail.
	StartedAt *time.Time `json:"started_at,omitempty"`
}

// Standings are the standings as they stand: Provisional until the
// tournament is finished with every table final; AfterRound is the latest
// round with a result counted. Rows carry each entry's lines (its history)
// and AheadBy, the criterion that put it ahead of the next row. Unsettled
// is the entries (ascending) whose rows count a table that is not final:
// deals entered and not yet confirmed, or a table still short of its deals.
type Standings struct {
	Provisional bool    `json:"provisional"`
	AfterRound  int     `json:"after_round"`
	Unsettled   []int64 `json:"unsettled,omitempty"`
	standings.Table
}

// Snapshot is the whole readable state, as the API shows it and as tests
// compare it.
type Snapshot struct {
	Seq           int64               `json:"seq"`
	Status        string              `json:"status"`
	CancelReason  string              `json:"cancel_reason,omitempty"`
	CurrentRound  int                 `json:"current_round"`
	PlannedRounds int                 `json:"planned_rounds"`
	Entries       []Entry             `json:"entries"`
	Rounds        []RoundView         `json:"rounds"`
	Forbidden     [][2]int64          `json:"forbidden,omitempty"`
	Penalties     []standings.Penalty `json:"penalties,omitempty"`
	Standings     Standings           `json:"standings"`
	// Phases and PhaseStandings are a tournament in phases' (absent
	// without phases): every phase, and the standings of each phase begun
	// (PhaseStandingsOf).
	Phases         []PhaseView       `json:"phases,omitempty"`
	PhaseStandings []ScopedStandings `json:"phase_standings,omitempty"`
}

// Status is the tournament's lifecycle status.
func (s *State) Status() string { return s.status }

// CancelReason is the reason given when the tournament was cancelled.
func (s *State) CancelReason() string { return s.cancelReason }

// CurrentRound is the latest round drawn (0 before the first).
func (s *State) CurrentRound() int { return len(s.rounds) }

// Players is the players of the entries, entry by entry, withdrawn ones
// included: whom a reader of the state needs named.
func (s *State) Players() []int64 {
	var ids []int64
	for _, e := range s.entries {
		ids = append(ids, e.Players...)
	}
	return ids
}

// Config is the configuration with its defaults filled in.
func (s *State) Config() Config {
	su := s.setup
	if su.VPTable != nil {
		t := su.VPTable.Clone()
		su.VPTable = &t
	}
	su.TieBreaks = append(su.TieBreaks[:0:0], su.TieBreaks...)
	su.Phases = clonePhases(su.Phases)
	return su
}

// Entries is every entry, withdrawn ones included, in order of entry.
func (s *State) Entries() []Entry {
	out := make([]Entry, len(s.entries))
	for i, e := range s.entries {
		out[i] = copyEntry(e)
	}
	return out
}

// Entry is one entry, or a not_found *Error.
func (s *State) Entry(id int64) (Entry, error) {
	e, err := s.entry(id)
	if err != nil {
		return Entry{}, err
	}
	return copyEntry(e), nil
}

func copyEntry(e *Entry) Entry {
	c := *e
	c.Players = append([]int64(nil), e.Players...)
	return c
}

// Rounds is every round drawn, oldest first.
func (s *State) Rounds() []RoundView {
	out := make([]RoundView, len(s.rounds))
	for i, r := range s.rounds {
		out[i] = s.roundView(r)
	}
	return out
}

// Round is round n, or a not_found *Error.
func (s *State) Round(n int) (RoundView, error) {
	r, err := s.round(n)
	if err != nil {
		return RoundView{}, err
	}
	return s.roundView(r), nil
}

// Table is table t of round n, or a not_found *Error.
func (s *State) Table(n, t int) (TableView, error) {
	r, err := s.round(n)
	if err != nil {
		return TableView{}, err
	}
	tb, err := r.table(t)
	if err != nil {
		return TableView{}, err
	}
	return s.tableView(r, tb), nil
}

// Forbidden is the referee's pairs kept apart.
func (s *State) Forbidden() [][2]int64 { return append([][2]int64(nil), s.forbidden...) }

// Penalties is every penalty given, in order.
func (s *State) Penalties() []standings.Penalty {
	return append([]standings.Penalty(nil), s.penalties...)
}

// History is an entry's rounds as the standings count them.
func (s *State) History(entry int64) ([]standings.Line, error) {
	if _, err := s.entry(entry); err != nil {
		return nil, err
	}
	st, err := s.Standings()
	if err != nil {
		return nil, err
	}
	for _, r := range st.Rows {
		if r.Entry == entry {
			return append([]standings.Line(nil), r.Lines...), nil
		}
	}
	return nil, nil
}

// Snapshot is the whole readable state.
func (s *State) Snapshot() (Snapshot, error) {
	st, err := s.Standings()
	if err != nil {
		return Snapshot{}, err
	}
	snap := Snapshot{
		Seq: s.seq, Status: s.status, CancelReason: s.cancelReason,
		CurrentRound: s.CurrentRound(), PlannedRounds: s.PlannedRounds(),
		Entries: s.Entries(), Rounds: s.Rounds(), Forbidden: s.Forbidden(),
		Penalties: s.Penalties(), Standings: st,
	}
	if s.phased() {
		snap.Phases = s.Phases()
		if snap.PhaseStandings, err = s.phaseStandingsAll(); err != nil {
			return Snapshot{}, err
		}
	}
	return snap, nil
}

// MarshalJSON writes the Snapshot.
func (s *State) MarshalJSON() ([]byte, error) {
	snap, err := s.Snapshot()
	if err != nil {
		return nil, err
	}
	return json.Marshal(snap)
}

func (s *State) roundView(r *round) RoundView {
	v := RoundView{Number: r.number, Phase: r.phase, Status: r.status, Tables: make([]TableView, len(r.tables)),
		Byes: append([]int64(nil), r.byes...), Bracket: append([]int64(nil), r.bracket...),
		Draws: r.draws, Overridden: r.overridden, Reopened: r.reopened, Rule: r.rule}
	if r.redraw != nil {
		rd := *r.redraw
		v.Redraw = &rd
	}
	if !r.startedAt.IsZero() {
		at := r.startedAt
		v.StartedAt = &at
	}
	for i, t := range r.tables {
		v.Tables[i] = s.tableView(r, t)
	}
	if s.setup.Kind == KindTeams {
		v.Matches = s.matchResults(r)
	}
	return v
}

func (s *State) tableView(r *round, t *table) TableView {
	return TableView{
		TableLayout: t.TableLayout,
		OnlineTable: t.online,
		Sheet:       Sheet{Version: t.version, PlannedDeals: t.planned, Deals: append([]Deal(nil), t.deals...)},
		Rulings:     append([]RulingRecord(nil), t.rulings...),
		Result:      s.result(r, t),
	}
}
