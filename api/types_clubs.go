package api

import (
	"time"

	"github.com/burraco/burraco/domain"
)

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
	ClubID   int64  `json:"club_id" example:"7"`
	ClubName string `json:"club_name" example:"Circolo Roma"`
	UserID   int64  `json:"user_id" example:"42"`
	UserName string `json:"user_name" example:"Anna Rossi"`
	// The member's e-mail address: shown only to the club's admins and owners, to site admins, and to
	// the member themself; absent for anyone else.
	UserEmail string `json:"user_email,omitempty" example:"anna@example.com"`
	// member < referee (arbitro: enters live scores) < admin < owner.
	Role      string    `json:"role" enums:"member,referee,admin,owner" example:"member"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
} // @name Member

func memberOut(m domain.Membership) Member {
	return Member{ClubID: m.ClubID, ClubName: m.ClubName, UserID: m.UserID, UserName: m.UserName, UserEmail: m.UserEmail, Role: string(m.Role), CreatedAt: m.CreatedAt}
}

// MemberAddRequest adds a user to a club, named by exactly one of user_id
// or email (the address the person registered with).
type MemberAddRequest struct {
	UserID *int64  `json:"user_id,omitempty" example:"42"`
	Email  *string `json:"email,omitempty" example:"anna@example.com"`
	Role   string  `json:"role" enums:"member,referee,admin,owner" example:"member"`
} // @name MemberAddRequest

// validate checks that exactly one of user_id and email names the user.
func (req MemberAddRequest) validate() error {
	var v domain.Validator
	both := req.UserID != nil && req.Email != nil
	v.Check(!both, "email", "conflict", "give user_id or email, not both")
	v.Check(req.UserID != nil || req.Email != nil, "user_id", "required", "give user_id or email")
	v.Check(req.UserID == nil || *req.UserID > 0, "user_id", "invalid", "user_id must be a positive id")
	v.Check(req.Email == nil || *req.Email != "", "email", "required", "email must not be empty")
	if v.Err() != nil { // report the role too, so that every invalid field is listed
		v.Check(domain.Role(req.Role).Valid(), "role", "invalid", "role must be member, referee, admin or owner")
	}
	return v.Err()
}

// MemberUpdateRequest changes a member's role.
type MemberUpdateRequest struct {
	Role string `json:"role" enums:"member,referee,admin,owner" example:"referee"`
} // @name MemberUpdateRequest

// MemberList is one page of memberships: a club's members, or the
// caller's clubs.
type MemberList struct {
	Items  []Member `json:"items"`
	Total  int      `json:"total" example:"1"`
	Limit  int      `json:"limit" example:"20"`
	Offset int      `json:"offset" example:"0"`
} // @name MemberList
