package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	agent "github.com/webagent-dev/webagent/client"
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
// refuses (nothing waits for it, another step waits, a name, note or hint past its caps)
// exits 2 with the run's reason.
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
	// The run refuses an answer past its caps; saying so before sending, in the run's
	// own words, spares the round trip.
	if err := workflows.CheckAnswer(*by, *note); err != nil {
		return bad("%v", err)
	}
	if cmd == "hint" {
		if err := workflows.CheckHint(text); err != nil {
			return bad("%v", err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := dial(ctx)
	if err != nil {
		return bad("%v", err)
	}
	defer c.Close()
	run, a := c.Run(id), agent.Answer{Step: *step, By: *by, Note: *note}
	var out string
	switch cmd {
	case "approve":
		out, err = run.Approve(ctx, a)
	case "reject":
		out, err = run.Reject(ctx, a)
	case "pause":
		out, err = run.Pause(ctx, a)
	case "resume":
		out, err = run.Resume(ctx, a)
	case "cancel":
		out, err = run.Cancel(ctx, a)
	case "hint":
		out, err = run.Hint(ctx, text, a)
	case "resolve":
		out, err = run.Resolve(ctx, *decision, a)
	}
	if err != nil {
		return bad("%v", err)
	}
	fmt.Fprintf(stdout, "%s %s: %s\n", cmd, id, out)
	return exitOK
}
