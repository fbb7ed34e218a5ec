package ratelimit

import "testing"

// TestHoldsCountPerKeyUpToMax: a key may hold max requests; a release
// frees one; other keys are counted apart; and the map forgets a key that
// holds none.
func TestHoldsCountPerKeyUpToMax(t *testing.T) {
	h := NewHolds(2)
	r1, ok1 := h.Acquire("a")
	_, ok2 := h.Acquire("a")
	if _, ok := h.Acquire("a"); !ok1 || !ok2 || ok {
		t.Fatalf("acquired %v %v, then a third %v", ok1, ok2, ok)
	}
	if _, ok := h.Acquire("b"); !ok {
		t.Fatal("another key was refused")
	}
	r1()
	r3, ok := h.Acquire("a")
	if !ok {
		t.Fatal("a released hold was not freed")
	}
	r3()
	h.mu.Lock()
	n := h.held["a"]
	h.mu.Unlock()
	if n != 1 {
		t.Fatalf("a holds %d, want 1", n)
	}
}

// TestHoldsWithoutLimit: a negative max refuses nothing.
func TestHoldsWithoutLimit(t *testing.T) {
	h := NewHolds(-1)
	for range 100 {
		if _, ok := h.Acquire("a"); !ok {
			t.Fatal("refused without a limit")
		}
	}
}
