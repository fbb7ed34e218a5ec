package domain

import (
	"errors"
	"strings"

	"github.com/burraco/burraco/engine"
)

// The rule sets' vocabulary, shared by tables and tournaments (both play
// one): here rather than on either side, so that neither reaches into the
// other's files for it.

// RuleSet is the engine's rule set id (fibur, fibur-row, reale, aberto,
// fechado), named here so that the layers above the domain need not import
// the engine.
type RuleSet = engine.RuleSet

// ruleMessage is the human message of an engine error.
func ruleMessage(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Message
	}
	return err.Error()
}

// ruleSetList lists the rule sets, for the messages that name them.
func ruleSetList() string {
	ids := make([]string, 0, len(engine.RuleSets()))
	for _, id := range engine.RuleSets() {
		ids = append(ids, string(id))
	}
	return strings.Join(ids, ", ")
}

// validRuleSet reports whether id is one of the engine's rule sets.
func validRuleSet(id RuleSet) bool {
	for _, r := range engine.RuleSets() {
		if r == id {
			return true
		}
	}
	return false
}
