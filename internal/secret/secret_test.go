package secret

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	t.Setenv("WEBAGENT_TEST_SECRET", "s3cret")
	file := filepath.Join(t.TempDir(), "pin")
	if err := os.WriteFile(file, []byte("1234\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]string{"env:WEBAGENT_TEST_SECRET": "s3cret", "file:" + file: "1234"} {
		if got, err := Resolve("x", ref); err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", ref, got, err, want)
		}
	}
	for ref, msg := range map[string]string{
		"hunter2":              "is not a reference",
		"vault:kv/x":           "starts with env: or file:",
		"env:WEBAGENT_NO_SUCH": "has no WEBAGENT_NO_SUCH",
		"file:/no/such/file":   "no such file",
	} {
		_, err := Resolve("x", ref)
		if err == nil || !strings.Contains(err.Error(), msg) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Resolve(%q): %v, want an error saying %q without the reference's value", ref, err, msg)
		}
	}
	if err := Check("bad name", "env:X"); err == nil {
		t.Error("a name with a space should be refused")
	}
}
