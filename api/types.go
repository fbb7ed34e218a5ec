package api

import (
	"encoding/json"
	"time"

	"github.com/burraco/burraco/domain"
)

// The request and response bodies of the API. They are the wire contract
// (documented in openapi.yaml) and are kept apart from the domain types so
// that either can change without silently changing the other.

// User is an account.
type User struct {
	ID        int64     `json:"id" example:"42"`
	Email     string    `json:"email" example:"anna@example.com"`
	Name      string    `json:"name" example:"Anna Rossi"`
	SiteAdmin bool      `json:"site_admin" example:"false"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	UpdatedAt time.Time `json:"updated_at" format:"date-time"`
} // @name User

func userOut(u domain.User) User {
	return User{ID: u.ID, Email: u.Email, Name: u.Name, SiteAdmin: u.SiteAdmin, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt}
}

// RegisterRequest creates an account.
type RegisterRequest struct {
	Email string `json:"email" example:"anna@example.com"`
	// At least 10 characters.
	Password string `json:"password" example:"correct horse battery"`
	Name     string `json:"name" example:"Anna Rossi"`
} // @name RegisterRequest

// LoginRequest starts a session.
type LoginRequest struct {
	Email    string `json:"email" example:"anna@example.com"`
	Password string `json:"password" example:"correct horse battery"`
} // @name LoginRequest

// RefreshRequest carries a refresh token to rotate or revoke.
type RefreshRequest struct {
	RefreshToken string `json:"refresh_token" example:"q3Zk9VfX2bL0sT7yWcE4nR8uJ1hA6mD5oP9iG3eK2xY"`
} // @name RefreshRequest

// TokenResponse is a new session: a short-lived access token to send as
// "Authorization: Bearer <access_token>", and a refresh token that can be
// used once to get the next pair.
type TokenResponse struct {
	AccessToken string `json:"access_token" example:"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9..."`
	TokenType   string `json:"token_type" example:"Bearer"`
	// Lifetime of the access token in seconds.
	ExpiresIn int `json:"expires_in" example:"900"`
	// Single use: each refresh returns a new one, and presenting a used one revokes the session.
	RefreshToken     string    `json:"refresh_token" example:"q3Zk9VfX2bL0sT7yWcE4nR8uJ1hA6mD5oP9iG3eK2xY"`
	RefreshExpiresAt time.Time `json:"refresh_expires_at" format:"date-time"`
	User             User      `json:"user"`
} // @name TokenResponse

// Club is a Burraco club (circolo).
type Club struct {
	ID          int64     `json:"id" example:"7"`
	Name        string    `json:"name" example:"Circolo Burraco Roma"`
	City        string    `json:"city" example:"Roma"`
	Description string    `json:"description" example:"Tuesday and Friday evenings"`
	CreatedAt   time.Time `json:"created_at" format:"date-time"`
	UpdatedAt   time.Time `json:"updated_at" format:"date-time"`
} // @name Club

func clubOut(c domain.Club) Club {
	return Club{ID: c.ID, Name: c.Name, City: c.City, Description: c.Description, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// ClubCreateRequest creates a club; the caller becomes its owner.
type ClubCreateRequest struct {
	Name        string `json:"name" example:"Circolo Burraco Roma"`
	City        string `json:"city,omitempty" example:"Roma"`
	Description string `json:"description,omitempty" example:"Tuesday and Friday evenings"`
} // @name ClubCreateRequest

// ClubUpdateRequest changes a club; absent fields are left as they are.
type ClubUpdateRequest struct {
	Name        *string `json:"name,omitempty" example:"Circolo Burraco Roma Nord"`
	City        *string `json:"city,omitempty" example:"Roma"`
	Description *string `json:"description,omitempty" example:"Now also on Sundays"`
} // @name ClubUpdateRequest

// ClubList is one page of clubs.
type ClubList struct {
	Items []Club `json:"items"`
	// Number of clubs matching the filter, on all pages.
	Total  int `json:"total" example:"1"`
	Limit  int `json:"limit" example:"20"`
	Offset int `json:"offset" example:"0"`
} // @name ClubList

// Member is a user's role in a club.
type Member struct {
	ClubID    int64  `json:"club_id" example:"7"`
	ClubName  string `json:"club_name" example:"Circolo Roma"`
	UserID    int64  `json:"user_id" example:"42"`
	UserName  string `json:"user_name" example:"Anna Rossi"`
	UserEmail string `json:"user_email" example:"anna@example.com"`
	// member < referee (arbitro: enters live scores) < admin < owner.
	Role      string    `json:"role" enums:"member,referee,admin,owner" example:"member"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
} // @name Member

func memberOut(m domain.Membership) Member {
	return Member{ClubID: m.ClubID, ClubName: m.ClubName, UserID: m.UserID, UserName: m.UserName, UserEmail: m.UserEmail, Role: string(m.Role), CreatedAt: m.CreatedAt}
}

// MyClubs lists the caller's memberships.
type MyClubs struct {
	Items []Member `json:"items"`
} // @name MyClubs

// MemberAddRequest adds a user to a club, named by exactly one of user_id
// or email (the address the person registered with).
type MemberAddRequest struct {
	UserID *int64 `json:"user_id,omitempty" example:"42"`
	Email  string `json:"email,omitempty" example:"anna@example.com"`
	Role   string `json:"role" enums:"member,referee,admin,owner" example:"member"`
} // @name MemberAddRequest

// validate checks that exactly one of user_id and email names the user, and
// that a user_id given is an id (0 is not taken for "absent").
func (req MemberAddRequest) validate() error {
	var v domain.Validator
	both := req.UserID != nil && req.Email != ""
	v.Check(!both, "email", "conflict", "give user_id or email, not both")
	v.Check(req.UserID != nil || req.Email != "", "user_id", "required", "give user_id or email")
	v.Check(req.UserID == nil || *req.UserID > 0, "user_id", "invalid", "user_id must be a positive id")
	if v.Err() != nil { // report the role too, so that every invalid field is listed
		v.Check(domain.Role(req.Role).Valid(), "role", "invalid", "role must be member, referee, admin or owner")
	}
	return v.Err()
}

// MemberUpdateRequest changes a member's role.
type MemberUpdateRequest struct {
	Role string `json:"role" enums:"member,referee,admin,owner" example:"referee"`
} // @name MemberUpdateRequest

// MemberList is one page of a club's members.
type MemberList struct {
	Items  []Member `json:"items"`
	Total  int      `json:"total" example:"1"`
	Limit  int      `json:"limit" example:"20"`
	Offset int      `json:"offset" example:"0"`
} // @name MemberList

// Player is a person who plays, with or without a login.
type Player struct {
	ID int64 `json:"id" example:"100"`
	// The account of the player, when they have one.
	UserID *int64 `json:"user_id,omitempty" example:"42"`
	Name   string `json:"name" example:"Anna Rossi"`
	// Federation card number (e.g. FIBUR); unique when set.
	FederationID *string   `json:"federation_id,omitempty" example:"RM-012345"`
	ClubID       *int64    `json:"club_id,omitempty" example:"7"`
	CreatedAt    time.Time `json:"created_at" format:"date-time"`
	UpdatedAt    time.Time `json:"updated_at" format:"date-time"`
} // @name Player

func playerOut(p domain.Player) Player {
	return Player{ID: p.ID, UserID: p.UserID, Name: p.Name, FederationID: p.FederationID, ClubID: p.ClubID, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// PlayerCreateRequest creates a player profile.
type PlayerCreateRequest struct {
	Name         string  `json:"name" example:"Anna Rossi"`
	FederationID *string `json:"federation_id,omitempty" example:"RM-012345"`
	ClubID       *int64  `json:"club_id,omitempty" example:"7"`
	// The account to link: your own id for your own profile; only a site admin may link another user.
	UserID *int64 `json:"user_id,omitempty" example:"42"`
} // @name PlayerCreateRequest

// PlayerUpdateRequest changes a player; absent fields are left as they are.
type PlayerUpdateRequest struct {
	Name         *string `json:"name,omitempty" example:"Anna Maria Rossi"`
	FederationID *string `json:"federation_id,omitempty" example:"RM-012345"`
	ClubID       *int64  `json:"club_id,omitempty" example:"7"`
	// Remove the player from their club (club_id must then be absent).
	ClearClub bool `json:"clear_club,omitempty" example:"false"`
} // @name PlayerUpdateRequest

// PlayerList is one page of players.
type PlayerList struct {
	Items  []Player `json:"items"`
	Total  int      `json:"total" example:"1"`
	Limit  int      `json:"limit" example:"20"`
	Offset int      `json:"offset" example:"0"`
} // @name PlayerList

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
	Players int `json:"players" enums:"2,4" example:"4"`
	// pairs (fixed pairs), teams (a team fields pairs per match) or individual (partners change each round).
	Event string `json:"event" enums:"pairs,teams,individual" example:"pairs"`
	// Deals (smazzate) each table plays per round.
	DealsPerRound int       `json:"deals_per_round" minimum:"1" maximum:"8" example:"3"`
	StartsAt      time.Time `json:"starts_at" format:"date-time"`
	// draft → published → running → finished, one step at a time. Rules, players and options are frozen after draft.
	Status    string    `json:"status" enums:"draft,published,running,finished" example:"published"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	UpdatedAt time.Time `json:"updated_at" format:"date-time"`
} // @name Tournament

func tournamentOut(t domain.Tournament) Tournament {
	var o TableOptions
	_ = json.Unmarshal(t.Options, &o) // the domain stores the complete object it validated
	return Tournament{ID: t.ID, ClubID: t.ClubID, ClubName: t.ClubName, Name: t.Name, Description: t.Description,
		Rules: string(t.Rules), Options: o, Players: t.Players, Event: string(t.Event), DealsPerRound: t.DealsPerRound,
		StartsAt: t.StartsAt, Status: string(t.Status), CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

// TableOptions are the options of a table (RULES §11), every one given.
type TableOptions struct {
	// Whether a semi-clean burraco exists.
	SemiClean bool `json:"semi_clean" example:"true"`
	// What a semi-clean burraco is: exactly 8 natural cards, or at least 8.
	SemiCleanSet string `json:"semi_clean_set" enums:"exactly8,at_least8" example:"exactly8"`
	// Whether the -100 for an untaken pot applies when neither team took one.
	PotPenaltyIfNeither bool `json:"pot_penalty_if_neither" example:"true"`
	// The closing discard may be neither a joker nor a 2 (no_wild), or only not a 2 (no_pinella).
	ClosingDiscard string `json:"closing_discard" enums:"no_wild,no_pinella" example:"no_wild"`
	Direction      string `json:"direction" enums:"clockwise,anticlockwise" example:"clockwise"`
	// The target score of a match played to a target (1 to 1000000).
	Target int `json:"target" minimum:"1" example:"2005"`
	// Brazilian: a 75-point first meld at half the target.
	Vulnerability bool   `json:"vulnerability" example:"false"`
	JokerPoints   int    `json:"joker_points" enums:"20,30,50" example:"30"`
	Jokers        bool   `json:"jokers" example:"true"`
	CanastraBonus string `json:"canastra_bonus" enums:"100/200,150/300" example:"100/200"`
	// Brazilian: totals rounded up to a multiple of 10.
	RoundUp10 bool `json:"round_up_10" example:"false"`
	// Aberto only: sets of threes and aces.
	AbertoSets string `json:"aberto_sets" enums:"none,threes_and_aces" example:"none"`
	// Fechado only: a clean set of all 8 cards of a rank scores 1000.
	RealCanastra bool `json:"real_canastra" example:"false"`
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
	Players *int   `json:"players" enums:"2,4" example:"4"`
	Event   string `json:"event" enums:"pairs,teams,individual" example:"pairs"`
	// Deals per table per round; absent means 3.
	DealsPerRound *int       `json:"deals_per_round,omitempty" minimum:"1" maximum:"8" example:"3"`
	StartsAt      *time.Time `json:"starts_at" format:"date-time"`
} // @name TournamentCreateRequest

// The numbers and the time are pointers so that a zero the client sent is
// checked as a value, not taken for an absent field.
func (req TournamentCreateRequest) input() domain.TournamentInput {
	return domain.TournamentInput{Name: req.Name, Description: req.Description, Rules: domain.RuleSet(req.Rules),
		Options: req.Options.raw(), Players: req.Players, Event: domain.Event(req.Event),
		DealsPerRound: req.DealsPerRound, StartsAt: req.StartsAt}
}

// TournamentUpdateRequest changes a tournament; absent fields are left as
// they are. Rules, players and options change only while it is a draft.
type TournamentUpdateRequest struct {
	Name        *string `json:"name,omitempty" example:"Torneo di Primavera"`
	Description *string `json:"description,omitempty" example:"Pairs, 4 rounds of 3 deals"`
	// A new rule set without options resets the options to its defaults.
	Rules *string `json:"rules,omitempty" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	// Replaces the options: those given over the rule set's defaults.
	Options       *TableOptionsInput `json:"options,omitempty"`
	Players       *int               `json:"players,omitempty" enums:"2,4" example:"4"`
	Event         *string            `json:"event,omitempty" enums:"pairs,teams,individual" example:"pairs"`
	DealsPerRound *int               `json:"deals_per_round,omitempty" minimum:"1" maximum:"8" example:"3"`
	StartsAt      *time.Time         `json:"starts_at,omitempty" format:"date-time"`
	// The next status (one step forward), or the current one.
	Status *string `json:"status,omitempty" enums:"draft,published,running,finished" example:"published"`
} // @name TournamentUpdateRequest

func (req TournamentUpdateRequest) patch() domain.TournamentPatch {
	p := domain.TournamentPatch{Name: req.Name, Description: req.Description, Options: req.Options.raw(),
		Players: req.Players, DealsPerRound: req.DealsPerRound, StartsAt: req.StartsAt}
	if req.Rules != nil {
		r := domain.RuleSet(*req.Rules)
		p.Rules = &r
	}
	if req.Event != nil {
		e := domain.Event(*req.Event)
		p.Event = &e
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

// Health is the answer of the health endpoints.
type Health struct {
	Status string `json:"status" example:"ok"`
} // @name Health

// mapSlice converts each element of in with f.
func mapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
