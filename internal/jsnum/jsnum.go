// Package jsnum reads a number out of a value decoded from JSON, as a page's script or a
// model's tool call answers it: whole numbers may arrive as ints, the rest as float64.
package jsnum

// Number reads v as a number; ok is false when v is none.
func Number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}
