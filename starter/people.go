package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/workflows"
)

// peopleCommand sends a person's answer to a run through its Updates:
//
//	starter approve|reject WORKFLOW_ID [--step N] [--by NAME] [--note TEXT]
//	starter pause|resume|cancel WORKFLOW_ID [--by NAME] [--note TEXT]
//	starter hint WORKFLOW_ID "TEXT" [--step N] [--by NAME]
//	starter resolve WORKFLOW_ID --decision done|repeat|abort [--step N] [--by NAME] [--note TEXT]
//
// The step defaults to the one the run waits on (its progress query). An Update the run
// refuses (nothing waits for it, another step waits) exits 2 with the run's reason.
func peopleCommand(cmd string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	step := fs.Int("step", 0, "the step the answer is for (default: the one the run waits on)")
	by := fs.String("by", os.Getenv("USER"), "who answers, for the record")
	note := fs.String("note", "", "a note for the record")
	decision := fs.String("decision", "", "for resolve: done, repeat or abort")
	words, ok := parseWords(fs, args)
	if !ok {
		return exitBadInput
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "error: "+format+"\n", a...)
		return exitBadInput
	}
	if len(words) == 0 {
		return bad("say which run: starter %s WORKFLOW_ID", cmd)
	}
	id, text := words[0], strings.TrimSpace(strings.Join(words[1:], " "))
	if cmd == "hint" && text == "" {
		return bad(`say the hint: starter hint %s 'click "Advanced" first'`, id)
	}
	if cmd != "hint" && text != "" {
		return bad("unexpected words after the workflow ID: %q", text)
	}

	tc := config.TemporalFromEnv()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := tc.Dial(ctx, 10*time.Second, nil)
	if err != nil {
		return bad("%v", err)
	}
	defer c.Close()
	if *step == 0 && (cmd == "approve" || cmd == "reject" || cmd == "resolve") {
		p, err := progress(ctx, c, id)
		if err != nil {
			return bad("ask run %s what it waits for: %v", id, err)
		}
		switch {
		case cmd == "resolve" && p.Doubt != nil:
			*step = p.Doubt.Step
		case cmd != "resolve" && p.Approval != nil:
			*step = p.Approval.Step
		default:
			return bad("run %s waits for no %s (phase: %s)", id, map[bool]string{true: "answer about a step in doubt", false: "approval"}[cmd == "resolve"], p.Phase)
		}
	}
	var name string
	var arg any
	switch cmd {
	case "approve", "reject":
		name, arg = workflows.ApproveUpdate, workflows.Approval{Step: *step, Approve: cmd == "approve", By: *by, Note: *note}
	case "pause":
		name, arg = workflows.PauseUpdate, workflows.Control{By: *by, Note: *note}
	case "resume":
		name, arg = workflows.ResumeUpdate, workflows.Control{By: *by, Note: *note}
	case "cancel":
		name, arg = workflows.CancelUpdate, workflows.Control{By: *by, Note: *note}
	case "hint":
		name, arg = workflows.HintUpdate, workflows.Hint{Step: *step, Text: text, By: *by}
	case "resolve":
		name, arg = workflows.ResolveUpdate, workflows.Resolution{Step: *step, Decision: *decision, By: *by, Note: *note}
	}
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateName: name, Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return bad("run %s refused %s: %v", id, cmd, err)
	}
	var out json.RawMessage
	if err := h.Get(ctx, &out); err != nil {
		return bad("run %s refused %s: %v", id, cmd, err)
	}
	fmt.Fprintf(stdout, "%s %s: %s\n", cmd, id, outcome(out))
	return exitOK
}

// outcome is the "outcome" an Update answered with, or its JSON.
func outcome(raw json.RawMessage) string {
	var o struct {
		Outcome string `json:"outcome"`
	}
	if json.Unmarshal(raw, &o) == nil && o.Outcome != "" {
		return o.Outcome
	}
	return string(raw)
}

// progress asks a run's latest execution for its progress.
func progress(ctx context.Context, c client.Client, id string) (workflows.Progress, error) {
	return query[workflows.Progress](ctx, c, id, workflows.ProgressQuery)
}

// query asks the latest run of a workflow (the one it continued as, if it did; ended or
// not) a query.
func query[T any](ctx context.Context, c client.Client, id, name string) (T, error) {
	var out T
	v, err := c.QueryWorkflowWithOptions(ctx, &client.QueryWorkflowWithOptionsRequest{
		WorkflowID: id, QueryType: name, QueryRejectCondition: enums.QUERY_REJECT_CONDITION_NONE,
	})
	if err != nil {
		return out, err
	}
	if v.QueryResult == nil {
		return out, fmt.Errorf("the query %s of %s answered nothing", name, id)
	}
	return out, v.QueryResult.Get(&out)
}

// watch asks a workflow a query every so often until done is closed, and once more then
// (what changed since the last look), handing each answer to see.
func watch[T any](ctx context.Context, c client.Client, id, name string, every time.Duration, done <-chan struct{}, see func(T)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for last := false; !last; {
		select {
		case <-done:
			last = true
		case <-ctx.Done():
			return
		case <-t.C:
		}
		qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		v, err := query[T](qctx, c, id, name)
		cancel()
		if err == nil {
			see(v)
		}
	}
}
