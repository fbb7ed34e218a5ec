package domain

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/burraco/burraco/domain/tourney"
	"github.com/burraco/burraco/domain/vp"
)

// The open results format (issue 32): a tournament's results as one JSON
// document that another server reads back (ImportResults) and a
// federation's tools read without knowing this server. docs/RESULTS-FORMAT.md
// explains each field; docs/results-format.schema.json is its JSON Schema.
// Versioning: a change that a reader of the same version could not read
// (a field removed, renamed, or its meaning changed) is a new Version; new
// optional fields are not, and readers ignore what they do not know.
//
// Version 2 (issue 32, docs/PHASES.md) is a tournament in phases: the
// event's phases, each round's phase, each table's group, and the
// standings of every phase and group; a version 1 reader would misread
// such a document's standings (VP carried over, a VP table per phase), so
// it is a new version. A tournament of one phase is still written as
// version 1, byte for byte as before; both versions are read.
const (
	ResultsFormat        = "burraco-results"
	ResultsFormatVersion = 1 // a tournament of one phase
	ResultsFormatPhased  = 2 // a tournament in phases
)

// EUnsupportedFormat (KindInvalid): an imported document is not of the
// results format, or of a version this server does not read.
const EUnsupportedFormat Code = "unsupported_format"

// ResultsDocument is a tournament's results in the open format. Entries
// are named by their number everywhere (the number on the table card),
// never by a server's ids; players by name and federation id, never by
// e-mail. Two exports of the same state are byte for byte the same.
type ResultsDocument struct {
	Format      string              `json:"format"`
	Version     int                 `json:"version"`
	Event       ResultsEvent        `json:"event"`
	Entries     []ResultsEntry      `json:"entries"`
	Rounds      []ResultsRound      `json:"rounds"`
	Penalties   []ResultsPenalty    `json:"penalties"`
	Adjustments []ResultsAdjustment `json:"adjustments"`
	Standings   []ResultsStanding   `json:"standings"`
	// PhaseStandings (version 2) are the standings of each phase begun:
	// overall (carried VP counted) and the phase's own, of the whole
	// field, then each group's overall.
	PhaseStandings []ResultsPhaseStandings `json:"phase_standings,omitempty"`
}

// ResultsPhase is a phase of the event's set-up (version 2), with the
// groups it was seeded into (entry numbers, in seeded order), once seeded.
type ResultsPhase struct {
	Name             string         `json:"name"`
	Movement         string         `json:"movement"`
	Rounds           int            `json:"rounds"`
	MitchellStep     int            `json:"mitchell_step,omitempty"`
	DealsPerRound    int            `json:"deals_per_round,omitempty"`
	VPTable          *vp.Table      `json:"vp_table,omitempty"`
	CarryOver        string         `json:"carry_over,omitempty"`
	CarryOverPercent int            `json:"carry_over_percent,omitempty"`
	GroupsBy         string         `json:"groups_by,omitempty"`
	GroupCount       int            `json:"group_count,omitempty"`
	Groups           []ResultsGroup `json:"groups,omitempty"`
}

// ResultsGroup is a group of a phase: its name and entries (numbers).
type ResultsGroup struct {
	Name    string `json:"name"`
	Entries []int  `json:"entries"`
}

// ResultsPhaseStandings are a phase's standings (of a group, when Group is
// set): scope overall (the VP carried into it counted) or phase.
type ResultsPhaseStandings struct {
	Phase     int               `json:"phase"`
	Group     string            `json:"group,omitempty"`
	Scope     string            `json:"scope"`
	Standings []ResultsStanding `json:"standings"`
}

// ResultsEvent is the tournament and how it was played.
type ResultsEvent struct {
	Name            string          `json:"name"`
	Description     string          `json:"description,omitempty"`
	Club            string          `json:"club"`
	StartsAt        time.Time       `json:"starts_at"`
	Rules           string          `json:"rules"`
	Options         json.RawMessage `json:"options"`
	PlayersPerTable int             `json:"players_per_table"`
	Kind            string          `json:"kind"`
	Movement        string          `json:"movement"`
	// Rounds is the set-up's number of rounds (0: from the field);
	// RoundsPlanned the rounds the tournament plays as it stands.
	Rounds               int       `json:"rounds"`
	RoundsPlanned        int       `json:"rounds_planned"`
	DealsPerRound        int       `json:"deals_per_round"`
	MitchellStep         int       `json:"mitchell_step"`
	TargetScore          int       `json:"target_score"`
	VPTable              *vp.Table `json:"vp_table,omitempty"`
	VPTableBuiltin       bool      `json:"vp_table_builtin"`
	TieBreaks            []string  `json:"tie_breaks"`
	RestVP               int       `json:"rest_vp"`
	RestMP               int       `json:"rest_mp"`
	AbandonVP            int       `json:"abandon_vp"`
	RemainingGetsRest    bool      `json:"remaining_gets_rest"`
	ForbidSameClub       bool      `json:"forbid_same_club"`
	AvoidRepeatOpponents bool      `json:"avoid_repeat_opponents"`
	LateEntryRound       int       `json:"late_entry_round"`
	TeamPairs            int       `json:"team_pairs"`
	// LotsSeed is the seed of the draw of lots, the last tie-break, as a
	// decimal string (it does not fit a JSON number's exact range); only
	// once the tournament is finished, as the standings show it (before,
	// nobody may know the lots ahead).
	LotsSeed     string `json:"lots_seed,omitempty"`
	Status       string `json:"status"`
	CancelReason string `json:"cancel_reason,omitempty"`
	// Prizes is the set-up's prize list (issue 32), absent when none.
	Prizes []ResultsPrize `json:"prizes,omitempty"`
	// Phases (version 2) are the event's phases; movement, mitchell_step,
	// vp_table and rounds above are then the first phase's and the total.
	Phases []ResultsPhase `json:"phases,omitempty"`
}

// ResultsPrize is one prize of the prize list, as the set-up has it.
type ResultsPrize struct {
	Name       string `json:"name"`
	Category   string `json:"category,omitempty"`
	Places     int    `json:"places"`
	Cumulative bool   `json:"cumulative,omitempty"`
	Group      string `json:"group,omitempty"` // version 2: a group's prize
	Phase      int    `json:"phase,omitempty"` // version 2: the phase of the group (0: the last with groups)
}

// ResultsEntry is a pair, team or player, in the order of entry.
type ResultsEntry struct {
	Number              int             `json:"number"`
	Name                string          `json:"name,omitempty"`
	Club                string          `json:"club,omitempty"`
	Seed                int             `json:"seed,omitempty"`
	Players             []ResultsPlayer `json:"players"`
	FirstRound          int             `json:"first_round,omitempty"`
	Withdrawn           bool            `json:"withdrawn"`
	WithdrawnAfterRound int             `json:"withdrawn_after_round,omitempty"`
}

// ResultsPlayer is a player of an entry.
type ResultsPlayer struct {
	Name         string `json:"name"`
	FederationID string `json:"federation_id,omitempty"`
}

// ResultsRound is a round drawn.
type ResultsRound struct {
	Number int            `json:"number"`
	Phase  int            `json:"phase,omitempty"` // version 2
	Status string         `json:"status"`
	Tables []ResultsTable `json:"tables"`
	Byes   []int          `json:"byes,omitempty"`
}

// ResultsTable is a table of a round: the entries' numbers at NS and EW
// (one each for pairs and teams; N then S, E then W in an individual
// event), its deals, MP and VP, and the referee's rulings.
type ResultsTable struct {
	Number    int             `json:"number"`
	Group     string          `json:"group,omitempty"` // version 2: its group in a phase with groups
	Match     int             `json:"match,omitempty"`
	Pair      int             `json:"pair,omitempty"`
	NS        []int           `json:"ns"`
	EW        []int           `json:"ew"`
	Deals     []ResultsDeal   `json:"deals"`
	MP        ResultsSides    `json:"mp"`
	VP        ResultsSides    `json:"vp"`
	Complete  bool            `json:"complete"`
	DecidedBy string          `json:"decided_by,omitempty"`
	Rulings   []ResultsRuling `json:"rulings,omitempty"`
}

// ResultsSides is an amount of each side.
type ResultsSides struct {
	NS int `json:"ns"`
	EW int `json:"ew"`
}

// ResultsDeal is a deal of a sheet as it stands.
type ResultsDeal struct {
	Number   int           `json:"number"`
	NS       tourney.Parts `json:"ns"`
	EW       tourney.Parts `json:"ew"`
	TimeOut  bool          `json:"time_out,omitempty"`
	TieBreak bool          `json:"tie_break,omitempty"`
}

// ResultsRuling is a referee's ruling at a table; Entry is the entry's
// number it concerns (0: none).
type ResultsRuling struct {
	Kind   string `json:"kind"`
	Entry  int    `json:"entry,omitempty"`
	Deals  int    `json:"deals,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// ResultsPenalty is a penalty (round 0: of the event).
type ResultsPenalty struct {
	Round  int    `json:"round,omitempty"`
	Entry  int    `json:"entry"`
	VP     int    `json:"vp,omitempty"`
	MP     int    `json:"mp,omitempty"`
	Reason string `json:"reason"`
}

// ResultsAdjustment is a table whose result is not its sheet's: decided
// by a ruling or a withdrawal; Entry is the entry that left or did not
// turn up (0: none).
type ResultsAdjustment struct {
	Round     int          `json:"round"`
	Table     int          `json:"table"`
	DecidedBy string       `json:"decided_by"`
	Entry     int          `json:"entry,omitempty"`
	VP        ResultsSides `json:"vp"`
}

// ResultsStanding is an entry's place.
type ResultsStanding struct {
	Rank        int    `json:"rank"`
	Entry       int    `json:"entry"`
	VP          int    `json:"vp"`
	CarriedVP   int    `json:"carried_vp,omitempty"` // version 2: of vp, carried into the phase
	MPFor       int    `json:"mp_for"`
	MPAgainst   int    `json:"mp_against"`
	MPDiff      int    `json:"mp_difference"`
	PenaltyVP   int    `json:"penalty_vp"`
	PenaltyMP   int    `json:"penalty_mp"`
	Played      int    `json:"played"`
	Byes        int    `json:"byes"`
	OpponentsVP int    `json:"opponents_vp"`
	AheadBy     string `json:"ahead_by,omitempty"`
	Provisional bool   `json:"provisional"`
}

// ResultsDocumentOf is the document of a tournament as read, its players'
// federation ids given (players without one are left out of fed).
func ResultsDocumentOf(read TournamentRead, fed map[int64]string) ResultsDocument {
	t, snap := read.Tournament, read.Snapshot
	number := map[int64]int{}
	for _, e := range snap.Entries {
		number[e.ID] = e.Number
	}
	doc := ResultsDocument{Format: ResultsFormat, Version: ResultsFormatVersion, Event: resultsEvent(t, snap, number),
		Entries: []ResultsEntry{}, Rounds: []ResultsRound{}, Penalties: []ResultsPenalty{},
		Adjustments: []ResultsAdjustment{}, Standings: []ResultsStanding{}}
	for _, e := range snap.Entries {
		doc.Entries = append(doc.Entries, resultsEntry(e, read.Players, fed))
	}
	for _, r := range snap.Rounds {
		doc.Rounds = append(doc.Rounds, resultsRound(r, number))
		for _, tb := range r.Tables {
			if tb.Result.DecidedBy == "" {
				continue
			}
			doc.Adjustments = append(doc.Adjustments, ResultsAdjustment{Round: r.Number, Table: tb.Number,
				DecidedBy: tb.Result.DecidedBy, Entry: number[tb.Result.Left+tb.Result.Absent],
				VP: ResultsSides{NS: tb.Result.VPNS, EW: tb.Result.VPEW}})
		}
	}
	for _, p := range snap.Penalties {
		doc.Penalties = append(doc.Penalties, ResultsPenalty{Round: p.Round, Entry: number[p.Entry], VP: p.VP, MP: p.MP, Reason: p.Reason})
	}
	doc.Standings = resultsStandings(snap.Standings, number)
	if len(t.Phases) > 0 {
		doc.Version = ResultsFormatPhased
		for _, sc := range snap.PhaseStandings {
			scope := "phase"
			if sc.Overall {
				scope = "overall"
			}
			doc.PhaseStandings = append(doc.PhaseStandings, ResultsPhaseStandings{Phase: sc.Phase, Group: sc.Group, Scope: scope,
				Standings: resultsStandings(sc.Standings, number)})
		}
	}
	return doc
}

func resultsStandings(st tourney.Standings, number map[int64]int) []ResultsStanding {
	out := []ResultsStanding{}
	for _, row := range st.Rows {
		out = append(out, ResultsStanding{Rank: row.Rank, Entry: number[row.Entry], VP: row.VP, CarriedVP: row.CarriedVP,
			MPFor: row.MPFor, MPAgainst: row.MPAgainst, MPDiff: row.MPDiff, PenaltyVP: row.PenaltyVP, PenaltyMP: row.PenaltyMP,
			Played: row.Played, Byes: row.Byes, OpponentsVP: row.OpponentsVP, AheadBy: string(row.AheadBy),
			Provisional: st.Provisional})
	}
	return out
}

// resultsPhases is the set-up's phases as stored, with their seeding.
func resultsPhases(phases []tourney.Phase, snap *tourney.Snapshot, number map[int64]int) []ResultsPhase {
	var out []ResultsPhase
	for i, p := range phases {
		rp := ResultsPhase{Name: p.Name, Movement: string(p.Movement), Rounds: p.Rounds, MitchellStep: p.MitchellStep,
			DealsPerRound: p.DealsPerRound, CarryOver: string(p.CarryOver), CarryOverPercent: p.CarryOverPercent}
		if p.VPTable != nil {
			t := p.VPTable.Clone()
			rp.VPTable = &t
		}
		if p.Groups != nil {
			rp.GroupsBy, rp.GroupCount = string(p.Groups.By), p.Groups.Count
		}
		if i < len(snap.Phases) {
			for _, g := range snap.Phases[i].Groups {
				rg := ResultsGroup{Name: g.Name, Entries: []int{}}
				for _, id := range g.Entries {
					rg.Entries = append(rg.Entries, number[id])
				}
				rp.Groups = append(rp.Groups, rg)
			}
		}
		out = append(out, rp)
	}
	return out
}

func resultsEvent(t Tournament, snap *tourney.Snapshot, number map[int64]int) ResultsEvent {
	s := t.Setup
	ev := ResultsEvent{Name: t.Name, Description: t.Description, Club: t.ClubName, StartsAt: t.StartsAt.UTC(),
		Rules: string(t.Rules), Options: t.Options, PlayersPerTable: t.PlayersPerTable, Kind: string(t.Kind),
		Movement: string(s.Movement), Rounds: s.Rounds, RoundsPlanned: snap.PlannedRounds, DealsPerRound: t.DealsPerRound,
		MitchellStep: s.MitchellStep, TargetScore: s.TargetScore, VPTableBuiltin: s.VPTable == nil,
		RestVP: s.RestVP, RestMP: s.RestMP, AbandonVP: s.AbandonVP, RemainingGetsRest: s.RemainingGetsRest,
		ForbidSameClub: s.ForbidSameClub, AvoidRepeatOpponents: s.AvoidRepeatOpponents, LateEntryRound: s.LateEntryRound,
		TeamPairs: s.TeamPairs, Status: snap.Status, CancelReason: snap.CancelReason}
	if snap.Status == tourney.StatusFinished || snap.Status == tourney.StatusResultsPublished {
		ev.LotsSeed = strconv.FormatUint(t.LotsSeed, 10)
	}
	if s.VPTable != nil {
		vt := s.VPTable.Clone()
		ev.VPTable = &vt
	}
	if len(ev.Options) == 0 {
		ev.Options = json.RawMessage("{}")
	}
	for _, c := range s.TieBreakOrder() {
		ev.TieBreaks = append(ev.TieBreaks, string(c))
	}
	for _, p := range t.Prizes {
		ev.Prizes = append(ev.Prizes, ResultsPrize(p))
	}
	ev.Phases = resultsPhases(t.Phases, snap, number)
	return ev
}

func resultsEntry(e tourney.Entry, names map[int64]string, fed map[int64]string) ResultsEntry {
	out := ResultsEntry{Number: e.Number, Name: e.Name, Club: e.Club, Seed: e.Seed, FirstRound: e.FirstRound,
		Withdrawn: e.Withdrawn, WithdrawnAfterRound: e.WithdrawnAfter, Players: []ResultsPlayer{}}
	for _, p := range e.Players {
		out.Players = append(out.Players, ResultsPlayer{Name: names[p], FederationID: fed[p]})
	}
	return out
}

func resultsRound(r tourney.RoundView, number map[int64]int) ResultsRound {
	out := ResultsRound{Number: r.Number, Phase: r.Phase, Status: r.Status, Tables: []ResultsTable{}}
	for _, b := range r.Byes {
		out.Byes = append(out.Byes, number[b])
	}
	slices.Sort(out.Byes)
	for _, tb := range r.Tables {
		out.Tables = append(out.Tables, resultsTable(tb, number))
	}
	return out
}

func resultsTable(tb tourney.TableView, number map[int64]int) ResultsTable {
	out := ResultsTable{Number: tb.Number, Group: tb.Group, Match: tb.Match, Pair: tb.Pair, Deals: []ResultsDeal{},
		MP: ResultsSides{NS: tb.Result.MPNS, EW: tb.Result.MPEW}, VP: ResultsSides{NS: tb.Result.VPNS, EW: tb.Result.VPEW},
		Complete: tb.Result.Complete, DecidedBy: tb.Result.DecidedBy}
	if tb.N != 0 {
		out.NS, out.EW = []int{number[tb.N], number[tb.S]}, []int{number[tb.E], number[tb.W]}
	} else {
		out.NS, out.EW = []int{number[tb.NS]}, []int{number[tb.EW]}
	}
	for _, d := range tb.Sheet.Deals {
		out.Deals = append(out.Deals, ResultsDeal{Number: d.Number, NS: d.NS, EW: d.EW, TimeOut: d.TimeOut, TieBreak: d.TieBreak})
	}
	for _, r := range tb.Rulings {
		out.Rulings = append(out.Rulings, ResultsRuling{Kind: r.Kind, Entry: number[r.Entry], Deals: r.Deals, Reason: r.Reason})
	}
	return out
}
