package api

import (
	"time"

	"github.com/burraco/burraco/domain"
)

// Rating is a user's Glicko-2 rating in one rule set family.
type Rating struct {
	UserID   int64  `json:"user_id" example:"7"`
	UserName string `json:"user_name" example:"Anna"`
	// italian (fibur, fibur-row), reale, or brazilian (aberto, fechado).
	Family     string  `json:"family" enums:"italian,reale,brazilian" example:"italian"`
	Rating     float64 `json:"rating" example:"1562.4"`
	RD         float64 `json:"rd" example:"96.2"`
	Volatility float64 `json:"volatility" example:"0.06"`
	// Rated matches played.
	Games int `json:"games" example:"9"`
	// The rating says little yet: rd above 110, or fewer than 5 rated matches.
	Provisional bool      `json:"provisional" example:"false"`
	UpdatedAt   time.Time `json:"updated_at" format:"date-time"`
} // @name Rating

func ratingOut(r domain.UserRating) Rating {
	return Rating{UserID: r.UserID, UserName: r.UserName, Family: string(r.Family), Rating: r.Rating, RD: r.RD,
		Volatility: r.Volatility, Games: r.Games, Provisional: r.Provisional(), UpdatedAt: r.UpdatedAt}
}

// RatingChange is what one rated match did to a player's rating.
type RatingChange struct {
	Family  string `json:"family" enums:"italian,reale,brazilian" example:"italian"`
	TableID int64  `json:"table_id" example:"12"`
	// 1 won, 0.5 drawn, 0 lost.
	Score float64 `json:"score" example:"1"`
	// The opponent as rated: the other player, or in pairs the opposing pair (their mean rating, the root
	// mean square of their deviations).
	Opponent     float64   `json:"opponent" example:"1500"`
	OpponentRD   float64   `json:"opponent_rd" example:"350"`
	RatingBefore float64   `json:"rating_before" example:"1500"`
	RDBefore     float64   `json:"rd_before" example:"350"`
	Rating       float64   `json:"rating" example:"1662.3"`
	RD           float64   `json:"rd" example:"290.3"`
	Volatility   float64   `json:"volatility" example:"0.06"`
	At           time.Time `json:"at" format:"date-time"`
} // @name RatingChange

func ratingChangeOut(c domain.RatingChange) RatingChange {
	return RatingChange{Family: string(c.Family), TableID: c.TableID, Score: c.Score, Opponent: c.Opponent,
		OpponentRD: c.OpponentRD, RatingBefore: c.RatingBefore, RDBefore: c.RDBefore, Rating: c.Rating, RD: c.RD,
		Volatility: c.Volatility, At: c.At}
}

// UserRatings is a user's ratings, one per family they played rated matches in, and their latest changes
// (at most 200), newest first.
type UserRatings struct {
	UserID  int64          `json:"user_id" example:"7"`
	Ratings []Rating       `json:"ratings"`
	History []RatingChange `json:"history"`
} // @name UserRatings

func userRatingsOut(u domain.UserRatings) UserRatings {
	return UserRatings{UserID: u.UserID, Ratings: mapSlice(u.Ratings, ratingOut), History: mapSlice(u.History, ratingChangeOut)}
}

// RatingList is one page of a family's leaderboard.
type RatingList struct {
	Items  []Rating `json:"items"`
	Total  int      `json:"total" example:"1"`
	Limit  int      `json:"limit" example:"20"`
	Offset int      `json:"offset" example:"0"`
} // @name RatingList

func ratingListOut(p domain.Page[domain.UserRating]) RatingList {
	return RatingList{Items: mapSlice(p.Items, ratingOut), Total: p.Total, Limit: p.Limit, Offset: p.Offset}
}
