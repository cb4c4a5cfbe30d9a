//go:build !faultinject

package fault

import "testing"

// TestAtIsANoOpWithoutTheTag arms each point the way the fault tests do and passes it:
// built without the tag, as the production worker is, the process goes on.
func TestAtIsANoOpWithoutTheTag(t *testing.T) {
	for _, point := range []string{BeforeAct, Settle, Store} {
		if passPoint(t, point+":4", point) {
			t.Errorf("%s=%s:4 killed a process built without -tags %s", Env, point, Tag)
		}
	}
}
