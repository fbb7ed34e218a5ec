package main

import (
	"context"
	"fmt"
	"io"
)

// runMigrate is a placeholder until the command is built.
func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "burraco: not implemented yet")
	return 1
}
