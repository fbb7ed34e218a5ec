package api

import (
	"net/http"
	"slices"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/tourney"
	"github.com/burraco/burraco/domain/vp"
)

// Tournaments in phases and groups (issue 32, docs/PHASES.md): the set-up's
// phases (TournamentSetupInput.Phases), and the reads of phases and their
// standings, on resultHandlers (routed in resultHandlers.routes).

// TournamentPhase is one phase of a tournament in phases: in a set-up
// request as given (absent fields take their defaults), in a Tournament
// with the defaults filled in.
type TournamentPhase struct {
	// 1 to 60 characters.
	Name string `json:"name" example:"Gironi"`
	// Not knockout (a bracket is not a phase).
	Movement string `json:"movement" enums:"mitchell,danish,modified_danish,round_robin,random" example:"danish"`
	Rounds   int    `json:"rounds" minimum:"1" maximum:"50" example:"3"`
	// Mitchell only; absent: 1.
	MitchellStep int `json:"mitchell_step,omitempty" minimum:"0" maximum:"20"`
	// Absent: the tournament's deals_per_round.
	DealsPerRound int `json:"deals_per_round,omitempty" minimum:"0" maximum:"4" example:"4"`
	// The phase's own MP→VP table; absent: the built-in one for its deals (required for 2-deal phases). In a Tournament, the table in force.
	VPTable *VPTable `json:"vp_table,omitempty"`
	// In a Tournament: whether vp_table is the built-in one.
	VPTableBuiltin bool `json:"vp_table_builtin,omitempty" example:"true"`
	// How much of the VP at the end of the phase before this one starts with: all (absent, but on the first phase, which carries nothing), none, or fraction (carry_over_percent of them, rounded half away from zero to a whole VP).
	CarryOver        string `json:"carry_over,omitempty" enums:"all,none,fraction"`
	CarryOverPercent int    `json:"carry_over_percent,omitempty" minimum:"0" maximum:"99"`
	// Absent: one group, the whole field.
	Groups *TournamentGrouping `json:"groups,omitempty"`
	// In a Tournament: the phase's first and last round.
	FirstRound int `json:"first_round,omitempty"`
	LastRound  int `json:"last_round,omitempty"`
} // @name TournamentPhase

// TournamentGrouping is how a phase splits its field into groups named
// A, B, …: by standing (serpentine A B C C B A …, or blocks), by club, by
// the players' region (Player.region: the regions by name, entries without
// one last), or by the director's hand (given when drawing the phase's
// first round).
type TournamentGrouping struct {
	// Required.
	By string `json:"by,omitempty" enums:"serpentine,blocks,club,region,hand"`
	// serpentine, blocks and hand: 2 to 26; absent for club and region.
	Count int `json:"count,omitempty" minimum:"0" maximum:"26"`
} // @name TournamentGrouping

func (p TournamentPhase) domain() tourney.Phase {
	out := tourney.Phase{Name: p.Name, Movement: tourney.Movement(p.Movement), Rounds: p.Rounds, MitchellStep: p.MitchellStep,
		DealsPerRound: p.DealsPerRound, VPTable: p.VPTable.domain(), CarryOver: tourney.CarryOver(p.CarryOver),
		CarryOverPercent: p.CarryOverPercent}
	if p.Groups != nil {
		out.Groups = &tourney.Grouping{By: tourney.GroupBy(p.Groups.By), Count: p.Groups.Count}
	}
	return out
}

func phasesIn(ps *[]TournamentPhase) *[]tourney.Phase {
	if ps == nil {
		return nil
	}
	out := mapSlice(*ps, TournamentPhase.domain)
	return &out
}

// phasesOut is the set-up's phases as a Tournament shows them: the
// defaults filled in, each with its rounds; nil (absent) without phases.
func phasesOut(t domain.Tournament) []TournamentPhase {
	if len(t.Phases) == 0 {
		return nil
	}
	out := make([]TournamentPhase, len(t.Phases))
	first := 1
	for i, p := range t.Phases {
		deals := p.DealsPerRound
		if deals == 0 {
			deals = t.DealsPerRound
		}
		o := TournamentPhase{Name: p.Name, Movement: string(p.Movement), Rounds: p.Rounds, MitchellStep: max(p.MitchellStep, 1),
			DealsPerRound: deals, CarryOver: string(p.CarryOver), CarryOverPercent: p.CarryOverPercent,
			FirstRound: first, LastRound: first + p.Rounds - 1}
		if i > 0 && o.CarryOver == "" {
			o.CarryOver = string(tourney.CarryAll)
		}
		if table, ok := (tourney.Setup{VPTable: p.VPTable}).VPTableInForce(string(t.Kind), deals); ok {
			o.VPTable, o.VPTableBuiltin = vpTableOut(table), p.VPTable == nil
		}
		if p.Groups != nil {
			o.Groups = &TournamentGrouping{By: string(p.Groups.By), Count: p.Groups.Count}
		}
		first += p.Rounds
		out[i] = o
	}
	return out
}

// TournamentPhaseGroup is a group of a phase once seeded: its name and its
// entries in seeded order.
type TournamentPhaseGroup struct {
	Name    string               `json:"name" example:"A"`
	Entries []TournamentEntryRef `json:"entries"`
} // @name TournamentPhaseGroup

// TournamentPhaseState is a phase as it stands.
type TournamentPhaseState struct {
	Number int `json:"number" example:"3"`
	TournamentPhase
	// pending: no round drawn; playing; done: every round drawn and closed.
	Status string `json:"status" enums:"pending,playing,done" example:"playing"`
	// The groups once the phase is seeded (its first round drawn); empty for a phase without groups.
	Groups []TournamentPhaseGroup `json:"groups_seeded"`
} // @name TournamentPhaseState

// TournamentPhaseList is a tournament's phases: one, covering every round
// and named "", for a tournament without phases.
type TournamentPhaseList struct {
	// The phase of the latest round drawn (1 before any).
	Current int                    `json:"current" example:"3"`
	Items   []TournamentPhaseState `json:"items"`
	Version int64                  `json:"version" example:"96"`
} // @name TournamentPhaseList

func (v playView) phases() TournamentPhaseList {
	out := TournamentPhaseList{Current: 1, Items: []TournamentPhaseState{}, Version: v.snap.Seq}
	views := v.snap.Phases
	if len(views) == 0 { // one phase: the set-up's
		t := v.read.Tournament
		views = []tourney.PhaseView{{Number: 1, FirstRound: 1, LastRound: v.snap.PlannedRounds, Status: tourney.PhasePending,
			Phase: tourney.Phase{Movement: t.Movement, Rounds: v.snap.PlannedRounds, MitchellStep: t.MitchellStep, DealsPerRound: t.DealsPerRound}}}
		if len(v.snap.Rounds) > 0 {
			views[0].Status = tourney.PhasePlaying
			if n := len(v.snap.Rounds); n >= v.snap.PlannedRounds && v.snap.Rounds[n-1].Status == tourney.RoundStatusClosed {
				views[0].Status = tourney.PhaseDone
			}
		}
	}
	for _, pv := range views {
		if pv.Status != tourney.PhasePending {
			out.Current = pv.Number
		}
		p := pv.Phase
		st := TournamentPhaseState{Number: pv.Number, Status: pv.Status, Groups: []TournamentPhaseGroup{},
			TournamentPhase: TournamentPhase{Name: p.Name, Movement: string(p.Movement), Rounds: p.Rounds,
				MitchellStep: p.MitchellStep, DealsPerRound: p.DealsPerRound, CarryOver: string(p.CarryOver),
				CarryOverPercent: p.CarryOverPercent, FirstRound: pv.FirstRound, LastRound: pv.LastRound}}
		if p.VPTable != nil {
			st.VPTable = vpTableOut(*p.VPTable)
		} else if t, ok := vp.Builtin(p.DealsPerRound); ok {
			st.VPTable = vpTableOut(t)
		}
		if p.Groups != nil {
			st.TournamentPhase.Groups = &TournamentGrouping{By: string(p.Groups.By), Count: p.Groups.Count}
		}
		for _, g := range pv.Groups {
			st.Groups = append(st.Groups, TournamentPhaseGroup{Name: g.Name, Entries: v.refs(g.Entries)})
		}
		out.Items = append(out.Items, st)
	}
	return out
}

// TournamentPhaseStandings are the standings of a phase, or of one group of
// it: overall (the VP carried into the phase counted: carried_vp on each
// row) or of the phase's rounds alone.
type TournamentPhaseStandings struct {
	Phase int `json:"phase" example:"3"`
	// The group; absent for the whole field.
	Group string `json:"group,omitempty" example:"A"`
	Scope string `json:"scope" enums:"overall,phase" example:"overall"`
	TournamentStandings
} // @name TournamentPhaseStandings

// Scopes of a phase's standings.
const (
	scopeOverall = "overall"
	scopePhase   = "phase"
)

// listTournamentPhases answers the phases.
//
//	@Summary		List the phases
//	@ID			listTournamentPhases
//	@Description	A tournament in phases (docs/PHASES.md): each phase's set-up (defaults filled in), its rounds, its status (pending, playing, done) and, once seeded (its first round drawn), its groups with their entries in seeded order. A tournament without phases answers one phase, named "", covering every round. Who may see the tournament.
//	@Tags			results
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{object}	TournamentPhaseList
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/phases [get]
func (h resultHandlers) listTournamentPhases(w http.ResponseWriter, r *http.Request) error {
	_, read, err := h.s.playOf(r)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, newPlayView(read).phases())
}

// tournamentPhaseStandings answers a phase's standings.
//
//	@Summary		Get a phase's standings
//	@ID			getTournamentPhaseStandings
//	@Description	The standings of a phase of a tournament in phases (docs/PHASES.md), as they stand: scope overall (the default: the phase's rounds plus the VP carried into it, each row's carried_vp included in its vp; at the end of the last phase, the tournament's standings) or phase (its rounds alone). With group, only the group's entries, ranked among themselves on their group's tables: what the hall shows for one group. A penalty of the event (no round) counts in the current phase's overall standings. A tournament without phases has one phase: phase 1, overall, is GET …/standings. The ETag is the tournament's version, as the standings': send it back in If-None-Match for a 304 (a hall showing one group polls this). Who may see the tournament.
//	@Tags			results
//	@Produce		json
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			phase			path		int		true	"Phase number, from 1"
//	@Param			group			query		string	false	"A group of the phase"	Enums(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z)
//	@Param			scope			query		string	false	"overall (default) or phase"	Enums(overall, phase)
//	@Param			If-None-Match	header		string	false	"The ETag of the standings the caller has"
//	@Success		200				{object}	TournamentPhaseStandings
//	@Header			200				{string}	ETag	"The tournament's version (as GET …/standings')"
//	@Success		304				"Nothing changed (If-None-Match matched)"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer, or scope is not overall or phase"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), phase_not_found, group_not_found (no such group in the phase, or the phase not yet seeded)"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/phases/{phase}/standings [get]
func (h resultHandlers) tournamentPhaseStandings(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	k, err := pathInt(r, "phase")
	if err != nil {
		return err
	}
	q := query{r: r}
	scope := q.enum("scope", func(v string) bool { return v == scopeOverall || v == scopePhase }, "overall, phase")
	group := q.enum("group", isGroupName, "A to Z")
	if err := q.err(); err != nil {
		return err
	}
	read, err := h.s.readPlay(r, id)
	if err != nil {
		return err
	}
	if scope == "" {
		scope = scopeOverall
	}
	st, err := phaseStandingsOf(read.Snapshot, k, group, scope == scopeOverall)
	if err != nil {
		return err
	}
	etag := standingsETag(read.Tournament)
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		return notModified(w, etag)
	}
	w.Header().Set("ETag", etag)
	snap := *read.Snapshot
	snap.Standings = st
	read.Snapshot = &snap
	return respond(w, http.StatusOK, TournamentPhaseStandings{Phase: k, Group: group, Scope: scope,
		TournamentStandings: newPlayView(read).standings()})
}

// phaseStandingsOf finds a phase's standings in the snapshot: those of
// its one phase for a tournament without phases; not found when the
// phase or group is not there (not begun, not seeded).
func phaseStandingsOf(snap *tourney.Snapshot, k int, group string, overall bool) (tourney.Standings, error) {
	if len(snap.Phases) == 0 {
		if k != 1 {
			return tourney.Standings{}, domain.Errorf(domain.Code(tourney.CodePhaseNotFound), "the tournament has one phase")
		}
		if group != "" {
			return tourney.Standings{}, domain.Errorf(domain.Code(tourney.CodeGroupNotFound), "the tournament has no groups")
		}
		return snap.Standings, nil
	}
	if k < 1 || k > len(snap.Phases) {
		return tourney.Standings{}, domain.Errorf(domain.Code(tourney.CodePhaseNotFound), "the tournament has %d phases, not %d", len(snap.Phases), k)
	}
	i := slices.IndexFunc(snap.PhaseStandings, func(sc tourney.ScopedStandings) bool {
		return sc.Phase == k && sc.Group == group && sc.Overall == overall
	})
	switch {
	case i >= 0:
		return snap.PhaseStandings[i].Standings, nil
	case group != "":
		return tourney.Standings{}, domain.Errorf(domain.Code(tourney.CodeGroupNotFound), "phase %d has no group %q (yet)", k, group)
	}
	// A phase not begun: nobody has played it yet.
	t := snap.Standings.Table
	t.Rows = []standings.Row{}
	return tourney.Standings{Provisional: true, Table: t}, nil
}
