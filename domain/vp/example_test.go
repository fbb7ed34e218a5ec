package vp_test

import (
	"fmt"

	"github.com/burraco/burraco/domain/vp"
)

func Example() {
	// A 3-deal round that ended 1230 to 470: a difference of 760.
	a, b, err := vp.ThreeDeal().Convert(1230, 470)
	fmt.Println(a, b, err)

	// An organiser's 2-deal table, with a mistake in it.
	_, err = vp.Parse([]byte(`{"name":"2-deal","bands":[
		{"from":0,"to":30,"winner":10,"loser":10},
		{"from":40,"winner":15,"loser":6}]}`))
	for _, p := range err.(vp.Problems) {
		fmt.Println(p.Band, p.Code)
	}
	// Output:
	// 16 4 <nil>
	// 1 gap
	// 1 sides
}
