package visual

import (
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func load(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decoded(t testing.TB, name string) *image.RGBA {
	t.Helper()
	m, err := Decode(load(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDiffAgreesWithPixelmatch compares the counts with pixelmatch 7.2.0's on the same
// pairs (testdata/pixelmatch.json, written by testdata/pixelmatch-counts.mjs): identical
// frames, 1% and 5% changed, a dialog opening, and anti-aliased edges moved by a fraction
// of a pixel (not counted) and by whole pixels (counted). They must agree exactly.
func TestDiffAgreesWithPixelmatch(t *testing.T) {
	var want map[string]int
	if err := json.Unmarshal(load(t, "pixelmatch.json"), &want); err != nil {
		t.Fatal(err)
	}
	if len(want) < 6 {
		t.Fatalf("only %d reference pairs", len(want))
	}
	for pair, n := range want {
		t.Run(pair, func(t *testing.T) {
			names := strings.Fields(pair)
			got, err := Diff(decoded(t, names[0]), decoded(t, names[1]), DefaultThreshold)
			if err != nil {
				t.Fatal(err)
			}
			if got != n {
				t.Errorf("Diff = %d px, pixelmatch counts %d", got, n)
			}
		})
	}
}

func TestChanged(t *testing.T) {
	list := decoded(t, "list.png")
	for _, tt := range []struct {
		other string
		share float64
		want  bool
	}{
		{"list.png", 0.02, false},
		{"list-1pct.png", 0.02, false},
		{"list-1pct.png", 0.005, true},
		{"list-5pct.png", 0.02, true},
		{"modal.png", 0.02, true},
	} {
		got, err := Changed(list, decoded(t, tt.other), tt.share)
		if err != nil || got != tt.want {
			t.Errorf("Changed(list, %s, %v) = %v, %v; want %v", tt.other, tt.share, got, err, tt.want)
		}
	}
}

func TestDiffRejectsSizeMismatch(t *testing.T) {
	a := decoded(t, "list.png")
	b := a.SubImage(a.Rect.Inset(10)).(*image.RGBA)
	if _, err := Diff(a, b, DefaultThreshold); err == nil {
		t.Fatal("want an error for images of different sizes")
	}
}

func benchDiff(b *testing.B, x, y string) {
	m1, m2 := decoded(b, x), decoded(b, y)
	for b.Loop() {
		if _, err := Diff(m1, m2, DefaultThreshold); err != nil {
			b.Fatal(err)
		}
	}
}

// 1280×800 frames: go test -run '^$' -bench . ./activities/visual/
func BenchmarkDiffIdentical(b *testing.B)   { benchDiff(b, "list.png", "list.png") }
func BenchmarkDiff5Percent(b *testing.B)    { benchDiff(b, "list.png", "list-5pct.png") }
func BenchmarkDiffDialog(b *testing.B)      { benchDiff(b, "list.png", "modal.png") }
func BenchmarkDiffAntialiased(b *testing.B) { benchDiff(b, "circle-a.png", "circle-c.png") }

// BenchmarkChangedDialog is the question the agent asks: did more than 2% change?
func BenchmarkChangedDialog(b *testing.B) {
	m1, m2 := decoded(b, "list.png"), decoded(b, "modal.png")
	for b.Loop() {
		if ok, err := Changed(m1, m2, 0.02); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkDecodePNG(b *testing.B) {
	data := load(b, "list.png")
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
