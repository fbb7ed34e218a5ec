package domain_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// TestEngineCodesAreRulesButNotYourTurn checks the kind of every engine
// code: a refusal of the rules (422), but a move out of turn, a conflict
// with the table's state (409).
func TestEngineCodesAreRulesButNotYourTurn(t *testing.T) {
	known := domain.KnownCodes()
	for _, c := range engine.Codes() {
		want := domain.KindRule
		if c == engine.ErrNotYourTurn {
			want = domain.KindConflict
		}
		if got, ok := known[domain.Code(c)]; !ok || got != want || !domain.IsRuleCode(domain.Code(c)) || domain.RuleKind(c) != want {
			t.Errorf("engine code %q: kind %q (known %v), want %q", c, got, ok, want)
		}
	}
}

func TestFromRuleError(t *testing.T) {
	t.Run("KeepsCodeAndMessageAsRule", func(t *testing.T) {
		err := domain.FromRuleError(fmt.Errorf("move 3: %w", &engine.RuleError{Code: engine.ErrInvalidMeld, Message: "not a meld"}))
		var de *domain.Error
		if !errors.As(err, &de) || de.Code != "invalid_meld" || de.Message != "not a meld" || domain.ErrorKind(err) != domain.KindRule {
			t.Fatalf("%#v", err)
		}
		if engine.ErrorCode(err) != engine.ErrInvalidMeld {
			t.Errorf("the engine error is not kept as the cause")
		}
	})
	t.Run("NotYourTurnIsAConflict", func(t *testing.T) {
		err := domain.FromRuleError(&engine.RuleError{Code: engine.ErrNotYourTurn, Message: "wait"})
		if domain.ErrorKind(err) != domain.KindConflict || domain.ErrorCode(err) != "not_your_turn" {
			t.Fatalf("%#v", err)
		}
	})
	t.Run("UnknownRuleCodeIsRule", func(t *testing.T) {
		err := domain.FromRuleError(&engine.RuleError{Code: "brand_new", Message: "m"})
		if domain.ErrorKind(err) != domain.KindRule || domain.ErrorCode(err) != "brand_new" {
			t.Fatalf("%#v", err)
		}
	})
	t.Run("OtherErrorsUnchanged", func(t *testing.T) {
		plain := errors.New("disk on fire")
		if got := domain.FromRuleError(plain); got != plain || domain.ErrorKind(got) != domain.KindInternal {
			t.Fatalf("%#v", got)
		}
		if domain.FromRuleError(nil) != nil {
			t.Fatal("nil became an error")
		}
	})
}

// TestErrorKinds checks the kind of the domain's own codes (the API's
// statuses follow from them) and that a literal without a Kind gets its
// code's.
func TestErrorKinds(t *testing.T) {
	want := map[domain.Code]domain.Kind{
		domain.EInvalid: domain.KindInvalid, domain.EUnauthenticated: domain.KindUnauthenticated,
		domain.EForbidden: domain.KindForbidden, domain.ENotFound: domain.KindNotFound,
		domain.EConflict: domain.KindConflict, domain.EVersionConflict: domain.KindConflict,
		domain.ETokenReused: domain.KindUnauthenticated, domain.ERateLimited: domain.KindRateLimited,
		domain.EUnavailable: domain.KindUnavailable, domain.EInternal: domain.KindInternal,
		"never_heard_of": domain.KindInternal,
	}
	for code, kind := range want {
		if got := domain.ErrorKind(&domain.Error{Code: code}); got != kind {
			t.Errorf("literal %s: kind %s, want %s", code, got, kind)
		}
		if got := domain.ErrorKind(domain.Errorf(code, "m")); got != kind {
			t.Errorf("Errorf %s: kind %s, want %s", code, got, kind)
		}
	}
	if got := domain.ErrorKind(domain.Newf(domain.KindConflict, "seat_taken", "seat %d is taken", 2)); got != domain.KindConflict {
		t.Errorf("Newf: kind %s", got)
	}
	if domain.ErrorKind(errors.New("x")) != domain.KindInternal {
		t.Error("a plain error is not internal")
	}
}
