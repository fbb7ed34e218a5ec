package domain

import (
	"testing"

	"github.com/burraco/burraco/domain/tourney"
)

// TestTourneyCodesAreKnownWithTheKindTheyAreSentWith: every code of the
// tourney package is among KnownCodes (so the API documents it), with the
// kind fromTourney gives a refusal carrying it (so the status documented is
// the status sent), and none clashes with a code of the domain or the
// engine of another kind.
func TestTourneyCodesAreKnownWithTheKindTheyAreSentWith(t *testing.T) {
	known := KnownCodes()
	for code, kind := range tourney.Codes() {
		sent := ErrorKind(fromTourney(&tourney.Error{Kind: kind, Code: code, Message: "m"}))
		if got, ok := known[Code(code)]; !ok || got != sent {
			t.Errorf("%s: KnownCodes has %q (listed %v), fromTourney sends %q", code, got, ok, sent)
		}
		if got := KindOf(Code(code)); got != sent {
			t.Errorf("%s: KindOf %q, fromTourney sends %q", code, got, sent)
		}
		if k, ok := codeKinds[Code(code)]; ok && k != sent {
			t.Errorf("%s is also a domain code of kind %q", code, k)
		}
		if k, ok := ruleKinds[engineCode(Code(code))]; ok && k != sent {
			t.Errorf("%s is also an engine rule code of kind %q", code, k)
		}
	}
	if _, ok := known["stale_sheet"]; !ok {
		t.Error("stale_sheet is not known")
	}
}
