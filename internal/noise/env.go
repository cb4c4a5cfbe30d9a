package noise

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// Levels are the noise levels a test runs: NOISE_LEVELS, or def ("0 0.1 0.2").
func Levels(t testing.TB, def string) []float64 {
	s := os.Getenv("NOISE_LEVELS")
	if s == "" {
		s = def
	}
	var out []float64
	for _, f := range strings.Fields(s) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("NOISE_LEVELS: %v", err)
		}
		out = append(out, v)
	}
	return out
}

// Seeds is how many seeds a test runs: the environment variable env, or def.
func Seeds(t testing.TB, env string, def int) int {
	if v := os.Getenv(env); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a positive number", env, v)
		}
		return n
	}
	return def
}
