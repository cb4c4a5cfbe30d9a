package fault

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkerBuiltWithoutTagHasNoHook builds the worker as it ships (no tags, as deploy/up.sh
// and the Dockerfile do) and as the fault tests build it (-tags faultinject): the hook's
// state and the name of its variable are in the second binary and nowhere in the first,
// so a production worker cannot read WEBAGENT_FAULT, let alone act on it.
func TestWorkerBuiltWithoutTagHasNoHook(t *testing.T) {
	dir := t.TempDir()
	build := func(name, tags string) (syms, data []byte) {
		t.Helper()
		bin := filepath.Join(dir, name)
		// -tags= overrides any tags GOFLAGS carries: this is the binary without them.
		if out, err := exec.Command("go", "build", "-tags="+tags, "-o", bin, "github.com/webagent-dev/webagent/workers").CombinedOutput(); err != nil {
			t.Fatalf("go build -tags=%q ./workers: %v\n%s", tags, err, out)
		}
		syms, err := exec.Command("go", "tool", "nm", bin).Output()
		if err != nil {
			t.Fatalf("go tool nm %s: %v", name, err)
		}
		if data, err = os.ReadFile(bin); err != nil {
			t.Fatal(err)
		}
		return syms, data
	}
	prodSyms, prod := build("worker", "")
	hookSyms, hooked := build("worker-"+Tag, Tag)

	const state = "github.com/webagent-dev/webagent/internal/fault.armed"
	if !bytes.Contains(hookSyms, []byte(state)) || !bytes.Contains(hooked, []byte(Env)) {
		t.Fatalf("the worker built with -tags %s should hold %s and the name %s: this test no longer looks for the right things", Tag, state, Env)
	}
	if bytes.Contains(prodSyms, []byte(state)) {
		var found []string
		for _, line := range strings.Split(string(prodSyms), "\n") {
			if strings.Contains(line, "/internal/fault.") {
				found = append(found, strings.TrimSpace(line))
			}
		}
		t.Errorf("the worker built without tags holds the fault hook:\n%s", strings.Join(found, "\n"))
	}
	if bytes.Contains(prod, []byte(Env)) {
		t.Errorf("the worker built without tags holds the name %s: something in it reads the variable", Env)
	}
}
