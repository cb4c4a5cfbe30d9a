package mcpserver

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/client"
)

// ScreenshotArgs choose a screenshot of an ended run.
type ScreenshotArgs struct {
	WorkflowID string `json:"workflowId" jsonschema:"the run's workflow ID (the run must have ended)"`
	Step       int    `json:"step,omitempty" jsonschema:"the step (its order, from 1); 0 for the final page"`
	Before     bool   `json:"before,omitempty" jsonschema:"the page before the step rather than after it"`
}

// ScheduleArgs are schedule_goal's arguments.
type ScheduleArgs struct {
	ID       string            `json:"id" jsonschema:"the schedule's ID (letters, digits, dashes); its runs' workflow IDs begin sched-ID-"`
	Cron     string            `json:"cron,omitempty" jsonschema:"when, as a cron expression (0 8 * * MON-FRI); or give every"`
	Every    string            `json:"every,omitempty" jsonschema:"an interval such as 1h; or give cron"`
	Overlap  string            `json:"overlap,omitempty" jsonschema:"when a run still goes at the next time: skip (default), buffer-one, buffer-all, cancel-other, terminate-other, allow-all"`
	Paused   bool              `json:"paused,omitempty" jsonschema:"create it paused"`
	Goal     string            `json:"goal" jsonschema:"the goal, as run_goal takes it"`
	StartURL string            `json:"startUrl,omitempty" jsonschema:"the page the browser starts on (default: the server's)"`
	Params   map[string]string `json:"params,omitempty" jsonschema:"values for the goal's {{name}} placeholders"`
}

func (s *server) addReadTools(srv *mcp.Server) {
	addTool(srv, "get_screenshot", "A step's screenshot",
		"The screenshot of an ended run's step (after it, or before it), or of its final page, as a PNG image.", true, s.getScreenshot)
	addTool(srv, "get_report", "An ended run's report",
		"An ended run's standard output (every step, its evidence, the validation) and time-limited links to each object it stored.", true,
		func(ctx context.Context, _ *mcp.CallToolRequest, a RunArgs) (*mcp.CallToolResult, any, error) {
			rep, err := s.c.Run(a.WorkflowID).Report(ctx, 15*time.Minute)
			if err != nil {
				return nil, nil, err
			}
			return jsonResult(map[string]any{"workflowId": a.WorkflowID, "uiUrl": rep.URL, "result": rep.Result, "links": rep.Links, "truncated": rep.Truncated})
		})
	addTool(srv, "get_timing", "Where a run's time went",
		"A run's account of its time, running or ended: each activity's wait for a worker and its run, the worker's own timings of each step's parts (look, screenshot, intent, act, settle, look after, check, storing the evidence) and of opening the browser, and the time between activities; parts sums them.", true,
		func(ctx context.Context, _ *mcp.CallToolRequest, a RunArgs) (*mcp.CallToolResult, any, error) {
			acc, err := s.c.Run(a.WorkflowID).Account(ctx)
			if err != nil {
				return nil, nil, err
			}
			return jsonResult(map[string]any{"account": acc, "parts": acc.Parts()})
		})
	addTool(srv, "list_skills", "The learned skills",
		"The skills the workers learned from runs that succeeded (reused for similar goals without a model), with how each has fared.", true,
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := s.c.Skills(ctx, activities.ManageSkillsInput{Command: activities.SkillsList})
			if err != nil {
				return nil, nil, err
			}
			if res.Skills == nil {
				res.Skills = []activities.SkillRecord{}
			}
			return jsonResult(map[string]any{"library": res.Library, "skills": res.Skills})
		})
	addTool(srv, "schedule_goal", "Run a goal on a schedule",
		"Create a Temporal Schedule that runs the goal by a cron expression or at an interval; its runs are ordinary runs (list_runs with schedule).", false, s.scheduleGoal)
}

func (s *server) getScreenshot(ctx context.Context, _ *mcp.CallToolRequest, a ScreenshotArgs) (*mcp.CallToolResult, any, error) {
	png, err := s.c.Run(a.WorkflowID).Screenshot(ctx, a.Step, a.Before)
	if err != nil {
		return nil, nil, err
	}
	which := "the final page"
	if a.Step > 0 {
		which = fmt.Sprintf("step %d, %s it", a.Step, map[bool]string{true: "before", false: "after"}[a.Before])
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: fmt.Sprintf("run %s: %s", a.WorkflowID, which)},
		&mcp.ImageContent{Data: png, MIMEType: "image/png"},
	}}, nil, nil
}

func (s *server) scheduleGoal(ctx context.Context, _ *mcp.CallToolRequest, a ScheduleArgs) (*mcp.CallToolResult, any, error) {
	var every time.Duration
	if a.Every != "" {
		d, err := time.ParseDuration(a.Every)
		if err != nil {
			return nil, nil, fmt.Errorf("every %q is not a duration such as 1h", a.Every)
		}
		every = d
	}
	in, err := s.input(RunGoalArgs{Goal: a.Goal, StartURL: a.StartURL, Params: a.Params, Unattended: true})
	if err != nil {
		return nil, nil, err
	}
	if err := s.c.CheckSecrets(ctx, in); err != nil {
		return nil, nil, err
	}
	err = s.c.CreateSchedule(ctx, client.Schedule{ID: a.ID, Cron: a.Cron, Every: every, Overlap: a.Overlap, Paused: a.Paused,
		Note: "created through MCP", Goal: in})
	if err != nil {
		return nil, nil, err
	}
	return jsonResult(map[string]string{"schedule": a.ID, "runs": client.ScheduledRunPrefix + a.ID + "-<time>"})
}
