package domain

import (
	"errors"

	"github.com/burraco/burraco/engine"
)

// ruleKinds is the kind of each of the engine's rule codes (engine.Codes,
// so none is left out): a move the rules refuse is KindRule (422); a move
// made out of turn is a conflict with the state of the table (409), which
// a client resolves by fetching the table again.
var ruleKinds = func() map[engine.Code]Kind {
	kinds := map[engine.Code]Kind{}
	for _, c := range engine.Codes() {
		kinds[c] = KindRule
	}
	kinds[engine.ErrNotYourTurn] = KindConflict
	return kinds
}()

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
