package page

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// markColors cycle so that neighbouring boxes differ.
var markColors = []color.RGBA{
	{230, 25, 75, 255}, {60, 140, 60, 255}, {0, 100, 200, 255}, {245, 130, 48, 255},
	{145, 30, 180, 255}, {0, 150, 150, 255}, {200, 50, 200, 255}, {120, 90, 40, 255},
}

// DrawMarks returns a copy of a viewport screenshot with each element's box and number
// drawn on it (set-of-marks), so that a model can answer with a number. Boxes are in page
// coordinates; the observation's scroll offset maps them into the viewport.
func DrawMarks(shot []byte, obs Observation) ([]byte, error) {
	src, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		return nil, fmt.Errorf("decode screenshot: %w", err)
	}
	img := image.NewRGBA(src.Bounds())
	draw.Draw(img, img.Bounds(), src, image.Point{}, draw.Src)
	face := basicfont.Face7x13
	for _, e := range obs.Elements {
		if e.Offscreen {
			continue
		}
		c := markColors[e.Index%len(markColors)]
		r := image.Rect(e.Box.X-obs.ScrollX, e.Box.Y-obs.ScrollY, e.Box.X-obs.ScrollX+e.Box.W, e.Box.Y-obs.ScrollY+e.Box.H).Intersect(img.Bounds())
		if r.Empty() {
			continue
		}
		outline(img, r, c, 2)
		label := strconv.Itoa(e.Index)
		w := font.MeasureString(face, label).Ceil() + 4
		lr := image.Rect(r.Min.X, r.Min.Y-15, r.Min.X+w, r.Min.Y)
		if lr.Min.Y < 0 { // no room above: inside the box
			lr = lr.Add(image.Pt(0, 15))
		}
		draw.Draw(img, lr, &image.Uniform{c}, image.Point{}, draw.Src)
		d := font.Drawer{Dst: img, Src: image.White, Face: face, Dot: fixed.P(lr.Min.X+2, lr.Max.Y-3)}
		d.DrawString(label)
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&out, img); err != nil {
		return nil, fmt.Errorf("encode marked screenshot: %w", err)
	}
	return out.Bytes(), nil
}

func outline(img *image.RGBA, r image.Rectangle, c color.RGBA, width int) {
	u := &image.Uniform{c}
	draw.Draw(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+width), u, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(r.Min.X, r.Max.Y-width, r.Max.X, r.Max.Y), u, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+width, r.Max.Y), u, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(r.Max.X-width, r.Min.Y, r.Max.X, r.Max.Y), u, image.Point{}, draw.Src)
}

// Size returns a PNG's width and height, or 0, 0.
func Size(shot []byte) (int, int) {
	cfg, err := png.DecodeConfig(bytes.NewReader(shot))
	if err != nil {
		return 0, 0
	}
	return cfg.Width, cfg.Height
}
