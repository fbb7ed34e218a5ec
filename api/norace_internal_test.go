//go:build !race

package api

// raceEnabled is true under the race detector (see race_internal_test.go).
const raceEnabled = false
