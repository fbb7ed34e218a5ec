//go:build race

package api_test

// raceEnabled is true under the race detector, which slows the leak
// property test about tenfold: it plays fewer deals (CI runs it full size
// without the detector).
const raceEnabled = true
