package domain

import (
	"errors"
	"fmt"

	"github.com/burraco/burraco/engine"
)

// Codes of online tables.
const (
	ENotYourTurn          Code = Code(engine.ErrNotYourTurn) // 409: another seat is to act
	EIdempotencyKeyReused Code = "idempotency_key_reused"    // 422: an Idempotency-Key sent again with another request
)

// RuleCodes are the engine's codes a move (or a table's options) may be
// refused with; they reach clients unchanged (422, but not_your_turn 409).
//
// Interim: the error-class refactor will map engine codes to statuses in
// one place; until then the api registers these.
var RuleCodes = []Code{
	Code(engine.ErrBadNotation), Code(engine.ErrBadPosition), Code(engine.ErrUnknownMove), ENotYourTurn,
	Code(engine.ErrWrongPhase), Code(engine.ErrCardNotInHand), Code(engine.ErrInvalidMeld),
	Code(engine.ErrTooManyWilds), Code(engine.ErrDuplicateSet), Code(engine.ErrWildLocked),
	Code(engine.ErrNoSuchMeld), Code(engine.ErrMustKeepCard), Code(engine.ErrCannotClose),
	Code(engine.ErrClosingDiscardWild), Code(engine.ErrDiscardPickedCard), Code(engine.ErrPickupRequiresMeld),
	Code(engine.ErrMinimumMeldPoints), Code(engine.ErrRowOrder), Code(engine.ErrDealOver),
	Code(engine.ErrStockEmpty), Code(engine.ErrPileEmpty), Code(engine.ErrNotAllowed), Code(engine.ErrBadOption),
}

// ruleError turns an engine *RuleError into a *Error with the engine's code
// and message (written for people); other errors pass unchanged.
func ruleError(err error) error {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return &Error{Code: Code(re.Code), Message: re.Message, Err: err}
	}
	return err
}

// versionConflict is the EVersionConflict of a move sent against an old
// version; the current version is in Fields so that a client can resync.
func versionConflict(current, sent int64) error {
	return &Error{Code: EVersionConflict,
		Message: fmt.Sprintf("the table has changed: you sent version %d, it is at version %d; reload the state", sent, current),
		Fields: []FieldError{{Field: "version", Code: "stale",
			Message: fmt.Sprintf("the current version is %d", current)}}}
}
