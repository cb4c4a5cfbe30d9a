package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A secret is written {{secret:name}} in goals and plans. Only the browser activity
// resolves it, at the moment of typing; everywhere else — history, logs, outputs, the
// dataset, skills, prompts — the placeholder stands for it.
var secretPlaceholder = regexp.MustCompile(`\{\{\s*secret:([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}`)

// SecretPlaceholder writes the placeholder for the secret called name.
func SecretPlaceholder(name string) string { return "{{secret:" + name + "}}" }

// SecretNames returns the secrets the texts refer to, sorted.
func SecretNames(texts ...string) []string {
	var names []string
	for _, t := range texts {
		for _, m := range secretPlaceholder.FindAllStringSubmatch(t, -1) {
			names = append(names, m[1])
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// StepSecrets returns the secrets the steps refer to, sorted.
func StepSecrets(steps []Step) []string {
	var texts []string
	for _, s := range steps {
		texts = append(texts, s.TargetDescription, s.Value)
	}
	return SecretNames(texts...)
}

// HasSecret reports whether s holds a secret placeholder.
func HasSecret(s string) bool { return secretPlaceholder.MatchString(s) }

// BindSecrets replaces the secret placeholders in s with their values; a secret that
// cannot be resolved is an error that names it, never its value.
func BindSecrets(s string, resolve func(name string) (string, error)) (string, error) {
	var errs []string
	out := secretPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		name := secretPlaceholder.FindStringSubmatch(m)[1]
		v, err := resolve(name)
		if err != nil {
			errs = append(errs, err.Error())
			return m
		}
		return v
	})
	if len(errs) > 0 {
		return "", fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}
