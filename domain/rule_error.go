package domain

import (
	"errors"

	"github.com/burraco/burraco/engine"
)

// ruleKinds is the one table of the engine's rule codes: every code the
// engine may refuse a move or an input with, and its kind. A move the rules
// refuse is KindRule (422); a move made out of turn is a conflict with the
// state of the table (409), which a client resolves by fetching the table
// again. A test fails when the engine has a code this table lacks.
var ruleKinds = map[engine.Code]Kind{
	engine.ErrBadNotation:        KindRule,
	engine.ErrBadPosition:        KindRule,
	engine.ErrUnknownMove:        KindRule,
	engine.ErrNotYourTurn:        KindConflict,
	engine.ErrWrongPhase:         KindRule,
	engine.ErrCardNotInHand:      KindRule,
	engine.ErrInvalidMeld:        KindRule,
	engine.ErrTooManyWilds:       KindRule,
	engine.ErrDuplicateSet:       KindRule,
	engine.ErrWildLocked:         KindRule,
	engine.ErrNoSuchMeld:         KindRule,
	engine.ErrMustKeepCard:       KindRule,
	engine.ErrCannotClose:        KindRule,
	engine.ErrClosingDiscardWild: KindRule,
	engine.ErrDiscardPickedCard:  KindRule,
	engine.ErrPickupRequiresMeld: KindRule,
	engine.ErrMinimumMeldPoints:  KindRule,
	engine.ErrRowOrder:           KindRule,
	engine.ErrDealOver:           KindRule,
	engine.ErrStockEmpty:         KindRule,
	engine.ErrPileEmpty:          KindRule,
	engine.ErrNotAllowed:         KindRule,
	engine.ErrBadOption:          KindRule,
}

func engineCode(c Code) engine.Code { return engine.Code(c) }

// RuleKind returns the kind of an engine rule code: its entry in the rule
// table, or KindRule for a code the table does not know yet.
func RuleKind(code engine.Code) Kind {
	if k, ok := ruleKinds[code]; ok {
		return k
	}
	return KindRule
}

// FromRuleError converts an engine error (an *engine.RuleError, or one
// wrapping it) into a *Error with the same code and message, of the kind
// the rule table gives the code. Any other error is returned as it is (an
// internal error); nil stays nil.
func FromRuleError(err error) error {
	var re *engine.RuleError
	if !errors.As(err, &re) {
		return err
	}
	return &Error{Kind: RuleKind(re.Code), Code: Code(re.Code), Message: re.Message, Err: err}
}

// IsRuleCode reports whether code is one of the engine's rule codes.
func IsRuleCode(code Code) bool {
	_, ok := ruleKinds[engineCode(code)]
	return ok
}
