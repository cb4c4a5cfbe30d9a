package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/workflows"
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
	desc, err := lookUp(ctx, c, id)
	if err != nil {
		return bad("%v", err)
	}
	// A run continued as new keeps its objects under its first run's ID.
	runID := desc.GetWorkflowExecutionInfo().GetFirstRunId()
	if runID == "" {
		runID = desc.GetWorkflowExecutionInfo().GetExecution().GetRunId()
	}

	prefix := activities.RunPrefix(id, runID) + "/dataset/"
	// A worker, which holds the store's credentials, hands out links to the objects.
	var shared activities.ShareRunResult
	in := activities.ShareRunInput{WorkflowID: id, RunID: runID, Folder: "dataset", TTL: 10 * time.Minute}
	if err := ask(ctx, workflows.ShareRunWorkflowName, "share", in, &shared); err != nil {
		if _, msg, ok := appError(err); ok {
			return bad("%s", msg)
		}
		return bad("%v", err)
	}
	if shared.Truncated {
		return bad("the dataset of run %s of %s holds more objects than one answer carries (%d): nothing was written; copy %s from the store itself", runID, id, len(shared.Objects), prefix)
	}
	links := map[string]string{}
	for _, o := range shared.Objects {
		links[strings.TrimPrefix(o.Key, prefix)] = o.URL
	}
	if links[manifestName] == "" {
		return bad("run %s of %s has no dataset (yet)", runID, id)
	}
	data, err := download(ctx, links[manifestName])
	if err != nil {
		return bad("%v", err)
	}
	var m manifest
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
		// A file name from the manifest never leaves the target folder.
		if !filepath.IsLocal(s.File) || filepath.Base(s.File) != s.File {
			return bad("the dataset of %s names the file %q, which is not a plain file name; nothing was written for it", id, s.File)
		}
		if links[s.File] == "" {
			return bad("the dataset of %s names %s, which is not stored", id, s.File)
		}
		png, err := download(ctx, links[s.File])
		if err != nil {
			return bad("%v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, s.File), png, 0o644); err != nil {
			return bad("%v", err)
		}
		written[s.File] = true
	}
	if err := os.WriteFile(filepath.Join(dir, manifestName), data, 0o644); err != nil {
		return bad("%v", err)
	}
	for _, s := range m.States {
		note := ""
		if s.Revisit {
			note = " (seen before)"
		}
		fmt.Fprintf(stdout, "%3d  step %-3d %-40s %s%s\n", s.Seq, s.Step, s.File, s.Action, note)
	}
	fmt.Fprintf(stdout, "wrote %d states (%d images) and %s to %s\n", len(m.States), len(written), manifestName, dir)
	return exitOK
}

// manifestName is the dataset manifest's file name (activities/dataset.ManifestName).
const manifestName = "manifest.json"

// manifest is what the export reads of a dataset manifest.
type manifest struct {
	States []struct {
		Seq     int    `json:"seq"`
		Step    int    `json:"step"`
		File    string `json:"file"`
		Action  string `json:"action"`
		Revisit bool   `json:"revisit"`
	} `json:"states"`
}

// download reads a shared object's link.
func download(ctx context.Context, link string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download from the store: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download from the store: HTTP %d", resp.StatusCode)
	}
	return io.ReadAll(resp.Body)
}

// lookUp describes the latest run of a workflow ID, saying so when there is none.
func lookUp(ctx context.Context, c client.Client, id string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	desc, err := c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		var nf *serviceerror.NotFound
		if errors.As(err, &nf) {
			return nil, fmt.Errorf("there is no run with workflow ID %q", id)
		}
		return nil, fmt.Errorf("look up %s: %v", id, err)
	}
	return desc, nil
}
