package domain

import (
	"context"
	"time"
)

// Role is a user's role in a club. Order matters: a higher role may do all
// that a lower one may.
type Role string

// Club roles.
const (
	RoleMember  Role = "member"
	RoleReferee Role = "referee" // arbitro: enters and corrects live scores
	RoleAdmin   Role = "admin"   // manages the club, its members and events
	RoleOwner   Role = "owner"   // an admin who cannot be removed by other admins
)

// roleRank orders the roles; 0 is no role.
var roleRank = map[Role]int{RoleMember: 1, RoleReferee: 2, RoleAdmin: 3, RoleOwner: 4}

// Valid reports whether r is one of the club roles.
func (r Role) Valid() bool { return roleRank[r] > 0 }

// AtLeast reports whether r may do all that min may. The empty role (not a
// member) is below every role.
func (r Role) AtLeast(min Role) bool { return roleRank[r] > 0 && roleRank[r] >= roleRank[min] }

// Club is a Burraco club (circolo).
type Club struct {
	ID          int64
	Name        string
	City        string
	Description string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// ClubInput creates a club.
type ClubInput struct {
	Name        string
	City        string
	Description string
}

// ClubPatch updates a club; nil fields are left as they are.
type ClubPatch struct {
	Name        *string
	City        *string
	Description *string
}

// ClubFilter filters and pages a club list.
type ClubFilter struct {
	Query  string // substring of the name or city, ignoring case and accents
	Limit  int    // 1..MaxLimit (100); 0 means DefaultLimit (20)
	Offset int
}

// Membership is a user's role in a club.
type Membership struct {
	ClubID    int64
	ClubName  string
	UserID    int64
	UserName  string
	UserEmail string
	Role      Role
	CreatedAt time.Time
}

// MyClubsFilter pages the list of the actor's clubs.
type MyClubsFilter struct {
	Limit  int
	Offset int
}

// MemberFilter filters and pages a member list.
type MemberFilter struct {
	Role   Role // empty: all
	Limit  int
	Offset int
}

// ClubService manages clubs and memberships. Authorisation (access.go):
// any logged-in user may create a club (and becomes its owner); only the
// club's admins and owner, or a site admin, update it and manage its
// members; only an owner or a site admin may grant or remove the owner role;
// members of a club may list its members, but see the e-mail addresses only
// when they are its admins or owners (and each their own); anyone may list
// and read clubs.
type ClubService interface {
	// Create creates a club whose owner is the actor. Errors:
	// EUnauthenticated, EInvalid (name, city, description).
	Create(ctx context.Context, actor Actor, in ClubInput) (Club, error)
	// Update changes a club. Errors: EUnauthenticated, ENotFound,
	// EForbidden, EInvalid.
	Update(ctx context.Context, actor Actor, id int64, p ClubPatch) (Club, error)
	// Get returns a club. Errors: ENotFound.
	Get(ctx context.Context, id int64) (Club, error)
	// List returns clubs ordered by name. Errors: EInvalid (query, limit,
	// offset).
	List(ctx context.Context, f ClubFilter) (Page[Club], error)
	// AddMember adds a user (by id) with a role. Errors: ENotFound (club or
	// user), EConflict (already a member), EForbidden.
	AddMember(ctx context.Context, actor Actor, clubID, userID int64, role Role) (Membership, error)
	// AddMemberByEmail adds the user registered with email (what a club
	// secretary knows, rather than an id). Errors: as AddMember; ENotFound
	// also when no account has that email.
	AddMemberByEmail(ctx context.Context, actor Actor, clubID int64, email string, role Role) (Membership, error)
	// SetRole changes a member's role. Errors: EInvalid (role), ENotFound
	// (club or membership), EForbidden, EConflict (demoting the last owner).
	SetRole(ctx context.Context, actor Actor, clubID, userID int64, role Role) (Membership, error)
	// RemoveMember removes a membership; a member may remove themself. The
	// last owner cannot be removed (EConflict).
	RemoveMember(ctx context.Context, actor Actor, clubID, userID int64) error
	// ListMembers returns a club's members ordered by user name. UserEmail
	// is empty on the members whose address the actor may not see (only
	// the club's admins and owners, site admins, and each member for their
	// own, see it). Errors: EUnauthenticated, ENotFound, EForbidden (not a
	// member), EInvalid.
	ListMembers(ctx context.Context, actor Actor, clubID int64, f MemberFilter) (Page[Membership], error)
	// MyClubs returns the actor's memberships, ordered by club name, so a
	// frontend knows after login where the user is a member, referee or
	// admin. Errors: EUnauthenticated, EInvalid (limit, offset).
	MyClubs(ctx context.Context, actor Actor, f MyClubsFilter) (Page[Membership], error)
	// RoleOf returns the actor's own role in the club, or "" when not a
	// member (or not logged in). Errors: none but the database's.
	RoleOf(ctx context.Context, actor Actor, clubID int64) (Role, error)
}
