package api

import (
	"time"

	"github.com/burraco/burraco/domain"
)

// Player is a person who plays, with or without a login.
type Player struct {
	ID int64 `json:"id" example:"100"`
	// The account of the player, when they have one.
	UserID *int64 `json:"user_id,omitempty" example:"42"`
	Name   string `json:"name" example:"Anna Rossi"`
	// Federation card number (e.g. FIBUR); unique when set.
	FederationID *string `json:"federation_id,omitempty" example:"RM-012345"`
	ClubID       *int64  `json:"club_id,omitempty" example:"7"`
	// Category tags for prizes (issue 32), sorted; set by the directors of the player's club. Shown only to the player themself, those directors and site admins (absent for anyone else, in lists, and when none).
	Categories []string `json:"categories,omitempty" example:"ladies,over65"`
	// Where the player plays (free text); absent when none. A phase of a tournament may make its groups by region.
	Region    string    `json:"region,omitempty" example:"Lazio"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	UpdatedAt time.Time `json:"updated_at" format:"date-time"`
} // @name Player

func playerOut(p domain.Player) Player {
	return Player{ID: p.ID, UserID: p.UserID, Name: p.Name, FederationID: p.FederationID, ClubID: p.ClubID,
		Categories: p.Categories, Region: p.Region, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// PlayerCreateRequest creates a player profile.
type PlayerCreateRequest struct {
	Name         string  `json:"name" example:"Anna Rossi"`
	FederationID *string `json:"federation_id,omitempty" example:"RM-012345"`
	ClubID       *int64  `json:"club_id,omitempty" example:"7"`
	// The account to link: your own id for your own profile; only a site admin may link another user.
	UserID *int64 `json:"user_id,omitempty" example:"42"`
	// Where the player plays (free text, at most 60 characters).
	Region string `json:"region,omitempty" maxLength:"60" example:"Lazio"`
} // @name PlayerCreateRequest

// PlayerUpdateRequest changes a player; absent fields are left as they are.
type PlayerUpdateRequest struct {
	Name         *string `json:"name,omitempty" example:"Anna Maria Rossi"`
	FederationID *string `json:"federation_id,omitempty" example:"RM-012345"`
	ClubID       *int64  `json:"club_id,omitempty" example:"7"`
	// Remove the player from their club (club_id must then be absent).
	ClearClub bool `json:"clear_club,omitempty" example:"false"`
	// Replaces the category tags (an empty list clears them): lowercase slugs (a letter, then up to 23 letters, digits, - or _), at most 10. Only the directors (admins) of the player's club and site admins may give it, not the player.
	Categories *[]string `json:"categories,omitempty" example:"ladies,over65"`
	// Replaces the region ("" clears it; at most 60 characters).
	Region *string `json:"region,omitempty" maxLength:"60" example:"Lazio"`
} // @name PlayerUpdateRequest

// PlayerList is one page of players.
type PlayerList struct {
	Items  []Player `json:"items"`
	Total  int      `json:"total" example:"1"`
	Limit  int      `json:"limit" example:"20"`
	Offset int      `json:"offset" example:"0"`
} // @name PlayerList

// listedPlayerOut is a player in a list: without categories, which are
// shown only on a profile's own read to those who may see them (a list is
// one cached page for every caller).
func listedPlayerOut(p domain.Player) Player {
	out := playerOut(p)
	out.Categories = nil
	return out
}
