package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/activities"
	agent "github.com/webagent-dev/webagent/client"
)

// datasetCommand runs `dataset export WORKFLOW_ID DIR`: it writes the run's UI states
// (PNG files) and their manifest to a folder. Every error is the caller's to fix.
func datasetCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) != 3 || args[0] != "export" {
		return badInputf(stderr, "usage: starter dataset export WORKFLOW_ID DIR")
	}
	id, dir := args[1], args[2]
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := exportDataset(ctx, id, dir, stdout); err != nil {
		return badInputf(stderr, "%v", err)
	}
	return exitOK
}

// exportDataset writes the dataset of the workflow's run to dir: each state's image once,
// then the manifest, and then prints what it wrote.
func exportDataset(ctx context.Context, id, dir string, stdout io.Writer) error {
	runID, err := datasetRun(ctx, id)
	if err != nil {
		return err
	}
	links, err := datasetLinks(ctx, id, runID)
	if err != nil {
		return err
	}
	data, err := agent.Download(ctx, links[manifestName], "from the store")
	if err != nil {
		return err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("the manifest of %s is not valid: %v", id, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %v", dir, err)
	}
	written, err := writeStates(ctx, id, dir, m, links)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, manifestName), data, 0o644); err != nil {
		return err
	}
	for _, s := range m.States {
		note := ""
		if s.Revisit {
			note = " (seen before)"
		}
		fmt.Fprintf(stdout, "%3d  step %-3d %-40s %s%s\n", s.Seq, s.Step, s.File, s.Action, note)
	}
	fmt.Fprintf(stdout, "wrote %d states (%d images) and %s to %s\n", len(m.States), written, manifestName, dir)
	return nil
}

// datasetRun is the run whose objects hold the workflow's dataset: the latest run's, or,
// for a run continued as new, its first run's, under whose ID it keeps its objects.
func datasetRun(ctx context.Context, id string) (string, error) {
	c, err := dial(ctx)
	if err != nil {
		return "", err
	}
	defer c.Close()
	desc, err := lookUp(ctx, c.Temporal(), id)
	if err != nil {
		return "", err
	}
	runID := desc.GetWorkflowExecutionInfo().GetFirstRunId()
	if runID == "" {
		runID = desc.GetWorkflowExecutionInfo().GetExecution().GetRunId()
	}
	return runID, nil
}

// datasetLinks are the links to the run's dataset objects, by file name, which a worker,
// holding the store's credentials, hands out. It refuses a dataset that has no manifest,
// or more objects than one answer carries, before anything is written.
func datasetLinks(ctx context.Context, id, runID string) (map[string]string, error) {
	prefix := activities.RunPrefix(id, runID) + "/dataset/"
	c, err := dial(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	shared, err := c.Share(ctx, id, runID, "dataset", 10*time.Minute)
	if err != nil {
		return nil, err
	}
	if shared.Truncated {
		return nil, fmt.Errorf("the dataset of run %s of %s holds more objects than one answer carries (%d): nothing was written; copy %s from the store itself", runID, id, len(shared.Objects), prefix)
	}
	links := map[string]string{}
	for _, o := range shared.Objects {
		links[strings.TrimPrefix(o.Key, prefix)] = o.URL
	}
	if links[manifestName] == "" {
		return nil, fmt.Errorf("run %s of %s has no dataset (yet)", runID, id)
	}
	return links, nil
}

// writeStates downloads the image of each state of the manifest into dir, once per file,
// and returns how many it wrote. A file name from the manifest never leaves dir.
func writeStates(ctx context.Context, id, dir string, m manifest, links map[string]string) (int, error) {
	written := map[string]bool{}
	for _, s := range m.States {
		if written[s.File] {
			continue
		}
		if !filepath.IsLocal(s.File) || filepath.Base(s.File) != s.File {
			return 0, fmt.Errorf("the dataset of %s names the file %q, which is not a plain file name; nothing was written for it", id, s.File)
		}
		if links[s.File] == "" {
			return 0, fmt.Errorf("the dataset of %s names %s, which is not stored", id, s.File)
		}
		png, err := agent.Download(ctx, links[s.File], "from the store")
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(dir, s.File), png, 0o644); err != nil {
			return 0, err
		}
		written[s.File] = true
	}
	return len(written), nil
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
