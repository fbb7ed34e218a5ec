package tourney

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestForbiddenSetRecordsTheChange: a list given with repeats and both
// ways round is a set, and the event records the pairs added and removed,
// not the list.
func TestForbiddenSetRecordsTheChange(t *testing.T) {
	h := newHarness(t, pairsSetup(Danish, 4, 3))
	h.register(6)
	steps := []struct {
		pairs     [][2]int64
		event     string
		forbidden [][2]int64
	}{
		{[][2]int64{{2, 1}, {1, 2}, {2, 1}, {3, 4}}, `{"added":[[1,2],[3,4]],"removed":[]}`, [][2]int64{{1, 2}, {3, 4}}},
		{[][2]int64{{4, 3}, {6, 5}, {5, 6}}, `{"added":[[5,6]],"removed":[[1,2]]}`, [][2]int64{{3, 4}, {5, 6}}},
		{[][2]int64{{5, 6}, {3, 4}}, `{"added":[],"removed":[]}`, [][2]int64{{3, 4}, {5, 6}}},
		{nil, `{"added":[],"removed":[[3,4],[5,6]]}`, [][2]int64{}},
	}
	for _, st := range steps {
		e := h.do(SetForbidden{Pairs: st.pairs, Reason: "family"}, referee)
		if string(e.Data) != st.event {
			t.Errorf("%v: event %s, want %s", st.pairs, e.Data, st.event)
		}
		if got := h.s.Forbidden(); !slices.Equal(got, st.forbidden) {
			t.Errorf("%v: forbidden %v, want %v", st.pairs, got, st.forbidden)
		}
	}
	h.checkReplay()
}

// TestForbiddenSetIsBounded: more than MaxForbiddenPairs pairs in a
// command is refused, whatever they are.
func TestForbiddenSetIsBounded(t *testing.T) {
	h := newHarness(t, pairsSetup(Danish, 4, 3))
	h.register(4)
	pairs := make([][2]int64, MaxForbiddenPairs+1)
	for i := range pairs {
		pairs[i] = [2]int64{1, 2}
	}
	if err := h.refuse(SetForbidden{Pairs: pairs}, referee, CodeInvalidCommand); len(err.Problems) != 1 || err.Problems[0].Field != "pairs" {
		t.Errorf("problems %+v, want one naming pairs", err.Problems)
	}
}

// TestForbiddenSetOfTheFirstFormReplays: an event written before the
// change, with the whole list (repeats and all), still replays, as a set;
// an event of the new form that does not follow from the list is refused.
func TestForbiddenSetOfTheFirstFormReplays(t *testing.T) {
	h := newHarness(t, pairsSetup(Danish, 4, 3))
	h.register(4)
	apply := func(data string) error {
		e := Event{Seq: h.s.Seq() + 1, At: h.clock, By: 1, Kind: EventForbiddenSet, Data: json.RawMessage(data)}
		return h.s.Apply(e)
	}
	if err := apply(`{"pairs":[[2,1],[1,2],[2,1],[3,4]]}`); err != nil {
		t.Fatal(err)
	}
	if got, want := h.s.Forbidden(), [][2]int64{{1, 2}, {3, 4}}; !slices.Equal(got, want) {
		t.Errorf("forbidden %v, want %v", got, want)
	}
	for _, bad := range []string{`{"added":[[1,2]],"removed":[]}`, `{"added":[[4,1]],"removed":[]}`,
		`{"added":[[1,9]],"removed":[]}`, `{"added":[],"removed":[[1,3]]}`} {
		if err := apply(bad); err == nil {
			t.Errorf("%s was applied", bad)
		}
	}
	if err := apply(`{"pairs":[]}`); err != nil || len(h.s.Forbidden()) != 0 {
		t.Errorf("an empty list of the first form: %v, forbidden %v", err, h.s.Forbidden())
	}
}
