//go:build !race

package api_test

// raceEnabled is true under the race detector (see race_test.go).
const raceEnabled = false
