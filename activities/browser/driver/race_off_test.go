//go:build !race

package driver_test

// raceDetector says the tests were built with -race.
const raceDetector = false
