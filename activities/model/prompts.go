package model

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"
)

//go:embed prompts/*.tmpl
var promptFiles embed.FS

var prompts = map[string]*template.Template{}

func init() {
	funcs := template.FuncMap{
		"join": strings.Join,
		"inc":  func(i int) int { return i + 1 },
	}
	for _, role := range []string{"plan", "decide", "evaluate", "replan", "judge", "summarize", "extract", "computer_use"} {
		prompts[role] = template.Must(template.New(role).Funcs(funcs).ParseFS(promptFiles, "prompts/"+role+".tmpl"))
	}
}

// Render returns a role's system instruction and user prompt for data. It is exported for
// the golden tests and for people who want to see what the model is told.
func Render(role string, data any) (system, user string, err error) {
	t, ok := prompts[role]
	if !ok {
		return "", "", fmt.Errorf("no prompt for role %q", role)
	}
	var s, u bytes.Buffer
	if err := t.ExecuteTemplate(&s, "system", data); err != nil {
		return "", "", fmt.Errorf("render %s system: %w", role, err)
	}
	if err := t.ExecuteTemplate(&u, "user", data); err != nil {
		return "", "", fmt.Errorf("render %s prompt: %w", role, err)
	}
	return strings.TrimSpace(s.String()), strings.TrimSpace(u.String()), nil
}
