// Package vp converts a table's match points (MP) over a round into victory
// points (VP), RULES §10: the MP difference, winner–loser, looked up in a
// table of bands whose two sides sum to a constant (20).
//
// It owns the built-in 3-deal and 4-deal tables exactly as RULES §10 lists
// them, the Table type an event loads from JSON (2-deal and team tables are
// the organiser's), and the validation of such a table, which lists every
// problem at once. It imports the standard library only.
//
// Points are multiples of 5 (RULES §10), so band edges are multiples of 5 and
// a band covers every multiple of 5 from its From to its To. A difference
// that is not a multiple of 5 is refused (ErrNotMultipleOf5): it can only come
// from a bad score entry, and placing it silently in a band would hide that.
package vp
