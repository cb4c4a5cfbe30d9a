package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"
)

// accountCommand writes `time WORKFLOW_ID [--json]`: where the run's time went, from its
// history and the worker's own timings (client.Account). It needs no worker.
func accountCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("time", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "write the account as JSON")
	runID := fs.String("run-id", "", "the run of the workflow (default: its latest)")
	words, ok := parseWords(fs, args)
	if !ok {
		return exitBadInput
	}
	if len(words) != 1 {
		fmt.Fprintln(stderr, "error: usage: starter time WORKFLOW_ID [--run-id RUN_ID] [--json]")
		return exitBadInput
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := dial(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitBadInput
	}
	defer c.Close()
	a, err := c.RunOf(words[0], *runID).Account(ctx)
	if err != nil {
		return exitFor(stderr, err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(a); err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitBadInput
		}
		return exitOK
	}
	if err := a.WriteText(stdout); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitBadInput
	}
	return exitOK
}
