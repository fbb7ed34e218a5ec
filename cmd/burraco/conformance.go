package main

import (
	"context"
	"fmt"
	"io"

	"github.com/burraco/burraco/engine/conformance"
)

// runConformance runs every *.json case under DIR (recursively): one line per
// case, then "N passed, M failed"; exit status 1 when any case fails or
// cannot be read, or when DIR holds no case at all (a wrong directory must
// not pass), 2 on bad usage.
func runConformance(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: burraco conformance DIR")
		return 2
	}
	passed, failed, err := conformance.RunDir(args[0], stdout)
	if err != nil {
		fmt.Fprintf(stderr, "burraco conformance: %v\n", err)
		return 1
	}
	if passed+failed == 0 {
		fmt.Fprintf(stderr, "burraco conformance: no *.json case found under %s\n", args[0])
		return 1
	}
	if failed > 0 {
		return 1
	}
	return 0
}
