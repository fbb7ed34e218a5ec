package engine

import (
	"os"
	"strconv"
	"testing"
)

// propertyDeals is how many deals per configuration a random property of
// the views and the searches plays: ci under plain go test (CI's size,
// chosen so that make test fits its time on two cores while every
// configuration and every kind of position the property tallies is still
// met), short under -short, and ci times BURRACO_DEEP when that is set
// (the deep run: BURRACO_DEEP=10 plays ten times CI's deals). The
// simulation has its own BURRACO_SIM_DEALS (simDeals).
func propertyDeals(t *testing.T, ci, short int) int {
	t.Helper()
	if s := os.Getenv("BURRACO_DEEP"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("BURRACO_DEEP=%q: want a positive number", s)
		}
		return ci * n
	}
	if testing.Short() {
		return short
	}
	return ci
}
