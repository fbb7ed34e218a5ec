package engine

import (
	"errors"
	"slices"
)

// Code is a stable, machine-readable reason a move or input was refused.
// Codes are part of the public contract (the API returns them to frontends):
// never rename one; add new ones instead.
type Code string

// Rule error codes.
const (
	ErrBadNotation        Code = "bad_notation"         // a card, meld or move that cannot be read
	ErrBadPosition        Code = "bad_position"         // a position that cannot be loaded
	ErrUnknownMove        Code = "unknown_move"         // a move kind the engine does not know
	ErrNotYourTurn        Code = "not_your_turn"        // the seat is not the one to act
	ErrWrongPhase         Code = "wrong_phase"          // e.g. meld before taking, taking twice
	ErrCardNotInHand      Code = "card_not_in_hand"     // the seat does not hold the card(s)
	ErrInvalidMeld        Code = "invalid_meld"         // cards do not make a legal meld
	ErrTooManyWilds       Code = "too_many_wilds"       // more than one wild in a meld
	ErrDuplicateSet       Code = "duplicate_set"        // the team already has a set of that rank
	ErrWildLocked         Code = "wild_locked"          // an imprisoned wild cannot move that way
	ErrNoSuchMeld         Code = "no_such_meld"         // a meld index that does not exist
	ErrMustKeepCard       Code = "must_keep_card"       // the move would leave no legal final discard
	ErrCannotClose        Code = "cannot_close"         // closing conditions not met
	ErrClosingDiscardWild Code = "closing_discard_wild" // closing on a joker or 2
	ErrDiscardPickedCard  Code = "discard_picked_card"  // discarding the single card just picked up
	ErrPickupRequiresMeld Code = "pickup_requires_meld" // fechado: the top card must be used at once
	ErrMinimumMeldPoints  Code = "minimum_meld_points"  // vulnerable team's first melds under 75
	ErrRowOrder           Code = "row_order"            // fibur-row: row cards are played in order
	ErrDealOver           Code = "deal_over"            // the deal has ended
	ErrStockEmpty         Code = "stock_empty"          // nothing left to draw
	ErrPileEmpty          Code = "pile_empty"           // nothing to pick up
	ErrNotAllowed         Code = "not_allowed"          // the rule set does not have this move
	ErrBadOption          Code = "bad_option"           // unknown rule set or option value
)

// codes is every Code above, in the order declared (a test holds it to
// the constants).
var codes = []Code{
	ErrBadNotation, ErrBadPosition, ErrUnknownMove, ErrNotYourTurn, ErrWrongPhase, ErrCardNotInHand,
	ErrInvalidMeld, ErrTooManyWilds, ErrDuplicateSet, ErrWildLocked, ErrNoSuchMeld, ErrMustKeepCard,
	ErrCannotClose, ErrClosingDiscardWild, ErrDiscardPickedCard, ErrPickupRequiresMeld, ErrMinimumMeldPoints,
	ErrRowOrder, ErrDealOver, ErrStockEmpty, ErrPileEmpty, ErrNotAllowed, ErrBadOption,
}

// Codes returns every code the engine may refuse a move or an input with,
// in the order declared: for the packages that map each to a status and
// document them, so that a new code cannot go unlisted there.
func Codes() []Code { return slices.Clone(codes) }

// RuleError is the one error type of the engine: a stable Code for programs
// and a human Message for people. A move rejected with a RuleError has
// changed nothing.
type RuleError struct {
	Code    Code
	Message string
}

func (e *RuleError) Error() string { return string(e.Code) + ": " + e.Message }

// ruleErr builds a *RuleError.
func ruleErr(code Code, msg string) error { return &RuleError{Code: code, Message: msg} }

// ErrorCode returns the Code of err if it is (or wraps) a *RuleError, or "".
func ErrorCode(err error) Code {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Code
	}
	return ""
}
