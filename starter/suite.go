package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"strings"
	"text/tabwriter"
	"time"

	"gopkg.in/yaml.v3"

	agent "github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/internal/textcut"
	"github.com/webagent-dev/webagent/workflows"
)

// readSuite reads a suite file: one goal a line (.txt, or any other name), or a YAML or
// JSON list of entries — or an object with "name", "parallel" and "entries" — each with
// goal, startUrl, params, plan, limits, expect, id, dependsOn, onFailure, retries, cooldown
// (depends_on and on_failure, their old names, are read too).
func readSuite(path string) (workflows.SuiteInput, error) {
	var in workflows.SuiteInput
	data, err := os.ReadFile(path)
	if err != nil {
		return in, fmt.Errorf("read the suite: %w", err)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".yaml", ".yml":
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return in, fmt.Errorf("the suite %s is not YAML or JSON: %v", path, err)
		}
		if list, ok := doc.([]any); ok {
			doc = map[string]any{"entries": list}
		}
		if err := checkEntries(doc); err != nil {
			return in, fmt.Errorf("the suite %s: %v (each entry takes %s)", path, err, strings.Join(entryKeys(), ", "))
		}
		j, err := json.Marshal(doc)
		if err != nil {
			return in, fmt.Errorf("the suite %s: %v", path, err)
		}
		dec := json.NewDecoder(strings.NewReader(string(j)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return in, fmt.Errorf("the suite %s: %v (each entry takes %s)", path, err, strings.Join(entryKeys(), ", "))
		}
	default:
		for _, line := range strings.Split(string(data), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				in.Entries = append(in.Entries, workflows.SuiteEntry{Goal: line})
			}
		}
	}
	if in.Name == "" {
		in.Name = filepath.Base(path)
	}
	return in, nil
}

// runSuite runs the goals of a file as one Suite workflow, prints each as it ends and
// then the table; the exit status says whether every goal ended as expected.
func runSuite(f *runFlags, parallel int, stdout, stderr io.Writer) int {
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "error: "+format+"\n", a...)
		return exitBadInput
	}
	in, err := readSuite(f.file)
	if err != nil {
		return bad("%v", err)
	}
	if len(f.secrets) > 0 {
		return bad("%v", errSecretFlag)
	}
	if parallel > 0 {
		in.Parallel = parallel
	}
	// The run flags are each entry's defaults.
	for i := range in.Entries {
		e := &in.Entries[i]
		if e.StartURL == "" {
			e.StartURL = f.url
		}
		if e.Limits == (workflows.Limits{}) {
			e.Limits = f.limits
		}
		for k, v := range f.params {
			if _, ok := e.Params[k]; !ok {
				if e.Params == nil {
					e.Params = map[string]string{}
				}
				e.Params[k] = v
			}
		}
	}
	in.Normalize()
	if err := in.Validate(); err != nil {
		return bad("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c, err := dial(ctx)
	if err != nil {
		return bad("%v", err)
	}
	defer c.Close()
	run, err := c.StartSuite(ctx, in, fmt.Sprintf("**File:** %s\n\n**Start URL:** %s", in.Name, f.url))
	if err != nil {
		return bad("%v", err)
	}
	fmt.Fprintf(stdout, "started suite %s: %d goals, %d at a time\n  %s\n", run.ID, len(in.Entries), in.Parallel, run.URL)
	res, err := run.Wait(ctx, suiteFollower(stdout))
	if agent.IsBadInput(err) {
		return bad("%v", err)
	}
	if err != nil {
		fmt.Fprintf(stderr, "the suite ended with an error: %v\n", err)
		return exitFailed
	}
	printSuite(stdout, &res, c)
	if res.Failed+res.NotRun > 0 {
		return exitFailed
	}
	return exitOK
}

// suiteFollower prints each entry as it ends.
func suiteFollower(w io.Writer) func(workflows.SuiteResult) {
	seen := map[string]bool{}
	return func(res workflows.SuiteResult) {
		for _, e := range res.Entries {
			if e.Ended.IsZero() || seen[e.ID+fmt.Sprint(e.Attempts)] {
				continue
			}
			seen[e.ID+fmt.Sprint(e.Attempts)] = true
			fmt.Fprintf(w, "  %-4s %-8s %s\n", e.ID, e.Status, oneLineGoal(e.Goal, 70))
		}
	}
}

func printSuite(w io.Writer, r *workflows.SuiteResult, c *agent.Client) {
	fmt.Fprintf(w, "\nsuite %s: %d passed, %d failed, %d not run\n", r.Name, r.Passed, r.Failed, r.NotRun)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tGOAL\tSTATUS\tEXPECTED\tDURATION\tSTEPS\tRETRIES\tLINK")
	for _, e := range r.Entries {
		mark := "ok"
		if !e.Passed {
			mark = "FAIL"
		}
		link := ""
		if e.WorkflowID != "" {
			link = c.RunURL(e.WorkflowID, e.RunID)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\t%d\t%d\t%s\n", e.ID, oneLineGoal(e.Goal, 50), mark, e.Status, e.Expect,
			(time.Duration(e.DurationMs) * time.Millisecond).Round(100*time.Millisecond), e.Steps, e.Retries, link)
	}
	_ = tw.Flush()
	for _, e := range r.Entries {
		if !e.Passed && e.Reason != "" {
			fmt.Fprintf(w, "  %s: %s\n", e.ID, e.Reason)
		}
	}
}

func oneLineGoal(goal string, n int) string {
	goal = strings.Join(strings.Fields(goal), " ")
	if len(goal) > n {
		goal = textcut.Cut(goal, n-1, "…")
	}
	return goal
}

// entryKeys are the keys a suite entry takes, as SuiteEntry declares them.
func entryKeys() []string {
	var keys []string
	for _, f := range reflect.VisibleFields(reflect.TypeOf(workflows.SuiteEntry{})) {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "secrets" {
			keys = append(keys, name)
		}
	}
	return keys
}

// checkEntries renames the entries' old keys (depends_on, on_failure) to today's and
// refuses a key no entry takes: a misspelt key would otherwise be dropped unsaid.
func checkEntries(doc any) error {
	m, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	list, _ := m["entries"].([]any)
	known := map[string]bool{"secrets": true} // refused with its own reason by the workflow's check
	for _, k := range entryKeys() {
		known[k] = true
	}
	for i, e := range list {
		entry, ok := e.(map[string]any)
		if !ok {
			continue
		}
		for old, now := range workflows.OldEntryNames {
			if v, ok := entry[old]; ok {
				if _, both := entry[now]; both {
					return fmt.Errorf("entry %d has both %s and %s: keep %s", i+1, old, now, now)
				}
				entry[now] = v
				delete(entry, old)
			}
		}
		for k := range entry {
			if !known[k] {
				return fmt.Errorf("entry %d: unknown key %q", i+1, k)
			}
		}
	}
	return nil
}
