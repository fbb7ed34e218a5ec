//go:build race

package api_test

// raceEnabled is true under the race detector, which slows the tests that
// play whole deals through the API about tenfold: they play a sample
// (racesample_test.go; CI runs them whole without the detector).
const raceEnabled = true
