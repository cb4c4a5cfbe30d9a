package jsnum

import "testing"

func TestNumber(t *testing.T) {
	for _, c := range []struct {
		v    any
		want float64
		ok   bool
	}{{3.5, 3.5, true}, {7, 7, true}, {int64(-2), -2, true}, {"3", 0, false}, {nil, 0, false}} {
		if got, ok := Number(c.v); got != c.want || ok != c.ok {
			t.Errorf("Number(%#v) = %v, %v; want %v, %v", c.v, got, ok, c.want, c.ok)
		}
	}
}
