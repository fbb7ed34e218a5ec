package domain

import (
	"context"
	"time"
)

// Player is a person who plays: a profile with an optional federation id and
// club. UserID links it to a login when the person has one.
type Player struct {
	ID           int64
	UserID       *int64
	Name         string
	FederationID *string // e.g. a FIBUR card number; unique when set
	ClubID       *int64
	// Categories are the player's category tags for prizes (issue 32):
	// short lowercase slugs such as ladies, newcomer, over65, sorted, at
	// most MaxCategories. Set by the directors of the player's club (its
	// admins) or a site admin, never by the player: a prize depends on them.
	Categories []string
	// Region is where the player plays (e.g. Lazio), free text, "" for
	// none: a phase may make its groups by region (docs/PHASES.md).
	Region    string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// PlayerInput creates a player.
type PlayerInput struct {
	Name         string
	FederationID *string
	ClubID       *int64
	UserID       *int64 // only a site admin may link another user; a user may create their own profile (UserID = self)
	Region       string
}

// PlayerPatch updates a player; nil fields are left as they are. ClearClub
// removes the club.
type PlayerPatch struct {
	Name         *string
	FederationID *string
	ClubID       *int64
	ClearClub    bool
	// Categories replaces the tags (an empty list clears them); only the
	// directors of the player's club and site admins may give it.
	Categories *[]string
	// Region replaces the region ("" clears it).
	Region *string
}

// PlayerFilter filters and pages a player list.
type PlayerFilter struct {
	Query  string // substring of the name (ignoring case and accents), or exact federation id
	ClubID *int64
	Limit  int
	Offset int
}

// PlayerService manages player profiles. Authorisation: a logged-in user may
// create and edit their own profile; a club's admins may create and edit
// profiles of players of their club (e.g. for live tournaments); site admins
// anything; anyone may read and list.
type PlayerService interface {
	// Create creates a profile. A user's own profile may name a club only
	// if the user is a member of it; a profile without a user needs a club
	// the actor administers (or a site admin). Errors: EUnauthenticated,
	// EInvalid, EForbidden, ENotFound (club or user), EConflict (federation
	// id taken, or the user already has a profile).
	Create(ctx context.Context, actor Actor, in PlayerInput) (Player, error)
	// Update changes a profile: its user, its club's admins or a site
	// admin may (the admins of the club a user's own profile names only
	// while that user is a member of the club); moving it to a club is
	// checked as in Create. An empty
	// FederationID clears it. Errors: as Create, and ENotFound.
	Update(ctx context.Context, actor Actor, id int64, p PlayerPatch) (Player, error)
	// Get returns a player. Errors: ENotFound.
	Get(ctx context.Context, id int64) (Player, error)
	// List returns players ordered by name. Errors: EInvalid.
	List(ctx context.Context, f PlayerFilter) (Page[Player], error)
	// CategoriesSeen is p with its categories as the actor may see them:
	// kept for the player themself, the directors (admins) of its club and
	// site admins, nil for anyone else (an age band or a sex is not
	// published beyond those who set it). Anonymous: no query.
	CategoriesSeen(ctx context.Context, actor Actor, p Player) (Player, error)
	// Delete removes a profile, with the rights of Update. Errors:
	// EUnauthenticated, ENotFound, EForbidden, EConflict (still referenced).
	Delete(ctx context.Context, actor Actor, id int64) error
}
