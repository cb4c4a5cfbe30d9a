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

	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/activities/skills"
	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/plan"
)

const skillsUsage = `usage: starter skills list | show ID | delete ID | export FILE | import FILE`

// skillsCommand manages the skills library in Weaviate (WEAVIATE_URL).
func skillsCommand(args []string, stdout, stderr io.Writer) int {
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "error: "+format+"\n", a...)
		return exitBadInput
	}
	if len(args) == 0 {
		return bad("%s", skillsUsage)
	}
	host := strings.TrimPrefix(config.Get("WEAVIATE_URL", "127.0.0.1:8080"), "http://")
	store := skills.NewWeaviate(host)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	failed := func(err error) int {
		if errors.Is(err, skills.ErrNotFound) {
			return bad("%v (see `starter skills list`)", err)
		}
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitFailed
	}
	switch cmd := args[0]; {
	case cmd == "list" && len(args) == 1:
		all, err := store.List(ctx)
		if err != nil {
			return failed(err)
		}
		w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tVERSION\tUSED\tOK/FAIL\tSTEPS\tSITE\tTEMPLATE")
		for _, s := range all {
			state := fmt.Sprintf("%d/%d", s.SuccessCount, s.FailureCount)
			if s.Disabled {
				state += " disabled"
			}
			fmt.Fprintf(w, "%s\tv%d\t%s\t%s\t%d\t%s\t%s\n", s.ID, s.Version, s.LastUsed.Local().Format("2006-01-02 15:04"), state, len(s.Plan), s.Site, s.Template)
		}
		_ = w.Flush()
		fmt.Fprintf(stdout, "%d skills in %s\n", len(all), host)
		return exitOK
	case cmd == "show" && len(args) == 2:
		s, err := store.Get(ctx, args[1])
		if err != nil {
			return failed(err)
		}
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
		if err := store.Delete(ctx, args[1]); err != nil {
			return failed(err)
		}
		fmt.Fprintf(stdout, "deleted %s\n", args[1])
		return exitOK
	case cmd == "export" && len(args) == 2:
		all, err := store.List(ctx)
		if err != nil {
			return failed(err)
		}
		out := make([]exported, len(all))
		for i, s := range all {
			out[i] = exported{Skill: s, Plan: s.Plan, Examples: s.Examples}
		}
		data, _ := json.MarshalIndent(out, "", "  ")
		if err := os.WriteFile(args[1], data, 0o644); err != nil {
			return bad("%v", err)
		}
		fmt.Fprintf(stdout, "exported %d skills to %s\n", len(all), args[1])
		return exitOK
	case cmd == "import" && len(args) == 2:
		data, err := os.ReadFile(args[1])
		if err != nil {
			return bad("%v", err)
		}
		var in []exported
		if err := json.Unmarshal(data, &in); err != nil {
			return bad("%s is not a skills export: %v", args[1], err)
		}
		emb, err := embedder(ctx)
		if err != nil {
			return failed(err)
		}
		for _, e := range in {
			s := e.Skill
			s.Plan, s.Examples = e.Plan, e.Examples
			// Vectors are not exported: the skill is embedded again, by this machine's
			// embedder, and filed under its model.
			s.EmbeddingModel = emb.Model()
			s.ID = skills.ID(s.Site, s.Template, s.EmbeddingModel)
			vec, err := emb.Embed(ctx, s.Template)
			if err != nil {
				return failed(err)
			}
			if err := store.Put(ctx, s, vec); err != nil {
				return failed(err)
			}
		}
		fmt.Fprintf(stdout, "imported %d skills into %s (embedded with %s)\n", len(in), host, emb.Model())
		return exitOK
	}
	return bad("%s", skillsUsage)
}

// exported is a skill in an export file.
type exported struct {
	skills.Skill
	Plan     []plan.Step       `json:"plan"`
	Examples map[string]string `json:"examples"`
}

// embedder is the one a worker on this machine would use.
func embedder(ctx context.Context) (skills.Embedder, error) {
	if !model.Configured() {
		return skills.Offline{}, nil
	}
	mc, err := model.New(ctx, model.Config{})
	if err != nil {
		return nil, err
	}
	return skills.Gemini{Client: mc.GenAI(), Name: config.Get("WEBAGENT_EMBEDDING_MODEL", model.DefaultEmbeddingModel)}, nil
}
