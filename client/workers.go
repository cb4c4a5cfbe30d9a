package client

import (
	"context"
	"fmt"
	"strings"
	"time"

	tclient "go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/secret"
	"github.com/webagent-dev/webagent/workflows"
)

// ask runs a short workflow on the workers and waits for its result: the client holds no
// worker's configuration (no store or skills credentials, no model key), so what needs
// them is done by a worker.
func (c *Client) ask(ctx context.Context, workflowType, idPrefix string, in, out any) error {
	run, err := c.tc.ExecuteWorkflow(ctx, tclient.StartWorkflowOptions{
		ID:                       fmt.Sprintf("%s-%s-%s", idPrefix, time.Now().UTC().Format("20060102-150405"), randomSuffix()),
		TaskQueue:                workflows.TaskQueue,
		WorkflowExecutionTimeout: 5 * time.Minute,
		StaticSummary:            idPrefix,
	}, workflowType, in)
	if err != nil {
		return fmt.Errorf("start %s: %w", workflowType, err)
	}
	return run.Get(ctx, out)
}

// Grants asks a worker what its operator grants runs: the secrets a goal may name, each
// with the sites it may be typed on, and the internal addresses its browser may reach.
func (c *Client) Grants(ctx context.Context) (activities.WorkerGrantsResult, error) {
	var res activities.WorkerGrantsResult
	err := c.ask(ctx, workflows.GrantsWorkflowName, "grants", activities.WorkerGrantsInput{}, &res)
	return res, err
}

// CheckSecrets says, before a run starts, whether the workers grant every secret it
// would use: the {{secret:name}} and {{totp:name}} its goal and plan write, and the names
// the caller says it means to use. A [*BadInputError] names each one they do not grant.
func (c *Client) CheckSecrets(ctx context.Context, in GoalInput, names ...string) error {
	uses := in.SecretUses()
	for _, n := range names {
		uses = append(uses, secret.Use{Name: n})
	}
	if len(uses) == 0 {
		return nil
	}
	g, err := c.Grants(ctx)
	if err != nil {
		return fmt.Errorf("ask the workers which secrets they grant: %w", err)
	}
	granted := map[string]bool{}
	for _, s := range g.Secrets {
		granted[s.Name] = s.TOTP
	}
	var refused []string
	for _, u := range uses {
		totp, ok := granted[u.Name]
		switch {
		case !ok:
			refused = append(refused, fmt.Sprintf("%s: the workers grant no secret %q (their operator declares secrets in %s; `starter secrets` lists the names they grant)", u, u.Name, secret.Env))
		case totp && !u.TOTP && !contains(names, u.Name):
			refused = append(refused, fmt.Sprintf("%s: %q is a TOTP seed, which is never typed; write {{totp:%s}} for its current code", u, u.Name, u.Name))
		}
	}
	if len(refused) > 0 {
		return &BadInputError{Err: fmt.Errorf("%s", strings.Join(refused, "; "))}
	}
	return nil
}

func contains(names []string, n string) bool {
	for _, m := range names {
		if m == n {
			return true
		}
	}
	return false
}

// Skills runs a command on the skills library (list, show, delete, import) on a worker,
// which holds the library's address and the embedder. A skill that does not exist, no
// library, or a refused import is a [*BadInputError].
func (c *Client) Skills(ctx context.Context, in activities.ManageSkillsInput) (activities.ManageSkillsResult, error) {
	var res activities.ManageSkillsResult
	err := c.ask(ctx, workflows.ManageSkillsWorkflowName, "skills-"+string(in.Command), in, &res)
	if typ, msg, ok := appError(err); ok {
		switch typ {
		case activities.ErrSkillNotFound:
			return res, badInputf("%s (see `starter skills list`)", msg)
		case activities.ErrNoSkillsLibrary, activities.ErrBadInput:
			return res, badInputf("%s", msg)
		}
		return res, fmt.Errorf("%s", msg)
	}
	return res, err
}

// Share asks a worker for time-limited links to what an ended run stored (folder "" for
// all of it, or e.g. "dataset"). The run is named as its keys name it: Result's
// Metadata.WorkflowID and Metadata.RunID (the first run, if it continued as new).
func (c *Client) Share(ctx context.Context, workflowID, runID, folder string, ttl time.Duration) (activities.ShareRunResult, error) {
	var res activities.ShareRunResult
	in := activities.ShareRunInput{WorkflowID: workflowID, RunID: runID, Folder: folder, TTL: ttl}
	err := c.ask(ctx, workflows.ShareRunWorkflowName, "share", in, &res)
	if _, msg, ok := appError(err); ok {
		return res, badInputf("%s", msg)
	}
	return res, err
}
