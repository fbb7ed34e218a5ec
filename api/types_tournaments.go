package api

import (
	"encoding/json"
	"time"

	"github.com/burraco/burraco/domain"
)

// Tournament is an event of a club. A draft is seen only by the club's
// admins and site admins; published, running and finished tournaments are
// public.
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
	// Deals (smazzate) each table plays per round.
	DealsPerRound int       `json:"deals_per_round" minimum:"1" maximum:"8" example:"3"`
	StartsAt      time.Time `json:"starts_at" format:"date-time"`
	// draft → published → running → finished, one step at a time. Rules, players_per_table and options are frozen after draft.
	Status    string    `json:"status" enums:"draft,published,running,finished" example:"published"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	UpdatedAt time.Time `json:"updated_at" format:"date-time"`
} // @name Tournament

func tournamentOut(t domain.Tournament) Tournament {
	var o TableOptions
	_ = json.Unmarshal(t.Options, &o) // the domain stores the complete object it validated
	return Tournament{ID: t.ID, ClubID: t.ClubID, ClubName: t.ClubName, Name: t.Name, Description: t.Description,
		Rules: string(t.Rules), Options: o, PlayersPerTable: t.PlayersPerTable, Kind: string(t.Kind), DealsPerRound: t.DealsPerRound,
		StartsAt: t.StartsAt, Status: string(t.Status), CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
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
	// Deals per table per round; absent means 3.
	DealsPerRound *int       `json:"deals_per_round,omitempty" minimum:"1" maximum:"8" example:"3"`
	StartsAt      *time.Time `json:"starts_at" format:"date-time"`
} // @name TournamentCreateRequest

func (req TournamentCreateRequest) input() domain.TournamentInput {
	return domain.TournamentInput{Name: req.Name, Description: req.Description, Rules: domain.RuleSet(req.Rules),
		Options: req.Options.raw(), PlayersPerTable: req.PlayersPerTable, Kind: domain.TournamentKind(req.Kind),
		DealsPerRound: req.DealsPerRound, StartsAt: req.StartsAt}
}

// TournamentUpdateRequest changes a tournament; absent fields are left as
// they are. Rules, players_per_table and options change only while it is
// a draft.
type TournamentUpdateRequest struct {
	Name        *string `json:"name,omitempty" example:"Torneo di Primavera"`
	Description *string `json:"description,omitempty" example:"Pairs, 4 rounds of 3 deals"`
	// A new rule set without options resets the options to its defaults.
	Rules *string `json:"rules,omitempty" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	// Replaces the options: those given over the rule set's defaults.
	Options         *TableOptionsInput `json:"options,omitempty"`
	PlayersPerTable *int               `json:"players_per_table,omitempty" enums:"2,4" example:"4"`
	Kind            *string            `json:"kind,omitempty" enums:"pairs,teams,individual" example:"pairs"`
	DealsPerRound   *int               `json:"deals_per_round,omitempty" minimum:"1" maximum:"8" example:"3"`
	StartsAt        *time.Time         `json:"starts_at,omitempty" format:"date-time"`
	// The next status (one step forward), or the current one.
	Status *string `json:"status,omitempty" enums:"draft,published,running,finished" example:"published"`
} // @name TournamentUpdateRequest

func (req TournamentUpdateRequest) patch() domain.TournamentPatch {
	p := domain.TournamentPatch{Name: req.Name, Description: req.Description, Options: req.Options.raw(),
		PlayersPerTable: req.PlayersPerTable, DealsPerRound: req.DealsPerRound, StartsAt: req.StartsAt}
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

// TournamentList is one page of tournaments.
type TournamentList struct {
	Items  []Tournament `json:"items"`
	Total  int          `json:"total" example:"1"`
	Limit  int          `json:"limit" example:"20"`
	Offset int          `json:"offset" example:"0"`
} // @name TournamentList
