package fault

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// childPoint, set, makes the test binary the process under test: it calls At at that
// point of step 4 and exits 0, which it cannot do if At killed it.
const childPoint = "WEBAGENT_FAULT_TEST_POINT"

func TestMain(m *testing.M) {
	if point := os.Getenv(childPoint); point != "" {
		At(WithStep(context.Background(), 4), point)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// passPoint runs this test binary with WEBAGENT_FAULT=arm, in a process group of its own
// (At kills its caller's whole group), passing point at step 4. It says whether the
// process was killed, and fails the test if it ended any other way than killed or exit 0.
func passPoint(t *testing.T, arm, point string) (killed bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), Env+"="+arm, childPoint+"="+point)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return false
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true
		}
	}
	t.Fatalf("%s=%s, At(%q): %v\n%s", Env, arm, point, err, out)
	return false
}
