package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/webagent-dev/webagent/activities/dataset"
	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/internal/config"
)

// datasetCommand runs `dataset export WORKFLOW_ID DIR`: it writes the run's UI states
// (PNG files) and their manifest to a folder.
func datasetCommand(args []string, stdout, stderr io.Writer) int {
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "error: "+format+"\n", a...)
		return exitBadInput
	}
	if len(args) != 3 || args[0] != "export" {
		return bad("usage: starter dataset export WORKFLOW_ID DIR")
	}
	id, dir := args[1], args[2]
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	tc := config.TemporalFromEnv()
	c, err := tc.Dial(ctx, 10*time.Second, nil)
	if err != nil {
		return bad("%v", err)
	}
	defer c.Close()
	desc, err := c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		var nf *serviceerror.NotFound
		if errors.As(err, &nf) {
			return bad("there is no run with workflow ID %q", id)
		}
		return bad("look up %s: %v", id, err)
	}
	runID := desc.GetWorkflowExecutionInfo().GetExecution().GetRunId()

	sc, err := config.Store()
	if err != nil {
		return bad("%v", err)
	}
	st, err := store.Open(ctx, sc)
	if err != nil {
		return bad("%v", err)
	}
	prefix := fmt.Sprintf("runs/%s/%s/dataset/", id, runID)
	data, err := st.Get(ctx, prefix+dataset.ManifestName)
	if errors.Is(err, store.ErrNotFound) {
		return bad("run %s of %s has no dataset (yet)", runID, id)
	}
	if err != nil {
		return bad("%v", err)
	}
	var m dataset.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return bad("the manifest of %s is not valid: %v", id, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return bad("create %s: %v", dir, err)
	}
	written := map[string]bool{}
	for _, s := range m.States {
		if written[s.File] {
			continue
		}
		png, err := st.Get(ctx, prefix+s.File)
		if err != nil {
			return bad("%v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, s.File), png, 0o644); err != nil {
			return bad("%v", err)
		}
		written[s.File] = true
	}
	if err := os.WriteFile(filepath.Join(dir, dataset.ManifestName), data, 0o644); err != nil {
		return bad("%v", err)
	}
	for _, s := range m.States {
		note := ""
		if s.Revisit {
			note = " (seen before)"
		}
		fmt.Fprintf(stdout, "%3d  step %-3d %-40s %s%s\n", s.Seq, s.Step, s.File, s.Action, note)
	}
	fmt.Fprintf(stdout, "wrote %d states (%d images) and %s to %s\n", len(m.States), len(written), dataset.ManifestName, dir)
	return exitOK
}
