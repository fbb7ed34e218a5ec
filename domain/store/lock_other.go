//go:build !unix

package store

import (
	"errors"
	"fmt"
)

// lockFile has no flock to use here: a shared hold is granted and an
// exclusive one refused, so that a restore never runs beside a server it
// cannot see.
func lockFile(path string, exclusive bool) (release func(), err error) {
	if exclusive {
		return nil, fmt.Errorf("store: lock %s: %w: stop every server and restore the file by hand", path, errors.ErrUnsupported)
	}
	return func() {}, nil
}
