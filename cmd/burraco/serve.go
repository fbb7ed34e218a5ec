package main

import (
	"context"
	"fmt"
	"io"
)

// runServe is a placeholder until the command is built.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "burraco: not implemented yet")
	return 1
}
