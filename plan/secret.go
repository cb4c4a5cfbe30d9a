package plan

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/webagent-dev/webagent/internal/secret"
)

// A secret is written {{secret:name}} in goals and plans, and the current one-time code of
// a TOTP seed {{totp:name}}: a name the worker's operator grants, never a value or where
// the worker reads it. Only the browser activity resolves it, at the moment of typing;
// everywhere else — history, logs, outputs, the dataset, skills, prompts — the placeholder
// stands for it.
var secretPlaceholder = regexp.MustCompile(`\{\{\s*(secret|totp):([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}`)

// SecretUses returns the secrets the texts refer to, sorted, each once.
func SecretUses(texts ...string) []secret.Use {
	var uses []secret.Use
	for _, t := range texts {
		for _, m := range secretPlaceholder.FindAllStringSubmatch(t, -1) {
			uses = append(uses, secret.Use{Name: m[2], TOTP: m[1] == "totp"})
		}
	}
	slices.SortFunc(uses, func(a, b secret.Use) int {
		if c := cmp.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return cmp.Compare(a.String(), b.String())
	})
	return slices.Compact(uses)
}

// HasSecret reports whether s holds a secret placeholder.
func HasSecret(s string) bool { return secretPlaceholder.MatchString(s) }

// BindSecrets replaces the secret placeholders in s with their values; a secret that
// cannot be resolved is an error that names it, never its value.
func BindSecrets(s string, resolve func(secret.Use) (string, error)) (string, error) {
	var errs []string
	out := secretPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		sm := secretPlaceholder.FindStringSubmatch(m)
		v, err := resolve(secret.Use{Name: sm[2], TOTP: sm[1] == "totp"})
		if err != nil {
			errs = append(errs, err.Error())
			return m
		}
		return v
	})
	if len(errs) > 0 {
		return "", fmt.Errorf("%s", strings.Join(slices.Compact(errs), "; "))
	}
	return out, nil
}
