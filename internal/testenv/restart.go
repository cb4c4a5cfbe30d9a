package testenv

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
)

// Server is a server a test kills (SIGKILL, no clean shutdown) and starts again on the
// same address and the same data, as when its machine dies and comes back.
type Server struct {
	Addr  string
	start func() *process
	p     *process
}

// Kill ends the server at once.
func (s *Server) Kill() { s.p.Kill() }

// Restart starts the server again after Kill and waits until it answers.
func (s *Server) Restart() { s.p = s.start() }

// Output is what the server logged since it last started.
func (s *Server) Output() string { return s.p.out.String() }

// RestartableTemporal starts a Temporal dev server of the test's own, with the search
// attributes attrs, that keeps its state in a file, so that it can be killed and started
// again mid-run, and returns it with a client (which reconnects by itself after a restart).
func RestartableTemporal(t testing.TB, attrs []SearchAttribute) (*Server, client.Client) {
	t.Helper()
	port := FreePort(t)
	s := &Server{Addr: Addr(port)}
	db := filepath.Join(t.TempDir(), "temporal.db")
	bin := TemporalBin(t)
	s.start = func() *process {
		cmd := exec.Command(bin, "server", "start-dev", "--ip", "127.0.0.1", "--port", strconv.Itoa(port),
			"--headless", "--db-filename", db, "--log-level", "error",
			"--dynamic-config-value", "frontend.enableServerVersionCheck=false")
		cmd.Args = append(cmd.Args, SearchAttributeArgs(attrs)...)
		p := start(t, "temporal", cmd)
		deadline := time.Now().Add(60 * time.Second)
		for {
			c, err := client.Dial(client.Options{HostPort: s.Addr, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
			if err == nil {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				_, err = c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: "default"})
				cancel()
				c.Close()
				if err == nil {
					return p
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("temporal did not start: %v\n%s", err, p.out.String())
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	s.p = s.start()
	c, err := client.Dial(client.Options{HostPort: s.Addr, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatalf("dial temporal: %v", err)
	}
	t.Cleanup(c.Close)
	return s, c
}

// RestartableMinIO starts a MinIO server that can be killed and started again on the
// same address and data folder.
func RestartableMinIO(t testing.TB) *Server {
	t.Helper()
	addr, console, dir := Addr(FreePort(t)), Addr(FreePort(t)), t.TempDir()
	s := &Server{Addr: addr}
	s.start = func() *process {
		cmd := exec.Command(MinIOBin(t), "server", dir, "--address", addr, "--console-address", console, "--quiet")
		cmd.Env = append(os.Environ(), "MINIO_ROOT_USER="+MinIOUser, "MINIO_ROOT_PASSWORD="+MinIOPassword, "MINIO_BROWSER=off")
		p := start(t, "minio", cmd)
		waitHTTP(t, "minio", "http://"+addr+"/minio/health/ready", 60*time.Second, p)
		return p
	}
	s.p = s.start()
	return s
}
