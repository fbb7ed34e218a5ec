package domain

import (
	"context"
	"time"

	"github.com/burraco/burraco/domain/rating"
	"github.com/burraco/burraco/engine"
)

// RatingFamily groups the rule sets one rating measures (issue 29): a
// player's skill at Italian Burraco says little of it at Buraco, so each
// family has ratings of its own. Pairs and two-player matches of a family
// share its rating.
type RatingFamily string

// The rating families.
const (
	FamilyItalian   RatingFamily = "italian"   // fibur, fibur-row
	FamilyReale     RatingFamily = "reale"     // reale
	FamilyBrazilian RatingFamily = "brazilian" // aberto, fechado
)

// ratingFamilies is the one place rule sets are grouped into families.
var ratingFamilies = map[RuleSet]RatingFamily{
	engine.Fibur:    FamilyItalian,
	engine.FiburRow: FamilyItalian,
	engine.Reale:    FamilyReale,
	engine.Aberto:   FamilyBrazilian,
	engine.Fechado:  FamilyBrazilian,
}

// RatingFamilies lists the families, in order.
func RatingFamilies() []RatingFamily {
	return []RatingFamily{FamilyItalian, FamilyReale, FamilyBrazilian}
}

// FamilyOf returns the family of a rule set ("" for an unknown one).
func FamilyOf(rules RuleSet) RatingFamily { return ratingFamilies[rules] }

// Valid reports whether f is one of the families.
func (f RatingFamily) Valid() bool {
	for _, g := range RatingFamilies() {
		if f == g {
			return true
		}
	}
	return false
}

// A rating is provisional while it says little: a deviation above
// ProvisionalRD or fewer than ProvisionalGames rated matches. (A new
// player's deviation, 350, falls below 110 after some 5 to 8 matches.)
const (
	ProvisionalRD    = 110.0
	ProvisionalGames = 5
)

// UserRating is a user's Glicko-2 rating in one family.
type UserRating struct {
	UserID     int64
	UserName   string
	Family     RatingFamily
	Rating     float64
	RD         float64
	Volatility float64
	Games      int // rated matches played
	UpdatedAt  time.Time
}

// Provisional reports whether the rating says little yet.
func (r UserRating) Provisional() bool {
	return r.RD > ProvisionalRD || r.Games < ProvisionalGames
}

// glicko is r as the rating package knows it.
func (r UserRating) glicko() rating.Rating {
	return rating.Rating{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
}

// RatingChange is what one rated match did to one player's rating.
type RatingChange struct {
	UserID  int64
	Family  RatingFamily
	TableID int64
	// Score is the player's result: 1 won, 0.5 drawn, 0 lost; Opponent and
	// OpponentRD the opponent as rated (a pair's: see rateMatch).
	Score        float64
	Opponent     float64
	OpponentRD   float64
	RatingBefore float64
	RDBefore     float64
	Rating       float64
	RD           float64
	Volatility   float64
	At           time.Time
}

// RatingFilter pages a family's leaderboard.
type RatingFilter struct {
	Family RatingFamily
	Limit  int
	Offset int
}

// UserRatings is a user's ratings, one per family they played rated
// matches in, with their history, newest first.
type UserRatings struct {
	UserID  int64
	Ratings []UserRating
	History []RatingChange
}

// RatingService reads ratings; the table service writes them, in the
// transaction that ends a rated match.
type RatingService interface {
	// OfUser returns a user's ratings and their history (the latest
	// MaxRatingHistory changes). Anyone logged in may read them. Errors:
	// EUnauthenticated, ENotFound (no such user).
	OfUser(ctx context.Context, actor Actor, userID int64) (UserRatings, error)
	// Leaderboard returns one page of a family's ratings (no family:
	// italian): the established
	// ones first, then the provisional, each by rating, highest first.
	// Errors: EUnauthenticated, EInvalid (family, limit, offset).
	Leaderboard(ctx context.Context, actor Actor, f RatingFilter) (Page[UserRating], error)
}

// MaxRatingHistory bounds the history OfUser returns.
const MaxRatingHistory = 200

// RatingRepo stores ratings and their history.
type RatingRepo interface {
	// Lock returns the ratings of users in family, a new player's
	// (rating.New, no games) for those who have none, and on PostgreSQL
	// locks their rows (created if missing) until the end of the
	// transaction, so that two matches ending at once update a player one
	// after the other.
	Lock(family RatingFamily, userIDs []int64) (map[int64]UserRating, error)
	// Put stores a rating and the change that made it. Errors: EConflict
	// (the table already rated that user).
	Put(r UserRating, c RatingChange) error
	// Rated reports whether a table's match has rated anyone.
	Rated(tableID int64) (bool, error)
	// StoodIn reports whether a bot ever played a move for a user's seat of
	// the table (a stand-in, at any time of the match).
	StoodIn(tableID int64) (bool, error)
	// OfUser returns a user's ratings (by family) and their latest changes,
	// newest first, at most limit.
	OfUser(userID int64, limit int) ([]UserRating, []RatingChange, error)
	// Leaderboard returns one page of f.Family's ratings with the users'
	// names, ordered as RatingService.Leaderboard says, and the total.
	Leaderboard(f RatingFilter, provisionalRD float64, provisionalGames int) ([]UserRating, int, error)
}

// ratesMatch reports whether a finished table's match moves ratings, as far
// as the table alone says: a rated table of no tournament whose match was
// decided by play, by a clock, by a forfeit or by a claimed win. An aborted
// match has no result, and a claimed draw is the claimants' choice not to
// take one: neither rates (a walk-out's claimed win does, or leaving would
// save a losing player's rating). A bot's stand-in is checked apart
// (RatingRepo.StoodIn).
func ratesMatch(t Table) bool {
	if !t.Rated || t.Tournament != nil || t.Status != TableFinished {
		return false
	}
	switch t.Result {
	case ResultPlayed, ResultLostOnTime, ResultAbandoned:
		return true
	case ResultClaimed:
		return t.Winner != nil
	}
	return false
}

// rateMatch updates the ratings of a rated table's players once its match
// is over, in the transaction that ended it (called by commitTable with
// every finished table: a table rates once). Each player's rating period is
// that one match, against one opponent: in a two-player match the other
// player; in pairs the opposing pair taken as one, with its players' mean
// rating and the root mean square of their deviations (rating.Team), each
// player scored with the pair's result. Partners are not rated against one
// another. Nothing moves when a bot stood in for anyone at any time, nor
// when a seat is not a user's (which a rated table does not allow).
func rateMatch(tx Tx, t Table, now time.Time) error {
	if !ratesMatch(t) {
		return nil
	}
	family := FamilyOf(t.Rules)
	users := make([]int64, len(t.Seats))
	for i, s := range t.Seats {
		if s.UserID == nil || s.PlayedByBot() || family == "" {
			return nil
		}
		users[i] = *s.UserID
	}
	if done, err := tx.Ratings().Rated(t.ID); err != nil || done {
		return err
	}
	if stood, err := tx.Ratings().StoodIn(t.ID); err != nil || stood {
		return err
	}
	rules, err := tableRules(t)
	if err != nil {
		return err
	}
	before, err := tx.Ratings().Lock(family, users)
	if err != nil {
		return err
	}
	for i, uid := range users {
		team := rules.Team(i)
		var opponents []rating.Rating
		for j, other := range users {
			if rules.Team(j) != team {
				opponents = append(opponents, before[other].glicko())
			}
		}
		opp := rating.Team(opponents...)
		score := matchScore(t, team)
		r := before[uid]
		after := rating.Update(r.glicko(), []rating.Game{{Opponent: opp, Score: score}}, rating.Tau)
		c := RatingChange{UserID: uid, Family: family, TableID: t.ID, Score: score, Opponent: opp.Rating,
			OpponentRD: opp.RD, RatingBefore: r.Rating, RDBefore: r.RD, Rating: after.Rating, RD: after.RD,
			Volatility: after.Volatility, At: now}
		r.Rating, r.RD, r.Volatility, r.Games, r.UpdatedAt = after.Rating, after.RD, after.Volatility, r.Games+1, now
		if err := tx.Ratings().Put(r, c); err != nil {
			return err
		}
	}
	return nil
}

// matchScore is team's result in a finished match: 1 won, 0.5 drawn, 0
// lost.
func matchScore(t Table, team int) float64 {
	switch {
	case t.Winner != nil && *t.Winner == team:
		return 1
	case t.Winner != nil:
		return 0
	}
	return 0.5
}

// ratingService implements RatingService.
type ratingService struct {
	st Storage
}

// OfUser implements RatingService.
func (s *ratingService) OfUser(ctx context.Context, actor Actor, userID int64) (UserRatings, error) {
	if actor.Anonymous() {
		return UserRatings{}, errLoginRequired
	}
	out := UserRatings{UserID: userID}
	err := s.st.View(ctx, func(tx Tx) error {
		if _, err := tx.Users().Get(userID); err != nil {
			return err
		}
		var err error
		out.Ratings, out.History, err = tx.Ratings().OfUser(userID, MaxRatingHistory)
		return err
	})
	return out, err
}

// Leaderboard implements RatingService.
func (s *ratingService) Leaderboard(ctx context.Context, actor Actor, f RatingFilter) (Page[UserRating], error) {
	if actor.Anonymous() {
		return Page[UserRating]{}, errLoginRequired
	}
	if f.Family == "" {
		f.Family = FamilyItalian // the game most play
	}
	var v Validator
	v.Check(f.Family.Valid(), "family", "invalid", "family must be italian, reale or brazilian")
	checkPage(&v, &f.Limit, &f.Offset)
	if err := v.Err(); err != nil {
		return Page[UserRating]{}, err
	}
	page := Page[UserRating]{Limit: f.Limit, Offset: f.Offset}
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		page.Items, page.Total, err = tx.Ratings().Leaderboard(f, ProvisionalRD, ProvisionalGames)
		return err
	})
	return page, err
}
