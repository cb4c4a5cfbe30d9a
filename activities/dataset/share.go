package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
)

// Linker is what ShareRun needs of the object store: *store.MinIO.
type Linker interface {
	List(ctx context.Context, prefix string) ([]string, error)
	Link(ctx context.Context, key string, ttl time.Duration) (string, error)
}

// Runs is what ShareRun asks of Temporal: client.Client. The links are handed to whoever
// may start a workflow, so the run they name must be one Temporal knows and has closed.
type Runs interface {
	DescribeWorkflowExecution(ctx context.Context, workflowID, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error)
}

// Sharing hands out links to what runs stored, so that the starter can export a run's
// dataset with no credentials for the store.
type Sharing struct {
	Store Linker
	Runs  Runs
}

const (
	// MaxShareTTL caps how long a link works.
	MaxShareTTL = 24 * time.Hour
	// MaxSharedObjects bounds one answer: a key and its link take ~600 bytes (measured
	// with a goal's workflow ID), so a thousand is ~0.6 MB, under a third of the 2 MB
	// Temporal allows a payload.
	MaxSharedObjects = 1000
	// MaxSharedBytes bounds one answer's encoded size whatever the keys' length (a
	// workflow ID may be a kilobyte long, and each key and its link carry it twice).
	MaxSharedBytes = 1 << 20
)

// stateFolder is where a run keeps its sealed cookies and storage: no reader of a run
// needs them, so they are never shared.
const stateFolder = "state"

// ShareRun lists the objects a finished run stored (under runs/<workflowId>/<runId>/, or
// one folder of it), each with a link that works for the TTL asked for (15 minutes by
// default, a day at most), at most MaxSharedObjects of them in key order.
//
// Only closed runs are shared: nothing calls ShareRun from inside a run, so there is no
// "own run" of the caller to allow while it is still going (were there one, the ShareRun
// workflow's parent execution would say whose it is).
func (s *Sharing) ShareRun(ctx context.Context, in activities.ShareRunInput) (activities.ShareRunResult, error) {
	prefix, err := runPrefix(in)
	if err != nil {
		return activities.ShareRunResult{}, err
	}
	if err := s.finished(ctx, in.WorkflowID, in.RunID); err != nil {
		return activities.ShareRunResult{}, err
	}
	ttl := in.TTL
	if ttl <= 0 {
		ttl = 15 * time.Minute
	}
	ttl = min(ttl, MaxShareTTL)
	keys, err := s.Store.List(ctx, prefix)
	if err != nil {
		return activities.ShareRunResult{}, fmt.Errorf("list run %s of %s: %w", in.RunID, in.WorkflowID, err)
	}
	sort.Strings(keys)
	state := activities.RunPrefix(in.WorkflowID, in.RunID) + "/" + stateFolder + "/"
	res := activities.ShareRunResult{Objects: []activities.SharedObject{}}
	size := 0
	for _, k := range keys {
		// The store lists by prefix; whatever it answers, a key outside the prefix and the
		// sealed browser state stay out.
		if !strings.HasPrefix(k, prefix) || strings.HasPrefix(k, state) {
			continue
		}
		if len(res.Objects) == MaxSharedObjects {
			res.Truncated = true
			break
		}
		u, err := s.Store.Link(ctx, k, ttl)
		if err != nil {
			return activities.ShareRunResult{}, fmt.Errorf("share run %s of %s: %w", in.RunID, in.WorkflowID, err)
		}
		o := activities.SharedObject{Key: k, URL: u}
		enc, _ := json.Marshal(o)
		if size += len(enc) + 1; size > MaxSharedBytes {
			res.Truncated = true
			break
		}
		res.Objects = append(res.Objects, o)
	}
	return res, nil
}

// runPrefix is the key prefix of the run (and folder) in asks for. The IDs are escaped as
// the run's keys are (activities.RunPrefix), so no ID reaches into another run's folder;
// a folder must be one plain segment.
func runPrefix(in activities.ShareRunInput) (string, error) {
	if in.Prefix != "" {
		return "", badInput("a run is no longer shared by key prefix (%q): name it with workflowId and runId instead (a starter older than the workers sends a prefix: update it)", in.Prefix)
	}
	if in.WorkflowID == "" || in.RunID == "" {
		return "", badInput("the workflow ID or the run ID is missing: name the run whose objects to share by both")
	}
	p := activities.RunPrefix(in.WorkflowID, in.RunID) + "/"
	switch {
	case in.Folder == "":
		return p, nil
	case strings.ContainsAny(in.Folder, `/\`) || strings.Contains(in.Folder, ".."):
		return "", badInput("the folder %q is not one folder of the run, such as dataset or steps", in.Folder)
	case in.Folder == stateFolder:
		return "", badInput("the folder %q holds a run's sealed browser state, which is never shared", in.Folder)
	}
	return p + in.Folder + "/", nil
}

// finished refuses a run Temporal does not know or that has not ended. A run continued as
// new keeps writing under its first run's ID, so for that run the chain's latest run must
// have ended too.
func (s *Sharing) finished(ctx context.Context, workflowID, runID string) error {
	desc, err := s.describe(ctx, workflowID, runID)
	if err != nil {
		return err
	}
	st := desc.GetWorkflowExecutionInfo().GetStatus()
	if st == enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW {
		latest, err := s.describe(ctx, workflowID, "")
		if err != nil {
			return err
		}
		info := latest.GetWorkflowExecutionInfo()
		// An older server says nothing of the chain: a run still going is then taken to be
		// this run's continuation.
		if first := info.GetFirstRunId(); first == runID || first == "" {
			st = info.GetStatus()
		}
	}
	if !closed(st) {
		return badInput("run %s of %s has not finished (%s): its objects are shared once it has ended; wait for it, or cancel it, and ask again",
			runID, workflowID, strings.ToLower(strings.TrimPrefix(st.String(), "WORKFLOW_EXECUTION_STATUS_")))
	}
	return nil
}

func (s *Sharing) describe(ctx context.Context, workflowID, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	desc, err := s.Runs.DescribeWorkflowExecution(ctx, workflowID, runID)
	if err == nil {
		return desc, nil
	}
	var nf *serviceerror.NotFound
	var ia *serviceerror.InvalidArgument
	if errors.As(err, &nf) || errors.As(err, &ia) {
		return nil, badInput("there is no run %s of workflow %q: check both IDs (a run's history, and with it the right to share its objects, goes when the namespace's retention ends)", runID, workflowID)
	}
	return nil, fmt.Errorf("look up run %s of %s: %w", runID, workflowID, err)
}

// closed reports whether a run has ended; a paused or unknown state has not.
func closed(st enums.WorkflowExecutionStatus) bool {
	switch st {
	case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED, enums.WORKFLOW_EXECUTION_STATUS_FAILED,
		enums.WORKFLOW_EXECUTION_STATUS_CANCELED, enums.WORKFLOW_EXECUTION_STATUS_TERMINATED,
		enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, enums.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
		return true
	}
	return false
}

func badInput(format string, a ...any) error {
	return temporal.NewNonRetryableApplicationError(fmt.Sprintf(format, a...), activities.ErrBadInput, nil)
}
