package api

import (
	"cmp"
	"encoding/json"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/vp"
)

// Tournament is an event of a club. A draft is seen only by the club's
// admins and site admins; once it has left draft it is public (also when
// cancelled).
type Tournament struct {
	ID          int64  `json:"id" example:"12"`
	ClubID      int64  `json:"club_id" example:"7"`
	ClubName    string `json:"club_name" example:"Circolo Burraco Roma"`
	Name        string `json:"name" example:"Torneo di Primavera"`
	Description string `json:"description" example:"Pairs, 4 rounds of 3 deals"`
	// The rule set every table plays.
	Rules string `json:"rules" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	// Every option, as the tables will play them: the rule set's defaults with the organiser's choices over them.
	Options TableOptions `json:"options"`
	// Players per table: 4 (two pairs) or 2; fibur-row is played by 2.
	PlayersPerTable int `json:"players_per_table" enums:"2,4" example:"4"`
	// pairs (fixed pairs), teams (a team fields pairs per match) or individual (partners change each round).
	Kind string `json:"kind" enums:"pairs,teams,individual" example:"pairs"`
	// Deals (smazzate) each table plays per round: 2, 3 or 4.
	DealsPerRound int       `json:"deals_per_round" minimum:"2" maximum:"4" example:"3"`
	StartsAt      time.Time `json:"starts_at" format:"date-time"`
	// draft → registration_open → registration_closed (check-in) → running → finished → results_published; cancelled (see cancel_reason) from any status before finished. The status moves only by the lifecycle's actions, never by PATCH. Rules, players_per_table, options, kind and team_pairs are frozen after draft, the rest of the set-up once running.
	Status string `json:"status" enums:"draft,registration_open,registration_closed,running,finished,results_published,cancelled" example:"registration_open"`
	// Why a cancelled tournament was called off; absent otherwise.
	CancelReason string `json:"cancel_reason,omitempty" example:"The hall is closed for repairs"`
	TournamentSetupOut
	// The sequence number of the last event of the tournament's log (entries, rounds, scores, ...): it grows with every change of its play.
	Version   int64     `json:"version" example:"0"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	UpdatedAt time.Time `json:"updated_at" format:"date-time"`
} // @name Tournament

// TournamentSetupOut is how a tournament is played beyond the rules of its
// tables (RULES §10), as the Tournament shows it.
type TournamentSetupOut struct {
	// How entries are paired each round: mitchell (NS stay, EW move mitchell_step tables), danish (1–2, 3–4, … by standings), modified_danish (no rematch of the previous round but in the last), round_robin (all'italiana), random (a draw each round), knockout (winners go on, tables play to target_score).
	Movement string `json:"movement" enums:"mitchell,danish,modified_danish,round_robin,random,knockout" example:"modified_danish"`
	// Rounds to play; 0: derived from the field when the tournament starts (round_robin: every entry meets every other; knockout, always 0: the bracket).
	Rounds int `json:"rounds" minimum:"0" maximum:"50" example:"4"`
	// Tables the EW pairs move each round in a Mitchell.
	MitchellStep int `json:"mitchell_step" minimum:"1" maximum:"20" example:"1"`
	// The score a knockout table plays to, with tie-break deals while tied, so that it has a winner.
	TargetScore int `json:"target_score" minimum:"1" maximum:"1000000" example:"2005"`
	// The MP→VP table in force: the event's own, or RULES §10's built-in one for 3- or 4-deal rounds of pairs and individual events (vp_table_builtin). Absent only when neither exists.
	VPTable *VPTable `json:"vp_table,omitempty"`
	// Whether vp_table is the built-in table for the deals per round (it then follows deals_per_round).
	VPTableBuiltin bool `json:"vp_table_builtin" example:"true"`
	// The standings' order: total VP first, then each tie broken by the next criterion.
	TieBreaks []string `json:"tie_breaks" enums:"vp,mp_difference,mp_for,head_to_head,opponents_vp,lots" example:"vp,mp_difference,head_to_head,opponents_vp,lots"`
	// What a bye (rest) scores: VP, and MP for the MP difference.
	RestVP int `json:"rest_vp" minimum:"0" example:"14"`
	RestMP int `json:"rest_mp" minimum:"0" maximum:"5000" multipleOf:"5" example:"355"`
	// The most VP a pair that abandons keeps; 0: RULES §10's 6 (rounds of 2–3 deals) or 8 (4 deals).
	AbandonVP int `json:"abandon_vp" minimum:"0" example:"0"`
	// Whether the pair left at an abandoned table gets the rest score instead of what it scored.
	RemainingGetsRest bool `json:"remaining_gets_rest" example:"false"`
	// Whether entries of the same club are kept apart in the pairings.
	ForbidSameClub bool `json:"forbid_same_club" example:"false"`
	// Modified Danish only. false (RULES §10): only a rematch of the previous round is refused, older rematches are allowed, and the last round is paired as pure Danish, rematches included. true: every earlier opponent is avoided while the field allows it, the last round included.
	AvoidRepeatOpponents bool `json:"avoid_repeat_opponents" example:"false"`
	// The last round an entry may still join at; 0: only before the start.
	LateEntryRound int `json:"late_entry_round" minimum:"0" maximum:"50" example:"1"`
	// Pairs a team fields per match (teams only; 0 for the other kinds).
	TeamPairs int `json:"team_pairs" minimum:"0" maximum:"8" example:"0"`
	// Where the rounds are played: live (score sheets entered by hand) or online (each round's tables are online tables, created when the round starts; the engine writes every deal into the sheet).
	Played string `json:"played" enums:"live,online" example:"live"`
	// How the tables play when the tournament is played online; absent when none were set and it is played live.
	Online *OnlineSettings `json:"online,omitempty"`
	// The prize list (issue 32): overall prizes (no category) and category prizes, given from the final standings by GET …/prizes; absent when there is none.
	Prizes []TournamentPrize `json:"prizes,omitempty"`
	// A tournament in phases (docs/PHASES.md): its phases, defaults filled in, each with its first and last round; movement, mitchell_step and vp_table are then the first phase's and rounds the phases' total. Absent for a tournament of one phase.
	Phases []TournamentPhase `json:"phases,omitempty"`
}

// OnlineSettings is how the tables of a tournament played online play:
// every table a round creates takes them.
type OnlineSettings struct {
	// Per-turn limit in seconds (tempo di mossa); 0: none.
	TurnSeconds int `json:"turn_seconds" minimum:"0" maximum:"3600" example:"60"`
	// The round's time limit in seconds: when it runs out the RULES §10 time-out is called at every unfinished table; 0: none.
	RoundSeconds int `json:"round_seconds" minimum:"0" maximum:"86400" example:"3600"`
	// A player away (or disconnected) on their turn for grace_seconds: bot, a bot stands in until they come back; forfeit, their side forfeits the table (RULES §10 abandonment).
	Absent string `json:"absent" enums:"bot,forfeit" example:"bot"`
	// Seconds away before the absent policy applies (30 to 86400; absent or 0: 120).
	GraceSeconds int `json:"grace_seconds" minimum:"0" maximum:"86400" example:"120"`
	// The tables' reconnect window: seconds a player may be gone before the others may claim (10 to 86400).
	ReconnectSeconds int `json:"reconnect_seconds" example:"120"`
	// What a claim after the window gives at the tables: bot (a bot stands in for the gone player), win (the gone
	// player's side forfeits the table, on the sheet as a forfeit) or none. No draw: a sheet takes no claimed draw.
	Claim string `json:"claim" enums:"bot,win,none" example:"bot"`
	// Whether the tournament's referees and directors (its club's admins) may watch its tables live: they read a table's state, long polls and moves as a spectator (no hand), and its referees call the time-out and stand-ins there. Off: only the round's starter, who created the tables, sees them.
	StaffWatch bool `json:"staff_watch" example:"true"`
} // @name OnlineSettings

// OnlineSettingsInput is the online settings a set-up gives (OnlineSettings
// with every field optional): an absent field takes its default, not its
// zero value, so that {"turn_seconds": 60} leaves the staff watching.
type OnlineSettingsInput struct {
	// Per-turn limit in seconds (tempo di mossa); absent or 0: none.
	TurnSeconds *int `json:"turn_seconds,omitempty" minimum:"0" maximum:"3600" example:"60"`
	// The round's time limit in seconds: when it runs out the RULES §10 time-out is called at every unfinished table; absent or 0: none.
	RoundSeconds *int `json:"round_seconds,omitempty" minimum:"0" maximum:"86400" example:"3600"`
	// A player away (or disconnected) on their turn for grace_seconds: bot (absent: the default), a bot stands in until they come back; forfeit, their side forfeits the table (RULES §10 abandonment).
	Absent *string `json:"absent,omitempty" enums:"bot,forfeit" example:"bot"`
	// Seconds away before the absent policy applies (30 to 86400; absent or 0: 120).
	GraceSeconds *int `json:"grace_seconds,omitempty" minimum:"0" maximum:"86400" example:"120"`
	// The tables' reconnect window: seconds a player may be gone before the others may claim (absent or 0: 120;
	// else 10 to 86400).
	ReconnectSeconds *int `json:"reconnect_seconds,omitempty" minimum:"0" maximum:"86400" example:"120"`
	// What a claim after the window gives at the tables: bot (absent: the default), win (the gone player's side
	// forfeits the table) or none.
	Claim *string `json:"claim,omitempty" enums:"bot,win,none" example:"bot"`
	// Whether the tournament's referees and directors (its club's admins) may watch its tables live and its referees call the time-out and stand-ins there (absent: true). false: only the round's starter, who created the tables, sees them.
	StaffWatch *bool `json:"staff_watch,omitempty" example:"true"`
} // @name OnlineSettingsInput

// domain starts from the defaults (domain.DefaultOnlineSettings) and sets
// the fields given.
func (o *OnlineSettingsInput) domain() *domain.OnlineSettings {
	if o == nil {
		return nil
	}
	s := domain.DefaultOnlineSettings()
	setIf(&s.TurnSeconds, o.TurnSeconds)
	setIf(&s.RoundSeconds, o.RoundSeconds)
	if o.Absent != nil {
		s.Absent = domain.AbsentPolicy(*o.Absent)
	}
	setIf(&s.GraceSeconds, o.GraceSeconds)
	setIf(&s.ReconnectSeconds, o.ReconnectSeconds)
	if o.Claim != nil {
		s.Claim = domain.ClaimPolicy(*o.Claim)
	}
	setIf(&s.StaffWatch, o.StaffWatch)
	return &s
}

// setIf sets *dst to *v when v is given.
func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func onlineOut(o *domain.OnlineSettings) *OnlineSettings {
	if o == nil {
		return nil
	}
	return &OnlineSettings{TurnSeconds: o.TurnSeconds, RoundSeconds: o.RoundSeconds, Absent: string(o.Absent),
		GraceSeconds: o.GraceSeconds, StaffWatch: o.StaffWatch,
		ReconnectSeconds: cmp.Or(o.ReconnectSeconds, domain.DefaultReconnectSeconds), Claim: string(cmp.Or(o.Claim, domain.DefaultOnlineClaim))}
}

// VPTable converts the MP difference of a table over a round into the
// winner's and the loser's VP (RULES §10): bands from 0, contiguous (each
// starts 5 MP after the previous ends), the last open-ended; both sides of
// every band sum to sum; the first band an even split; the winner's VP
// never decreasing.
type VPTable struct {
	Name string `json:"name,omitempty" example:"3-deal"`
	// What the two sides of every band add up to; absent or 0: 20.
	Sum   int      `json:"sum,omitempty" example:"20"`
	Bands []VPBand `json:"bands"`
} // @name VPTable

// VPBand is one row of a VP table.
type VPBand struct {
	// MP difference from (inclusive, a multiple of 5).
	From int `json:"from" example:"55"`
	// MP difference to (inclusive); absent in the last, open-ended band.
	To     *int `json:"to,omitempty" example:"150"`
	Winner int  `json:"winner" example:"11"`
	Loser  int  `json:"loser" example:"9"`
} // @name VPBand

func vpTableOut(t vp.Table) *VPTable {
	out := &VPTable{Name: t.Name, Sum: t.Sum, Bands: make([]VPBand, len(t.Bands))}
	for i, b := range t.Bands {
		out.Bands[i] = VPBand{From: b.From, To: b.To, Winner: b.Winner, Loser: b.Loser}
	}
	return out
}

// domain is the table as the domain takes it (nil for nil).
func (t *VPTable) domain() *vp.Table {
	if t == nil {
		return nil
	}
	out := &vp.Table{Name: t.Name, Sum: t.Sum, Bands: make([]vp.Band, len(t.Bands))}
	for i, b := range t.Bands {
		out.Bands[i] = vp.Band{From: b.From, To: b.To, Winner: b.Winner, Loser: b.Loser}
	}
	return out
}

func tournamentOut(t domain.Tournament) Tournament {
	var o TableOptions
	_ = json.Unmarshal(t.Options, &o) // the domain stores the complete object it validated
	return Tournament{ID: t.ID, ClubID: t.ClubID, ClubName: t.ClubName, Name: t.Name, Description: t.Description,
		Rules: string(t.Rules), Options: o, PlayersPerTable: t.PlayersPerTable, Kind: string(t.Kind), DealsPerRound: t.DealsPerRound,
		StartsAt: t.StartsAt, Status: string(t.Status), CancelReason: t.CancelReason, TournamentSetupOut: setupOut(t),
		Version: t.Version, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

func setupOut(t domain.Tournament) TournamentSetupOut {
	s := t.TournamentSetup
	out := TournamentSetupOut{Movement: string(s.Movement), Rounds: s.Rounds, MitchellStep: s.MitchellStep, TargetScore: s.TargetScore,
		VPTableBuiltin: s.VPTable == nil, RestVP: s.RestVP, RestMP: s.RestMP, AbandonVP: s.AbandonVP, RemainingGetsRest: s.RemainingGetsRest,
		ForbidSameClub: s.ForbidSameClub, AvoidRepeatOpponents: s.AvoidRepeatOpponents, LateEntryRound: s.LateEntryRound,
		TeamPairs: s.TeamPairs, Played: string(s.Played), Online: onlineOut(s.Online), Prizes: prizesOut(s.Prizes),
		Phases: phasesOut(t)}
	if table, ok := t.VPTableInForce(); ok {
		out.VPTable = vpTableOut(table)
	} else {
		out.VPTableBuiltin = false
	}
	for _, c := range t.TieBreakOrder() {
		out.TieBreaks = append(out.TieBreaks, string(c))
	}
	return out
}

// TableOptions are the options of a table (RULES §11): every option that
// applies to its rule set is given, and only those, as in the engine's JSON
// (an option of another rule set does not exist for it: aberto_sets only
// in aberto). The five that apply to every rule set are always there.
type TableOptions struct {
	// Whether a semi-clean burraco exists.
	SemiClean *bool `json:"semi_clean,omitempty" example:"true"`
	// What a semi-clean burraco is: exactly 8 natural cards, or at least 8.
	SemiCleanSet *string `json:"semi_clean_set,omitempty" enums:"exactly8,at_least8" example:"exactly8"`
	// Whether the -100 for an untaken pot applies when neither team took one.
	PotPenaltyIfNeither bool `json:"pot_penalty_if_neither" example:"true"`
	// The closing discard may be neither a joker nor a 2 (no_wild), or only not a 2 (no_pinella).
	ClosingDiscard string `json:"closing_discard" enums:"no_wild,no_pinella" example:"no_wild"`
	Direction      string `json:"direction" enums:"clockwise,anticlockwise" example:"clockwise"`
	// The target score of a match played to a target (1 to 1000000).
	Target int `json:"target" minimum:"1" example:"2005"`
	// Brazilian: a 75-point first meld at half the target.
	Vulnerability bool    `json:"vulnerability" example:"false"`
	JokerPoints   *int    `json:"joker_points,omitempty" enums:"20,30,50" example:"30"`
	Jokers        *bool   `json:"jokers,omitempty" example:"true"`
	CanastraBonus *string `json:"canastra_bonus,omitempty" enums:"100/200,150/300" example:"100/200"`
	// Brazilian: totals rounded up to a multiple of 10.
	RoundUp10 *bool `json:"round_up_10,omitempty" example:"false"`
	// Aberto only: sets of threes and aces.
	AbertoSets *string `json:"aberto_sets,omitempty" enums:"none,threes_and_aces" example:"none"`
	// Fechado only: a clean set of all 8 cards of a rank scores 1000.
	RealCanastra *bool `json:"real_canastra,omitempty" example:"false"`
} // @name TableOptions

// TableOptionsInput chooses options of RULES §11; absent ones take the rule
// set's defaults. An option of another rule set, or an unknown value, is
// invalid_input on options.
type TableOptionsInput struct {
	SemiClean           *bool   `json:"semi_clean,omitempty" example:"true"`
	SemiCleanSet        *string `json:"semi_clean_set,omitempty" enums:"exactly8,at_least8" example:"exactly8"`
	PotPenaltyIfNeither *bool   `json:"pot_penalty_if_neither,omitempty" example:"true"`
	ClosingDiscard      *string `json:"closing_discard,omitempty" enums:"no_wild,no_pinella" example:"no_wild"`
	Direction           *string `json:"direction,omitempty" enums:"clockwise,anticlockwise" example:"clockwise"`
	Target              *int    `json:"target,omitempty" minimum:"1" example:"2005"`
	Vulnerability       *bool   `json:"vulnerability,omitempty" example:"false"`
	JokerPoints         *int    `json:"joker_points,omitempty" enums:"20,30,50" example:"30"`
	Jokers              *bool   `json:"jokers,omitempty" example:"true"`
	CanastraBonus       *string `json:"canastra_bonus,omitempty" enums:"100/200,150/300" example:"100/200"`
	RoundUp10           *bool   `json:"round_up_10,omitempty" example:"false"`
	AbertoSets          *string `json:"aberto_sets,omitempty" enums:"none,threes_and_aces" example:"none"`
	RealCanastra        *bool   `json:"real_canastra,omitempty" example:"false"`
} // @name TableOptionsInput

// raw is the options object to hand to the domain: nil when absent, only
// the chosen keys otherwise.
func (o *TableOptionsInput) raw() json.RawMessage {
	if o == nil {
		return nil
	}
	b, _ := json.Marshal(o) // pointers to plain values: cannot fail
	return b
}

// TournamentCreateRequest creates a tournament, as a draft.
type TournamentCreateRequest struct {
	Name        string `json:"name" example:"Torneo di Primavera"`
	Description string `json:"description,omitempty" example:"Pairs, 4 rounds of 3 deals"`
	Rules       string `json:"rules" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	// Options that differ from the rule set's defaults.
	Options *TableOptionsInput `json:"options,omitempty"`
	// Players per table; fibur-row is played by 2.
	PlayersPerTable *int `json:"players_per_table" enums:"2,4" example:"4"`
	// pairs (fixed pairs), teams (a team fields pairs per match) or individual (partners change each round).
	Kind string `json:"kind" enums:"pairs,teams,individual" example:"pairs"`
	// Deals per table per round: 2, 3 or 4; absent means 3. 2-deal rounds need their own vp_table.
	DealsPerRound *int       `json:"deals_per_round,omitempty" minimum:"2" maximum:"4" example:"3"`
	StartsAt      *time.Time `json:"starts_at" format:"date-time"`
	TournamentSetupInput
} // @name TournamentCreateRequest

// TournamentSetupInput chooses the set-up (see Tournament); absent fields
// take their defaults on creation (a modified Danish of 4 rounds, the
// built-in VP table, RULES' tie-break order, a bye worth 14 VP and 355 MP,
// 2 pairs a team) and stay as they are in a PATCH.
type TournamentSetupInput struct {
	// Absent: modified_danish, or random for an individual event (the only
	// movement it plays: another is 422 naming movement, not_allowed, as is
	// a knockout of teams or individuals).
	Movement *string `json:"movement,omitempty" enums:"mitchell,danish,modified_danish,round_robin,random,knockout" example:"modified_danish"`
	// Absent: 4, or 0 (derived) for round_robin and knockout; a new movement without rounds takes its default.
	Rounds       *int `json:"rounds,omitempty" minimum:"0" maximum:"50" example:"4"`
	MitchellStep *int `json:"mitchell_step,omitempty" minimum:"1" maximum:"20" example:"1"`
	TargetScore  *int `json:"target_score,omitempty" minimum:"1" maximum:"1000000" example:"2005"`
	// The event's own VP table; required for 2-deal rounds and team events, which have no built-in one. Every problem of it is listed (errors vp_table.bands[i]).
	VPTable *VPTable `json:"vp_table,omitempty"`
	// An empty list means the default order.
	TieBreaks         []string `json:"tie_breaks,omitempty" enums:"vp,mp_difference,mp_for,head_to_head,opponents_vp,lots" example:"vp,mp_difference,head_to_head,opponents_vp,lots"`
	RestVP            *int     `json:"rest_vp,omitempty" minimum:"0" example:"14"`
	RestMP            *int     `json:"rest_mp,omitempty" minimum:"0" maximum:"5000" multipleOf:"5" example:"355"`
	AbandonVP         *int     `json:"abandon_vp,omitempty" minimum:"0" example:"0"`
	RemainingGetsRest *bool    `json:"remaining_gets_rest,omitempty" example:"false"`
	ForbidSameClub    *bool    `json:"forbid_same_club,omitempty" example:"true"`
	// Modified Danish: avoid every earlier opponent while possible (default false: RULES §10, only the previous round's is refused).
	AvoidRepeatOpponents *bool `json:"avoid_repeat_opponents,omitempty" example:"false"`
	LateEntryRound       *int  `json:"late_entry_round,omitempty" minimum:"0" maximum:"50" example:"1"`
	// Teams only; absent: 2.
	TeamPairs *int `json:"team_pairs,omitempty" minimum:"0" maximum:"8" example:"0"`
	// live (absent, on create) or online: each round is played at online tables, scored by the engine.
	Played *string `json:"played,omitempty" enums:"live,online" example:"live"`
	// The online settings, used when played online (absent fields take their defaults: no clocks, absent bot after 120 s, staff may watch); a tournament played online without them gets the defaults.
	Online *OnlineSettingsInput `json:"online,omitempty"`
	// Replaces the prize list (an empty list clears it); frozen once the tournament runs, as the rest of the set-up. At most 20 prizes; errors name prizes[i].name, .category, .places.
	Prizes *[]TournamentPrize `json:"prizes,omitempty"`
	// Replaces the phases (docs/PHASES.md; an empty list: one phase again); frozen once the tournament runs. With phases, movement, rounds, mitchell_step and vp_table follow the first phase (rounds: the total) and late_entry_round must be 0. Errors name phases[i].name, .movement, .rounds, .mitchell_step, .deals_per_round, .vp_table, .carry_over, .carry_over_percent, .groups.by, .groups.count.
	Phases *[]TournamentPhase `json:"phases,omitempty"`
}

func (in TournamentSetupInput) domain() domain.SetupInput {
	out := domain.SetupInput{Rounds: in.Rounds, MitchellStep: in.MitchellStep, TargetScore: in.TargetScore, VPTable: in.VPTable.domain(),
		RestVP: in.RestVP, RestMP: in.RestMP, AbandonVP: in.AbandonVP, RemainingGetsRest: in.RemainingGetsRest,
		ForbidSameClub: in.ForbidSameClub, AvoidRepeatOpponents: in.AvoidRepeatOpponents, LateEntryRound: in.LateEntryRound,
		TeamPairs: in.TeamPairs, Online: in.Online.domain(), Prizes: prizesIn(in.Prizes), Phases: phasesIn(in.Phases)}
	if in.Played != nil {
		out.Played = new(domain.Played(*in.Played))
	}
	if in.Movement != nil {
		out.Movement = new(domain.Movement(*in.Movement))
	}
	if in.TieBreaks != nil {
		out.TieBreaks = make([]standings.Criterion, len(in.TieBreaks))
		for i, c := range in.TieBreaks {
			out.TieBreaks[i] = standings.Criterion(c)
		}
	}
	return out
}

func (req TournamentCreateRequest) input() domain.TournamentInput {
	return domain.TournamentInput{Name: req.Name, Description: req.Description, Rules: domain.RuleSet(req.Rules),
		Options: req.Options.raw(), PlayersPerTable: req.PlayersPerTable, Kind: domain.TournamentKind(req.Kind),
		DealsPerRound: req.DealsPerRound, StartsAt: req.StartsAt, Setup: req.TournamentSetupInput.domain()}
}

// TournamentUpdateRequest changes a tournament; absent fields are left as
// they are. Rules, players_per_table, options, kind and team_pairs change
// only while it is a draft, the rest of the set-up until it runs.
type TournamentUpdateRequest struct {
	Name        *string `json:"name,omitempty" example:"Torneo di Primavera"`
	Description *string `json:"description,omitempty" example:"Pairs, 4 rounds of 3 deals"`
	// A new rule set without options resets the options to its defaults.
	Rules *string `json:"rules,omitempty" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	// Replaces the options: those given over the rule set's defaults.
	Options         *TableOptionsInput `json:"options,omitempty"`
	PlayersPerTable *int               `json:"players_per_table,omitempty" enums:"2,4" example:"4"`
	Kind            *string            `json:"kind,omitempty" enums:"pairs,teams,individual" example:"pairs"`
	DealsPerRound   *int               `json:"deals_per_round,omitempty" minimum:"2" maximum:"4" example:"3"`
	StartsAt        *time.Time         `json:"starts_at,omitempty" format:"date-time"`
	// Read-only here: only the current status is accepted (a body read back and sent again); any other is invalid_input with errors[].code lifecycle_action, since the status moves only by the lifecycle's actions.
	Status *string `json:"status,omitempty" enums:"draft,registration_open,registration_closed,running,finished,results_published,cancelled" example:"draft"`
	TournamentSetupInput
	// true: back to the built-in VP table for the deals per round (give no vp_table with it).
	BuiltinVPTable bool `json:"builtin_vp_table,omitempty" example:"false"`
} // @name TournamentUpdateRequest

func (req TournamentUpdateRequest) patch() domain.TournamentPatch {
	p := domain.TournamentPatch{Name: req.Name, Description: req.Description, Options: req.Options.raw(),
		PlayersPerTable: req.PlayersPerTable, DealsPerRound: req.DealsPerRound, StartsAt: req.StartsAt,
		Setup: req.TournamentSetupInput.domain()}
	p.Setup.BuiltinVPTable = req.BuiltinVPTable
	if req.Rules != nil {
		r := domain.RuleSet(*req.Rules)
		p.Rules = &r
	}
	if req.Kind != nil {
		e := domain.TournamentKind(*req.Kind)
		p.Kind = &e
	}
	if req.Status != nil {
		s := domain.TournamentStatus(*req.Status)
		p.Status = &s
	}
	return p
}

// TournamentReferee is a referee (arbitro) assigned to a tournament.
type TournamentReferee struct {
	UserID int64  `json:"user_id" example:"31"`
	Name   string `json:"name" example:"Rita Rossi"`
	// Their role in the tournament's club now; absent when they left it. Only a referee with the referee role or higher referees.
	Role       string    `json:"role,omitempty" enums:"referee,admin,owner,member" example:"referee"`
	AssignedAt time.Time `json:"assigned_at" format:"date-time"`
} // @name TournamentReferee

func refereeOut(r domain.TournamentReferee) TournamentReferee {
	return TournamentReferee{UserID: r.UserID, Name: r.UserName, Role: string(r.Role), AssignedAt: r.AssignedAt}
}

// TournamentRefereeList is a tournament's referees, by name.
type TournamentRefereeList struct {
	Items []TournamentReferee `json:"items"`
} // @name TournamentRefereeList

// TournamentList is one page of tournaments.
type TournamentList struct {
	Items  []Tournament `json:"items"`
	Total  int          `json:"total" example:"1"`
	Limit  int          `json:"limit" example:"20"`
	Offset int          `json:"offset" example:"0"`
} // @name TournamentList
