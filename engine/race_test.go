//go:build race

package engine

// raceEnabled is true under the race detector, which slows the simulation
// tests down about tenfold: they play fewer deals.
const raceEnabled = true
