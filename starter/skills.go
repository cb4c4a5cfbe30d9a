package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/skillcheck"
)

const skillsUsage = `usage: starter skills list | show ID | delete ID | export FILE | import FILE`

// skillsCommand manages the skills library. The commands run on a worker (the
// ManageSkills workflow), which holds the library's address and the embedder.
func skillsCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return badInputf(stderr, "%s", skillsUsage)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	k := skillsCLI{ctx: ctx, stdout: stdout, stderr: stderr}
	switch cmd := args[0]; {
	case cmd == "list" && len(args) == 1:
		return k.list()
	case cmd == "show" && len(args) == 2:
		return k.show(args[1])
	case cmd == "delete" && len(args) == 2:
		return k.delete(args[1])
	case cmd == "export" && len(args) == 2:
		return k.exportTo(args[1])
	case cmd == "import" && len(args) == 2:
		return k.importFrom(args[1])
	}
	return badInputf(stderr, "%s", skillsUsage)
}

// skillsCLI runs the skills commands; each returns its exit status.
type skillsCLI struct {
	ctx            context.Context
	stdout, stderr io.Writer
}

// manage runs a command on a worker. When it fails, it writes why and returns the exit
// status: bad input for what the caller is to fix (no Temporal, no such skill, no
// library, a refused import), a failure otherwise.
func (k skillsCLI) manage(in activities.ManageSkillsInput) (activities.ManageSkillsResult, int) {
	c, err := dial(k.ctx)
	if err != nil {
		return activities.ManageSkillsResult{}, exitFor(k.stderr, err)
	}
	defer c.Close()
	res, err := c.Skills(k.ctx, in)
	if err != nil {
		return res, exitFor(k.stderr, err)
	}
	return res, exitOK
}

// list prints a table of the library's skills, with how each has fared.
func (k skillsCLI) list() int {
	res, code := k.manage(activities.ManageSkillsInput{Command: activities.SkillsList})
	if code != exitOK {
		return code
	}
	w := tabwriter.NewWriter(k.stdout, 2, 4, 2, ' ', 0)
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
	fmt.Fprintf(k.stdout, "%d skills in %s\n", len(res.Skills), res.Library)
	return exitOK
}

// show prints one skill: what it is for, how it has fared, and its plan.
func (k skillsCLI) show(id string) int {
	res, code := k.manage(activities.ManageSkillsInput{Command: activities.SkillsShow, ID: id})
	if code != exitOK {
		return code
	}
	s := res.Skills[0]
	fmt.Fprintf(k.stdout, "skill %s v%d (%s)\n  goal:     %s\n  template: %s\n  site:     %s\n  params:   %s (learned with %v)\n  used:     %d successes, %d failures, last %s; learning cost %d model calls\n  embedded: %s\n",
		s.ID, s.Version, map[bool]string{true: "disabled", false: "enabled"}[s.Disabled], s.Goal, s.Template, s.Site,
		strings.Join(s.Params, ", "), s.Examples, s.SuccessCount, s.FailureCount, s.LastUsed.Local().Format(time.RFC3339), s.ModelCalls, s.EmbeddingModel)
	for _, st := range s.Plan {
		fmt.Fprintf(k.stdout, "  %2d. %s", st.Step, st)
		if st.State != "" {
			fmt.Fprintf(k.stdout, "   [in %s]", st.State)
		}
		fmt.Fprintln(k.stdout)
	}
	return exitOK
}

// delete deletes a skill from the library.
func (k skillsCLI) delete(id string) int {
	if _, code := k.manage(activities.ManageSkillsInput{Command: activities.SkillsDelete, ID: id}); code != exitOK {
		return code
	}
	fmt.Fprintf(k.stdout, "deleted %s\n", id)
	return exitOK
}

// exportTo writes every skill of the library to a JSON file, a list even when empty, which
// importFrom reads back.
func (k skillsCLI) exportTo(file string) int {
	res, code := k.manage(activities.ManageSkillsInput{Command: activities.SkillsList})
	if code != exitOK {
		return code
	}
	if res.Skills == nil {
		res.Skills = []activities.SkillRecord{}
	}
	data, _ := json.MarshalIndent(res.Skills, "", "  ")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return badInputf(k.stderr, "%v", err)
	}
	fmt.Fprintf(k.stdout, "exported %d skills to %s\n", len(res.Skills), file)
	return exitOK
}

// importFrom saves the skills of an export in the library; the worker embeds them again,
// with its own embedder. The file is checked whole before anything is sent, as the worker
// checks each skill again: a field no skill has (say, "secrets") or a skill the library
// would refuse stops the import, naming it, and nothing is saved.
func (k skillsCLI) importFrom(file string) int {
	data, err := os.ReadFile(file)
	if err != nil {
		return badInputf(k.stderr, "%v", err)
	}
	var in []activities.SkillRecord
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		if strings.Contains(err.Error(), "unknown field") {
			return badInputf(k.stderr, "%s: %v: a skill holds only what `starter skills export` writes, and names a secret only as {{secret:name}} in its plan", file, err)
		}
		return badInputf(k.stderr, "%s is not a skills export: %v", file, err)
	}
	if err := skillcheck.CheckAll(in); err != nil {
		return badInputf(k.stderr, "%s: nothing imported: %v", file, err)
	}
	res, code := k.manage(activities.ManageSkillsInput{Command: activities.SkillsImport, Skills: in})
	if code != exitOK {
		return code
	}
	fmt.Fprintf(k.stdout, "imported %d skills into %s (embedded with %s)\n", len(res.Skills), res.Library, res.Embedder)
	return exitOK
}
