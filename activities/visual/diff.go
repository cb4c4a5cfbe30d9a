// Package visual compares screenshots: a pixel diff that counts what pixelmatch counts,
// and the rule that decides whether the UI reached a new state.
package visual

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/draw"
	"image/png"
)

// DefaultThreshold is pixelmatch's default per-pixel colour threshold (0 to 1; smaller is
// more sensitive).
const DefaultThreshold = 0.1

// Decode reads a PNG into RGBA pixels.
func Decode(p []byte) (*image.RGBA, error) {
	src, err := png.Decode(bytes.NewReader(p))
	if err != nil {
		return nil, fmt.Errorf("decode png: %w", err)
	}
	if rgba, ok := src.(*image.RGBA); ok {
		return rgba, nil
	}
	if nrgba, ok := src.(*image.NRGBA); ok && opaque(nrgba.Pix) {
		// An opaque NRGBA image has the same bytes as RGBA.
		return &image.RGBA{Pix: nrgba.Pix, Stride: nrgba.Stride, Rect: nrgba.Rect}, nil
	}
	rgba := image.NewRGBA(src.Bounds())
	draw.Draw(rgba, rgba.Bounds(), src, src.Bounds().Min, draw.Src)
	return rgba, nil
}

func opaque(pix []uint8) bool {
	for i := 3; i < len(pix); i += 4 {
		if pix[i] != 255 {
			return false
		}
	}
	return true
}

// Diff counts the pixels that differ between two images of the same size, as pixelmatch
// 7.2 does with its defaults (threshold 0.1, anti-aliased pixels not counted, semi-
// transparent pixels blended on a checkerboard): a port of its algorithm — the YIQ colour
// distance of Kotsarenko and Ramos, and Vysniauskas's anti-aliasing detector.
func Diff(a, b *image.RGBA, threshold float64) (int, error) {
	return count(a, b, threshold, -1)
}

// Changed reports whether more than share (0 to 1) of the pixels differ, as Diff counts
// them. It stops counting once the answer is known, so a page that changed completely
// costs no more than one that changed just enough.
func Changed(a, b *image.RGBA, share float64) (bool, error) {
	limit := int(share * float64(a.Rect.Dx()*a.Rect.Dy()))
	n, err := count(a, b, DefaultThreshold, limit+1)
	return n > limit, err
}

// count counts differing pixels, stopping at stop when it is not negative.
func count(a, b *image.RGBA, threshold float64, stop int) (int, error) {
	if a.Rect.Dx() != b.Rect.Dx() || a.Rect.Dy() != b.Rect.Dy() {
		return 0, fmt.Errorf("images differ in size: %v and %v", a.Rect.Size(), b.Rect.Size())
	}
	w, h := a.Rect.Dx(), a.Rect.Dy()
	p1, p2 := tight(a), tight(b)
	if bytes.Equal(p1, p2) {
		return 0, nil
	}
	maxDelta := 35215 * threshold * threshold
	diff := 0
	for y := 0; y < h; y++ {
		row := y * w * 4
		for x := 0; x < w; x++ {
			pos := row + x*4
			if binary.LittleEndian.Uint32(p1[pos:]) == binary.LittleEndian.Uint32(p2[pos:]) {
				continue
			}
			delta := colorDelta(p1, p2, pos, pos)
			if delta < 0 {
				delta = -delta
			}
			if delta <= maxDelta {
				continue
			}
			if antialiased(p1, x, y, w, h, p1, p2) || antialiased(p2, x, y, w, h, p2, p1) {
				continue
			}
			diff++
			if diff == stop {
				return diff, nil
			}
		}
	}
	return diff, nil
}

// tight returns the pixels without row padding.
func tight(m *image.RGBA) []uint8 {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	if m.Stride == w*4 {
		off := m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y)
		return m.Pix[off : off+w*h*4]
	}
	out := make([]uint8, 0, w*h*4)
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		off := m.PixOffset(m.Rect.Min.X, y)
		out = append(out, m.Pix[off:off+w*4]...)
	}
	return out
}

// background is the checkerboard colour behind a semi-transparent pixel at offset k.
func background(k int) (float64, float64, float64) {
	return 48 + 159*float64(k%2),
		48 + 159*float64(int(float64(k)/1.618033988749895)%2),
		48 + 159*float64(int(float64(k)/2.618033988749895)%2)
}

// colorDelta is the squared YIQ distance between pixel k of img1 and pixel m of img2,
// negative when img2's pixel is darker.
func colorDelta(img1, img2 []uint8, k, m int) float64 {
	r1, g1, b1, a1 := float64(img1[k]), float64(img1[k+1]), float64(img1[k+2]), float64(img1[k+3])
	r2, g2, b2, a2 := float64(img2[m]), float64(img2[m+1]), float64(img2[m+2]), float64(img2[m+3])
	dr, dg, db, da := r1-r2, g1-g2, b1-b2, a1-a2
	if a1 < 255 || a2 < 255 {
		rb, gb, bb := background(k)
		dr = (r1*a1 - r2*a2 - rb*da) / 255
		dg = (g1*a1 - g2*a2 - gb*da) / 255
		db = (b1*a1 - b2*a2 - bb*da) / 255
	}
	y := dr*0.29889531 + dg*0.58662247 + db*0.11448223
	i := dr*0.59597799 - dg*0.27417610 - db*0.32180189
	q := dr*0.21147017 - dg*0.52261711 + db*0.31114694
	delta := 0.5053*y*y + 0.299*i*i + 0.1957*q*q
	if y > 0 {
		return -delta
	}
	return delta
}

// brightnessDelta is the Y difference between pixels k and m of one image.
func brightnessDelta(img []uint8, k, m int) float64 {
	r1, g1, b1, a1 := float64(img[k]), float64(img[k+1]), float64(img[k+2]), float64(img[k+3])
	r2, g2, b2, a2 := float64(img[m]), float64(img[m+1]), float64(img[m+2]), float64(img[m+3])
	dr, dg, db, da := r1-r2, g1-g2, b1-b2, a1-a2
	if dr == 0 && dg == 0 && db == 0 && da == 0 {
		return 0
	}
	if a1 < 255 || a2 < 255 {
		rb, gb, bb := background(k)
		dr = (r1*a1 - r2*a2 - rb*da) / 255
		dg = (g1*a1 - g2*a2 - gb*da) / 255
		db = (b1*a1 - b2*a2 - bb*da) / 255
	}
	return dr*0.29889531 + dg*0.58662247 + db*0.11448223
}

// antialiased reports whether pixel (x1, y1) of img is likely anti-aliasing ("Anti-aliased
// Pixel and Intensity Slope Detector", V. Vysniauskas, 2009). a and b are the two images,
// img's first.
func antialiased(img []uint8, x1, y1, w, h int, a, b []uint8) bool {
	x0, y0 := max(x1-1, 0), max(y1-1, 0)
	x2, y2 := min(x1+1, w-1), min(y1+1, h-1)
	pos := (y1*w + x1) * 4
	zeroes := 0
	if x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 {
		zeroes = 1
	}
	var lo, hi float64
	var loX, loY, hiX, hiY int
	for x := x0; x <= x2; x++ {
		for y := y0; y <= y2; y++ {
			if x == x1 && y == y1 {
				continue
			}
			delta := brightnessDelta(img, pos, (y*w+x)*4)
			switch {
			case delta == 0:
				zeroes++
				if zeroes > 2 {
					return false
				}
			case delta < lo:
				lo, loX, loY = delta, x, y
			case delta > hi:
				hi, hiX, hiY = delta, x, y
			}
		}
	}
	if lo == 0 || hi == 0 {
		return false
	}
	return (manySiblings(a, loX, loY, w, h) && manySiblings(b, loX, loY, w, h)) ||
		(manySiblings(a, hiX, hiY, w, h) && manySiblings(b, hiX, hiY, w, h))
}

// manySiblings reports whether pixel (x1, y1) has 3 or more neighbours of its exact colour.
func manySiblings(img []uint8, x1, y1, w, h int) bool {
	x0, y0 := max(x1-1, 0), max(y1-1, 0)
	x2, y2 := min(x1+1, w-1), min(y1+1, h-1)
	val := binary.LittleEndian.Uint32(img[(y1*w+x1)*4:])
	zeroes := 0
	if x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 {
		zeroes = 1
	}
	for x := x0; x <= x2; x++ {
		for y := y0; y <= y2; y++ {
			if x == x1 && y == y1 {
				continue
			}
			if binary.LittleEndian.Uint32(img[(y*w+x)*4:]) == val {
				zeroes++
			}
			if zeroes > 2 {
				return true
			}
		}
	}
	return false
}
