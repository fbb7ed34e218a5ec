//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile takes a lock on the file at path (created 0600 if missing),
// exclusive or shared, without waiting: a conflicting lock is
// ErrDatabaseInUse for the exclusive one, ErrRestoring for a shared one.
// flock locks belong to the open file, so they conflict within one process
// too, and the kernel releases them when the process ends however it ends.
func lockFile(path string, exclusive bool) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock file: %w", err)
	}
	how, busy := syscall.LOCK_SH, ErrRestoring
	if exclusive {
		how, busy = syscall.LOCK_EX, ErrDatabaseInUse
	}
	for {
		err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w (%s is locked)", busy, path)
		}
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil // closing the file releases its lock
}
