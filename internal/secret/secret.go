// Package secret holds the secrets a worker's operator grants its runs. The operator
// declares each secret once, by name, with where the worker reads its value (its
// environment or a file, as mounted secrets are) and the sites it may be typed on
// (WEBAGENT_SECRETS). A run names a secret only — {{secret:name}}, or {{totp:name}} for the
// current one-time code of a TOTP seed — and never chooses where a value comes from: a run
// that anyone with access to the Temporal namespace may start must not be able to read
// the worker's own credentials. The browser activity reads a value at the moment of
// typing, after checking that the field is on one of the secret's sites; the value is in
// no history, log or output.
package secret

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Env is the variable that says where the worker's grants are: a JSON file, or the JSON
// itself.
const Env = "WEBAGENT_SECRETS"

var name = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// CheckName says what is wrong with a secret's name.
func CheckName(n string) error {
	if !name.MatchString(n) {
		return fmt.Errorf("secret name %q: use letters, digits, _ . - (it is written {{secret:%s}})", n, n)
	}
	return nil
}

// Grant is one secret as the operator declares it.
type Grant struct {
	// From is where the worker reads the value: "env:VARIABLE" or "file:/path".
	From string `json:"from"`
	// Sites are where it may be typed: host names (each with its subdomains, any port),
	// or origins ("https://shop.example.com", "http://127.0.0.1:8090") that also fix the
	// scheme and port.
	Sites []string `json:"sites"`
	// TOTP marks a seed for one-time codes (base32, or an otpauth:// URI): a run types
	// its current code with {{totp:name}}, never the seed itself.
	TOTP bool `json:"totp,omitempty"`

	sites []site
}

// Vault is the secrets a worker grants. The zero Vault (and a nil one) grants none.
type Vault struct {
	grants map[string]*Grant
	// now is the clock for one-time codes; nil is the system's.
	now func() time.Time
}

// FromEnv reads the grants WEBAGENT_SECRETS names; unset, the worker grants no secret.
func FromEnv() (*Vault, error) {
	v := strings.TrimSpace(os.Getenv(Env))
	if v == "" {
		return &Vault{}, nil
	}
	data := []byte(v)
	if !strings.HasPrefix(v, "{") {
		var err error
		if data, err = os.ReadFile(v); err != nil {
			return nil, fmt.Errorf("%s=%s: %v", Env, v, errorKind(err))
		}
	}
	vault, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Env, err)
	}
	return vault, nil
}

// Parse reads the grants — a JSON object of name → {"from", "sites", "totp"} — and checks
// that every value can be read now, so that a mistake shows when the worker starts, not
// when a run first types the secret. No error holds any part of a value.
func Parse(data []byte) (*Vault, error) {
	var grants map[string]*Grant
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&grants); err != nil {
		return nil, fmt.Errorf(`the grants are not JSON of the form {"name": {"from": "env:VARIABLE", "sites": ["shop.example.com"]}}: %v`, err)
	}
	var errs []error
	for _, n := range sortedNames(grants) {
		if err := grants[n].check(n); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Vault{grants: grants}, nil
}

func (g *Grant) check(n string) error {
	if err := CheckName(n); err != nil {
		return err
	}
	if g == nil {
		return fmt.Errorf(`secret %q: say where it comes from and where it may be typed: {"from": "env:VARIABLE", "sites": ["shop.example.com"]}`, n)
	}
	kind, where, ok := strings.Cut(g.From, ":")
	if !ok || where == "" || (kind != "env" && kind != "file") {
		return fmt.Errorf(`secret %q: "from" is env:VARIABLE (the worker's environment) or file:/path (a file on the worker), never the value`, n)
	}
	if len(g.Sites) == 0 {
		return fmt.Errorf(`secret %q: "sites" is empty; name the sites it may be typed on, e.g. ["shop.example.com"]`, n)
	}
	g.sites = g.sites[:0]
	for _, s := range g.Sites {
		st, err := parseSite(s)
		if err != nil {
			return fmt.Errorf("secret %q: %w", n, err)
		}
		g.sites = append(g.sites, st)
	}
	v, err := g.read(n)
	if err != nil {
		return err
	}
	if g.TOTP {
		if _, err := parseSeed(v); err != nil {
			return fmt.Errorf("secret %q is marked totp, and its value is not a TOTP seed: %w", n, err)
		}
	}
	return nil
}

// read reads the value from where the operator said.
func (g *Grant) read(n string) (string, error) {
	kind, where, _ := strings.Cut(g.From, ":")
	if kind == "env" {
		v, ok := os.LookupEnv(where)
		if !ok || v == "" {
			return "", fmt.Errorf("secret %q: the worker has no %s in its environment", n, where)
		}
		return v, nil
	}
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

// Use is one placeholder of a run: {{secret:Name}}, or {{totp:Name}} when TOTP is set.
type Use struct {
	Name string `json:"name"`
	TOTP bool   `json:"totp,omitempty"`
}

func (u Use) String() string {
	if u.TOTP {
		return "{{totp:" + u.Name + "}}"
	}
	return "{{secret:" + u.Name + "}}"
}

// NotGrantedError is a run's use of a secret the worker does not grant as asked.
type NotGrantedError struct{ Reason string }

func (e *NotGrantedError) Error() string { return e.Reason }

// Check says why the worker cannot serve a run's uses, before the run starts: a name it
// does not grant, a seed used as a secret, a secret used as a seed.
func (v *Vault) Check(uses []Use) error {
	var errs []string
	for _, u := range uses {
		if err := v.lookup(u); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return &NotGrantedError{Reason: strings.Join(errs, "; ")}
	}
	return nil
}

func (v *Vault) lookup(u Use) error {
	var g *Grant
	if v != nil {
		g = v.grants[u.Name]
	}
	switch {
	case g == nil:
		return &NotGrantedError{Reason: fmt.Sprintf("%s: this worker grants no secret %q (its operator declares secrets in %s; `starter secrets` lists the names it grants)", u, u.Name, Env)}
	case g.TOTP && !u.TOTP:
		return &NotGrantedError{Reason: fmt.Sprintf("%s: %q is a TOTP seed, which is never typed; write {{totp:%s}} for its current code", u, u.Name, u.Name)}
	case !g.TOTP && u.TOTP:
		return &NotGrantedError{Reason: fmt.Sprintf("%s: %q is not a TOTP seed; write {{secret:%s}}", u, u.Name, u.Name)}
	}
	return nil
}

// Reveal returns the value to type for u into a field of the page or frame at addr: the
// secret, or the current one-time code of a seed. It refuses, with the reason and nothing
// of the value, a use the worker does not grant and an address outside the secret's sites.
func (v *Vault) Reveal(u Use, addr string) (string, error) {
	if err := v.lookup(u); err != nil {
		return "", err
	}
	g := v.grants[u.Name]
	if !g.allows(addr) {
		return "", &NotGrantedError{Reason: fmt.Sprintf("%s may be typed only on %s, and this field is on %s", u, strings.Join(g.Sites, ", "), origin(addr))}
	}
	val, err := g.read(u.Name)
	if err != nil || !u.TOTP {
		return val, err
	}
	seed, err := parseSeed(val)
	if err != nil {
		return "", fmt.Errorf("secret %q is not a TOTP seed: %w", u.Name, err)
	}
	now := time.Now
	if v.now != nil {
		now = v.now
	}
	return seed.code(now()), nil
}

// Values are the values of the granted secrets uses name — a TOTP use's seed itself — for
// a run's browser to recognise and redact wherever a page shows them, from the moment it
// opens, never to type: a browser opened again after its worker was lost knows them
// before the page it restores shows one. A use not granted, or not readable, is left out
// (typing it fails with the reason).
func (v *Vault) Values(uses []Use) []string {
	var out []string
	for _, u := range uses {
		if v.lookup(u) != nil {
			continue
		}
		if val, err := v.grants[u.Name].read(u.Name); err == nil {
			out = append(out, val)
		}
	}
	return out
}

// Summary is what may be said of a granted secret: never its value or where it is read.
type Summary struct {
	Name  string   `json:"name"`
	Sites []string `json:"sites"`
	TOTP  bool     `json:"totp,omitempty"`
}

// Names lists the secrets the worker grants, by name.
func (v *Vault) Names() []Summary {
	if v == nil {
		return nil
	}
	var out []Summary
	for _, n := range sortedNames(v.grants) {
		g := v.grants[n]
		out = append(out, Summary{Name: n, Sites: slices.Clone(g.Sites), TOTP: g.TOTP})
	}
	return out
}

func sortedNames(m map[string]*Grant) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
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
