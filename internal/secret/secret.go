// Package secret resolves the references a run holds in place of its secrets. A run's
// input names each secret by where the worker finds it — "env:VAR" (the worker's
// environment) or "file:PATH" (a file on the worker's machine, as mounted secrets are) —
// never by its value, so the value is in no history, log or output; the browser activity
// reads it at the moment of typing.
package secret

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

var name = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// Check says what is wrong with a secret's name or reference.
func Check(n, ref string) error {
	if !name.MatchString(n) {
		return fmt.Errorf("secret name %q: use letters, digits, _ . - (it is written {{secret:%s}})", n, n)
	}
	kind, where, ok := strings.Cut(ref, ":")
	switch {
	case !ok || where == "":
		// The reference is not repeated: it may be the value itself, given by mistake.
		return fmt.Errorf(`secret %q is not a reference; write env:VARIABLE (the worker's environment) or file:/path (a file on the worker), never the value`, n)
	case kind != "env" && kind != "file":
		return fmt.Errorf(`secret %q: a reference starts with env: or file:, never the value`, n)
	}
	return nil
}

// Resolve reads the value a reference points to.
func Resolve(n, ref string) (string, error) {
	if err := Check(n, ref); err != nil {
		return "", err
	}
	kind, where, _ := strings.Cut(ref, ":")
	switch kind {
	case "env":
		v, ok := os.LookupEnv(where)
		if !ok || v == "" {
			return "", fmt.Errorf("secret %q: the worker has no %s in its environment", n, where)
		}
		return v, nil
	default:
		b, err := os.ReadFile(where)
		if err != nil {
			return "", fmt.Errorf("secret %q: the worker cannot read %s: %v", n, where, errorKind(err))
		}
		v := strings.TrimRight(string(b), "\r\n")
		if v == "" {
			return "", fmt.Errorf("secret %q: %s is empty", n, where)
		}
		return v, nil
	}
}

func errorKind(err error) string {
	switch {
	case os.IsNotExist(err):
		return "no such file"
	case os.IsPermission(err):
		return "permission denied"
	}
	return "read error"
}
