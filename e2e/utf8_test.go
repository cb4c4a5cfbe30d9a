package e2e

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/internal/codec"
	"github.com/webagent-dev/webagent/internal/textcut"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// utf8Cut is where the site policy cuts an address it quotes (internal/sites).
const utf8Cut = 120

// utf8Addresses are NAVIGATE addresses on another site whose paths are made of one
// multi-byte character repeated — é (2 bytes), 日 (3), 😀 (4) — after 0 to 3 ASCII bytes, so
// that the character under the policy's 120-byte cut is entered at every one of its bytes,
// and at a boundary. Both prefixes are 22 bytes; one has a multi-byte host of its own.
func utf8Addresses() []string {
	var out []string
	for _, prefix := range []string{"http://例え.example/", "https://other.example/"} {
		for _, ch := range []string{"é", "日", "😀"} {
			for pad := 0; pad < 4; pad++ {
				out = append(out, prefix+strings.Repeat("x", pad)+strings.Repeat(ch, 2*utf8Cut/len(ch)))
			}
		}
	}
	return out
}

// TestMultiByteMessagesEnd: a run whose messages carry multi-byte text cut at every limit
// ends with a clean status, codec on and off. Each run is started as `temporal workflow
// start` starts it — the plain input through the client, no starter-side check — with a
// plan whose NAVIGATE the site policy refuses, quoting the address cut at 120 bytes; so is
// one suite holding all those plans. A cut inside a character made the failure message
// invalid UTF-8, which Temporal cannot encode without the codec: the workflow task never
// completed and the run showed Running forever. With the codec the message was encoded,
// but as U+FFFD. Validation refuses before any browser session opens, so each run takes
// one workflow task.
func TestMultiByteMessagesEnd(t *testing.T) {
	s := newStack(t)
	// A long goal of multi-byte text rides along: no message of a refused run may cut it.
	goal := strings.Repeat("ページを開いて確認する。", 20)
	var goals []workflows.GoalInput
	suite := workflows.SuiteInput{Name: goal}
	for i, addr := range utf8Addresses() {
		in := workflows.GoalInput{Goal: goal, StartURL: "https://start.example/", Plan: []plan.Step{
			{Step: 1, Action: plan.Navigate, URL: addr},
		}}
		goals = append(goals, in)
		suite.Entries = append(suite.Entries, workflows.SuiteEntry{ID: fmt.Sprintf("g%d", i+1), Goal: in.Goal, StartURL: in.StartURL, Plan: in.Plan, Expect: workflows.StatusFailed})
	}

	t.Run("codec off", func(t *testing.T) {
		w := s.worker(t)
		defer w.Kill()
		endAll(t, s.client, "plain", goals, suite)
	})
	t.Run("codec on", func(t *testing.T) {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			t.Fatal(err)
		}
		keys := "k1:" + base64.StdEncoding.EncodeToString(key)
		cd, err := codec.Parse(keys)
		if err != nil {
			t.Fatal(err)
		}
		c, err := client.Dial(client.Options{HostPort: s.TemporalAddr, Namespace: s.Namespace, DataConverter: cd.DataConverter(), FailureConverter: cd.FailureConverter(),
			Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		w := s.worker(t, codec.Env+"="+keys)
		defer w.Kill()
		endAll(t, c, "sealed", goals, suite)
	})
}

// endAll starts every goal and the suite at once, and checks that each ends within a
// bound, failed with the site policy's refusal of every address, in a message that is
// valid UTF-8 and quotes each address cut on a character boundary.
func endAll(t *testing.T, c client.Client, tag string, goals []workflows.GoalInput, suite workflows.SuiteInput) {
	t.Helper()
	// A run that ends takes one workflow task (well under a second); a stuck one retries
	// its task every 10 s for ever. 30 s tells them apart with room for a slow machine.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stamp := time.Now().UTC().Format("150405.000")
	type started struct {
		run   client.WorkflowRun
		addrs []string
	}
	var runs []started
	for i, in := range goals {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID: fmt.Sprintf("utf8-%s-%s-%02d", tag, stamp, i), TaskQueue: workflows.TaskQueue,
		}, workflows.GoalWorkflowName, in)
		if err != nil {
			t.Fatalf("start goal %d: %v", i, err)
		}
		runs = append(runs, started{run, []string{in.Plan[0].Value}})
	}
	var all []string
	for _, e := range suite.Entries {
		all = append(all, e.Plan[0].Value)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: fmt.Sprintf("utf8-%s-%s-suite", tag, stamp), TaskQueue: workflows.TaskQueue,
	}, workflows.SuiteWorkflowName, suite)
	if err != nil {
		t.Fatalf("start the suite: %v", err)
	}
	runs = append(runs, started{run, all})

	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if problem := refusal(ctx, c, r.run, r.addrs); problem != "" {
				t.Errorf("%s: %s", r.run.GetID(), problem)
			}
		}()
	}
	wg.Wait()
}

// refusal waits for the run to end and says what is wrong with how it ended: still
// running at the deadline, any status but failed, a failure that is not the site policy's
// bad-input refusal, a message that is not clean UTF-8 or does not quote each of addrs cut
// where the policy cuts it. "" is a clean refusal.
func refusal(ctx context.Context, c client.Client, run client.WorkflowRun, addrs []string) string {
	err := run.Get(ctx, nil)
	if ctx.Err() != nil {
		d, derr := c.DescribeWorkflowExecution(context.Background(), run.GetID(), run.GetRunID())
		if derr != nil {
			return fmt.Sprintf("did not end in time; describe: %v", derr)
		}
		return fmt.Sprintf("did not end in time: %s", d.GetWorkflowExecutionInfo().GetStatus())
	}
	d, derr := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
	if derr != nil {
		return fmt.Sprintf("describe: %v", derr)
	}
	if st := d.GetWorkflowExecutionInfo().GetStatus(); st != enums.WORKFLOW_EXECUTION_STATUS_FAILED {
		return fmt.Sprintf("ended %s (err %v), want failed", st, err)
	}
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != workflows.ErrBadInput {
		return fmt.Sprintf("want a %s application error, got %v", workflows.ErrBadInput, err)
	}
	msg := ae.Message()
	switch {
	case !utf8.ValidString(msg):
		return fmt.Sprintf("the failure message is not valid UTF-8: %q", msg)
	case strings.ContainsRune(msg, utf8.RuneError):
		return fmt.Sprintf("the failure message lost a character to U+FFFD: %q", msg)
	case !strings.Contains(msg, "is not one of this run's allowed sites"):
		return fmt.Sprintf("the failure is not the site policy's: %q", msg)
	}
	for _, a := range addrs {
		if want := textcut.Cut(a, utf8Cut, "…"); !strings.Contains(msg, want) {
			return fmt.Sprintf("the message does not quote %q:\n%s", want, msg)
		}
	}
	return ""
}
