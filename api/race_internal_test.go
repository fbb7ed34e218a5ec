//go:build race

package api

// raceEnabled is true under the race detector, which slows the random
// conversion test about tenfold: it plays a sample there (.ci/test.sh runs
// it full size without the detector). race_test.go says the same to the
// api_test package.
const raceEnabled = true
