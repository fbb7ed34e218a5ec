package api

import (
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
	UserID int64  `json:"user_id,omitempty" example:"42"`
	Email  string `json:"email,omitempty" example:"anna@example.com"`
	Role   string `json:"role" enums:"member,referee,admin,owner" example:"member"`
} // @name MemberAddRequest

// validate checks that exactly one of user_id and email names the user.
func (req MemberAddRequest) validate() error {
	var v domain.Validator
	both := req.UserID != 0 && req.Email != ""
	v.Check(!both, "email", "conflict", "give user_id or email, not both")
	v.Check(req.UserID != 0 || req.Email != "", "user_id", "required", "give user_id or email")
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
