package visual_test

import (
	"flag"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/image/vector"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/visual"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

var generate = flag.Bool("generate", false, "regenerate the image pairs under testdata (needs Chromium); then rerun testdata/pixelmatch-counts.mjs")

// TestGenerateTestdata writes the image pairs the diff is checked on: real screenshots of
// the demo app (the project list, the same with its "New project" dialog open), the list
// with 1% and 5% of its pixels changed, and an anti-aliased circle shifted by a fraction
// of a pixel.
func TestGenerateTestdata(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to rewrite the image pairs")
	}
	app := demoapp.New(demoapp.Project{Name: "Website relaunch", Priority: "High"}, demoapp.Project{Name: "Q4-bugs", Priority: "Medium"})
	srv := httptest.NewServer(app)
	defer srv.Close()
	pool, err := driver.NewPool(driver.Config{DriverDir: testenv.DriverDir(t), ExecutablePath: testenv.Chromium(t), Headless: true, Internal: testenv.Loopback()},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Shutdown()
	s, _, err := pool.Open(t.Context(), "gen", driver.OpenOptions{URL: srv.URL + "/projects"})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Settle(t.Context(), 2e9)
	list, err := s.Screenshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if out, err := s.Do(t.Context(), plan.Step{Action: plan.Click, TargetDescription: "New project"}, driver.DoOptions{WaitBudget: 1e9}); err != nil || !out.OK {
		t.Fatalf("open the dialog: %v", err)
	}
	write(t, "list.png", list)
	modal, _ := s.Screenshot(t.Context())
	write(t, "modal.png", modal)

	base, err := visual.Decode(list)
	if err != nil {
		t.Fatal(err)
	}
	writeImage(t, "list-1pct.png", withBlock(base, image.Rect(900, 600, 1028, 680))) // 128×80 = 1% of 1280×800
	writeImage(t, "list-5pct.png", withBlock(base, image.Rect(700, 500, 1020, 660))) // 320×160 = 5%
	writeImage(t, "circle-a.png", circle(400, 300))
	writeImage(t, "circle-b.png", circle(400.5, 300.35))
	writeImage(t, "circle-c.png", circle(403, 301))
}

func withBlock(src *image.RGBA, r image.Rectangle) *image.RGBA {
	m := image.NewRGBA(src.Rect)
	copy(m.Pix, src.Pix)
	draw.Draw(m, r, &image.Uniform{color.RGBA{220, 40, 60, 255}}, image.Point{}, draw.Src)
	return m
}

// circle draws an anti-aliased dark disc on white.
func circle(cx, cy float32) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, 1280, 800))
	draw.Draw(m, m.Rect, image.White, image.Point{}, draw.Src)
	z := vector.NewRasterizer(1280, 800)
	const r = 180
	z.MoveTo(cx+r, cy)
	for i := 1; i <= 256; i++ {
		a := 2 * math.Pi * float64(i) / 256
		z.LineTo(cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a)))
	}
	z.ClosePath()
	z.Draw(m, m.Rect, &image.Uniform{color.RGBA{30, 40, 90, 255}}, image.Point{})
	return m
}

func write(t *testing.T, name string, data []byte) {
	if err := os.WriteFile(filepath.Join("testdata", name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeImage(t *testing.T, name string, m image.Image) {
	f, err := os.Create(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, m); err != nil {
		t.Fatal(err)
	}
}
