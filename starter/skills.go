package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/workflows"
)

const skillsUsage = `usage: starter skills list | show ID | delete ID | export FILE | import FILE`

// skillsCommand manages the skills library. The commands run on a worker (the
// ManageSkills workflow), which holds the library's address and the embedder.
func skillsCommand(args []string, stdout, stderr io.Writer) int {
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "error: "+format+"\n", a...)
		return exitBadInput
	}
	if len(args) == 0 {
		return bad("%s", skillsUsage)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	call := func(in activities.ManageSkillsInput) (activities.ManageSkillsResult, int) {
		var res activities.ManageSkillsResult
		err := ask(ctx, workflows.ManageSkillsWorkflowName, "skills-"+string(in.Command), in, &res)
		if err == nil {
			return res, exitOK
		}
		var bi badInput
		if errors.As(err, &bi) {
			return res, bad("%v", err)
		}
		switch typ, msg, ok := appError(err); {
		case ok && typ == activities.ErrSkillNotFound:
			return res, bad("%s (see `starter skills list`)", msg)
		case ok && (typ == activities.ErrNoSkillsLibrary || typ == activities.ErrBadInput):
			return res, bad("%s", msg)
		case ok:
			fmt.Fprintf(stderr, "error: %s\n", msg)
		default:
			fmt.Fprintf(stderr, "error: %v\n", err)
		}
		return res, exitFailed
	}
	switch cmd := args[0]; {
	case cmd == "list" && len(args) == 1:
		res, code := call(activities.ManageSkillsInput{Command: activities.SkillsList})
		if code != exitOK {
			return code
		}
		w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tVERSION\tUSED\tOK/FAIL\tSTEPS\tSITE\tTEMPLATE")
		for _, s := range res.Skills {
			state := fmt.Sprintf("%d/%d", s.SuccessCount, s.FailureCount)
			if s.Disabled {
				state += " disabled"
			} else if s.Suspect {
				state += " suspect"
			}
			fmt.Fprintf(w, "%s\tv%d\t%s\t%s\t%d\t%s\t%s\n", s.ID, s.Version, s.LastUsed.Local().Format("2006-01-02 15:04"), state, len(s.Plan), s.Site, s.Template)
		}
		_ = w.Flush()
		fmt.Fprintf(stdout, "%d skills in %s\n", len(res.Skills), res.Library)
		return exitOK
	case cmd == "show" && len(args) == 2:
		res, code := call(activities.ManageSkillsInput{Command: activities.SkillsShow, ID: args[1]})
		if code != exitOK {
			return code
		}
		s := res.Skills[0]
		fmt.Fprintf(stdout, "skill %s v%d (%s)\n  goal:     %s\n  template: %s\n  site:     %s\n  params:   %s (learned with %v)\n  used:     %d successes, %d failures, last %s; learning cost %d model calls\n  embedded: %s\n",
			s.ID, s.Version, map[bool]string{true: "disabled", false: "enabled"}[s.Disabled], s.Goal, s.Template, s.Site,
			strings.Join(s.Params, ", "), s.Examples, s.SuccessCount, s.FailureCount, s.LastUsed.Local().Format(time.RFC3339), s.ModelCalls, s.EmbeddingModel)
		for _, st := range s.Plan {
			fmt.Fprintf(stdout, "  %2d. %s", st.Step, st)
			if st.State != "" {
				fmt.Fprintf(stdout, "   [in %s]", st.State)
			}
			fmt.Fprintln(stdout)
		}
		return exitOK
	case cmd == "delete" && len(args) == 2:
		if _, code := call(activities.ManageSkillsInput{Command: activities.SkillsDelete, ID: args[1]}); code != exitOK {
			return code
		}
		fmt.Fprintf(stdout, "deleted %s\n", args[1])
		return exitOK
	case cmd == "export" && len(args) == 2:
		res, code := call(activities.ManageSkillsInput{Command: activities.SkillsList})
		if code != exitOK {
			return code
		}
		if res.Skills == nil {
			res.Skills = []activities.SkillRecord{}
		}
		data, _ := json.MarshalIndent(res.Skills, "", "  ")
		if err := os.WriteFile(args[1], data, 0o644); err != nil {
			return bad("%v", err)
		}
		fmt.Fprintf(stdout, "exported %d skills to %s\n", len(res.Skills), args[1])
		return exitOK
	case cmd == "import" && len(args) == 2:
		data, err := os.ReadFile(args[1])
		if err != nil {
			return bad("%v", err)
		}
		var in []activities.SkillRecord
		if err := json.Unmarshal(data, &in); err != nil {
			return bad("%s is not a skills export: %v", args[1], err)
		}
		res, code := call(activities.ManageSkillsInput{Command: activities.SkillsImport, Skills: in})
		if code != exitOK {
			return code
		}
		fmt.Fprintf(stdout, "imported %d skills into %s (embedded with %s)\n", len(res.Skills), res.Library, res.Embedder)
		return exitOK
	}
	return bad("%s", skillsUsage)
}
