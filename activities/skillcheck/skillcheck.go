// Package skillcheck holds what a skill must be before it is saved: a plan held to what a
// run's own plan is held to, bound to one site, its secrets only placeholders. It is apart
// from the skill library (activities/skills) so that the starter can check a file before
// sending it without importing the vector store's client.
package skillcheck

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/internal/textcut"
	"github.com/webagent-dev/webagent/plan"
)

// Skill is a skill as it is saved and exported.
type Skill = activities.SkillRecord

// Caps on a skill. A skill is replayed into runs nobody planned, so whatever is saved —
// learned from a run, healed, or imported from a file anyone may write — is held to what
// a run's own plan is held to, and to its site.
const (
	// MaxSkillSteps caps a skill's plan, as a run's plan is capped.
	MaxSkillSteps = plan.MaxPlanSteps
	// MaxSkillGoalBytes caps the goal a skill was learned from and its template, as a
	// run's goal is capped.
	MaxSkillGoalBytes = 20_000
	// MaxSkillParams caps a skill's slots and their examples, as a run's parameters are.
	MaxSkillParams = 50
	// CountedRuns is how many of the last runs a skill remembers having counted.
	CountedRuns = 100
	// maxShort caps the short fields: a slot's name, the embedding model, a run's ID.
	maxShort = 1000
)

var (
	paramName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)
	anyHole   = regexp.MustCompile(`\{\{[^{}]*\}\}`)
	// secretish is anything that starts like a secret placeholder; each must be one.
	secretish = regexp.MustCompile(`(?i)\{\{\s*(secret|totp)\b[^}]*(\}\}|$)`)
	// hasScheme is an address with a scheme ("https:", "javascript:"), as a run's plan
	// is checked; "//host" is one that takes the page's.
	hasScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:(//|[^0-9])`)
	// secretField is a field a secret is typed into: its value is a placeholder, never
	// the secret itself.
	secretField = regexp.MustCompile(`(?i)\b(pass(word|code|phrase)|pin|secret|api[ _-]?key|(access|auth|api|bearer|secret) token|one[- ]time (code|password)|otp|2fa|mfa|totp|(verification|security|authentication) code)\b`)
)

// Check says what is wrong with a skill before it is saved, naming the skill, or nil: its
// site must be one site (scheme://host[:port]); its plan valid as a run's plan is, within
// the caps, its slots consistent with its template and plan, its NAVIGATE steps on its
// site, and its secrets only {{secret:name}} or {{totp:name}} typed by a TYPE step —
// never a value.
func Check(s Skill) error {
	bad := checkSite(s.Site)
	siteOK := len(bad) == 0
	bad = append(bad, checkTexts(s)...)
	bad = append(bad, checkSlots(s)...)
	if err := plan.Validate(s.Plan); err != nil {
		bad = append(bad, strings.ReplaceAll(err.Error(), "\n", "; "))
	} else {
		bad = append(bad, checkSteps(s, siteOK)...)
	}
	if len(bad) == 0 {
		return nil
	}
	if len(bad) > 5 {
		bad = append(bad[:5], fmt.Sprintf("and %d more", len(bad)-5))
	}
	return fmt.Errorf("skill %s: %s", Name(s), strings.Join(bad, "; "))
}

// CheckAll checks every skill, so that an import saves all of them or none.
func CheckAll(all []Skill) error {
	var errs []string
	for _, s := range all {
		if err := Check(s); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d skills refused: %s", len(errs), len(all), strings.Join(errs, "\n"))
}

// Name is how a refusal names a skill: its ID, or its template when it has none yet.
func Name(s Skill) string {
	if s.ID != "" {
		return s.ID
	}
	return fmt.Sprintf("%q", textcut.Cut(s.Template, 60, "…"))
}

// checkSite: a skill is for one site, the origin of its runs' start URL; it is matched
// to runs on that site alone.
func checkSite(site string) []string {
	const how = "write the origin its runs start on, scheme://host[:port], e.g. https://app.example.com"
	switch {
	case strings.TrimSpace(site) == "":
		return []string{"it has no site: a skill is for one site; " + how}
	case len(site) > maxShort:
		return []string{fmt.Sprintf("its site is %d bytes: %s", len(site), how)}
	}
	u, err := url.Parse(site)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || activities.Site(site) != site {
		return []string{fmt.Sprintf("its site %q is not a site: %s", textcut.Cut(site, 80, "…"), how)}
	}
	if err := sites.For(site, nil, false).Check(site + "/"); err != nil {
		return []string{fmt.Sprintf("its site %q: %v", site, err)}
	}
	return nil
}

// checkTexts bounds the skill's own texts.
func checkTexts(s Skill) []string {
	var bad []string
	for _, f := range []struct {
		what string
		v    string
		max  int
	}{
		{"goal", s.Goal, MaxSkillGoalBytes}, {"template", s.Template, MaxSkillGoalBytes}, {"embedding model", s.EmbeddingModel, maxShort},
	} {
		if len(f.v) > f.max {
			bad = append(bad, fmt.Sprintf("its %s is %d bytes; at most %d are allowed", f.what, len(f.v), f.max))
		} else if !utf8.ValidString(f.v) {
			bad = append(bad, fmt.Sprintf("its %s is not valid UTF-8", f.what))
		}
	}
	if strings.TrimSpace(s.Template) == "" {
		bad = append(bad, "it has no goal template: a skill is found by it")
	}
	if n := len(s.CountedRuns); n > CountedRuns {
		bad = append(bad, fmt.Sprintf("it remembers %d counted runs; at most %d are kept", n, CountedRuns))
	}
	for _, r := range s.CountedRuns {
		if len(r) > maxShort {
			bad = append(bad, fmt.Sprintf("a counted run's ID is %d bytes; at most %d are allowed", len(r), maxShort))
			break
		}
	}
	if s.Version < 0 || s.SuccessCount < 0 || s.FailureCount < 0 || s.ModelCalls < 0 {
		bad = append(bad, "its version and counts cannot be negative")
	}
	return bad
}

// checkSlots: every slot is a name its template holds, so a goal can fill it; its
// examples are its slots'; and its plan uses no placeholder that neither a slot, the
// template, nor an earlier EXTRACT fills.
func checkSlots(s Skill) []string {
	var bad []string
	if len(s.Params) > MaxSkillParams || len(s.Examples) > MaxSkillParams {
		return []string{fmt.Sprintf("it has %d slots and %d examples; at most %d are allowed", len(s.Params), len(s.Examples), MaxSkillParams)}
	}
	inTemplate := plan.Placeholders([]plan.Step{{Value: s.Template}})
	for i, p := range s.Params {
		switch {
		case len(p) > 64 || !paramName.MatchString(p):
			bad = append(bad, fmt.Sprintf("slot %q is not a name (letters, digits, _ . -)", textcut.Cut(p, 40, "…")))
		case slices.Contains(s.Params[:i], p):
			bad = append(bad, fmt.Sprintf("slot %q is named twice", p))
		case !slices.Contains(inTemplate, p):
			bad = append(bad, fmt.Sprintf("slot %q is not in its template, so no goal fills it", p))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Examples)) {
		if !slices.Contains(s.Params, k) {
			bad = append(bad, fmt.Sprintf("example %q is for no slot", textcut.Cut(k, 40, "…")))
		} else if len(s.Examples[k]) > plan.MaxFieldLen {
			bad = append(bad, fmt.Sprintf("example %q is %d bytes; at most %d are allowed", k, len(s.Examples[k]), plan.MaxFieldLen))
		}
	}
	filled := map[string]string{}
	for _, p := range append(slices.Clone(s.Params), inTemplate...) {
		filled[p] = ""
	}
	if err := plan.CheckParams(s.Plan, filled); err != nil {
		missing := plan.Placeholders(s.Plan)
		missing = slices.DeleteFunc(missing, func(n string) bool { _, ok := filled[n]; return ok })
		bad = append(bad, fmt.Sprintf("its plan uses placeholders that neither a slot nor an earlier EXTRACT fills: %s", strings.Join(missing, ", ")))
	}
	return bad
}

// checkSteps holds a valid plan to its site (when it has one) and its secrets to
// placeholders.
func checkSteps(s Skill, siteOK bool) []string {
	var bad []string
	policy := sites.For(s.Site, nil, false)
	for _, st := range s.Plan {
		var cond string
		if st.Condition != nil {
			cond = st.Condition.String()
		}
		for _, f := range []struct{ what, v string }{
			{"state", st.State}, {"required state", st.RequiredState}, {"condition", cond}, {"semantic role", string(st.SemanticRole)},
		} {
			if len(f.v) > plan.MaxFieldLen {
				bad = append(bad, fmt.Sprintf("step %d: its %s is %d bytes; at most %d are allowed", st.Step, f.what, len(f.v), plan.MaxFieldLen))
			}
		}
		for _, t := range append(st.Texts(), st.ExpectedOutcome, st.RequiredState, st.State, cond) {
			for _, m := range secretish.FindAllString(t, -1) {
				if !plan.HasSecret(m) {
					bad = append(bad, fmt.Sprintf("step %d: %q is not a secret placeholder: write {{secret:name}} or {{totp:name}}", st.Step, textcut.Cut(m, 40, "…")))
				}
			}
		}
		notValue := st
		notValue.Value = ""
		elsewhere := append(notValue.Texts(), st.ExpectedOutcome, st.RequiredState, st.State, cond)
		if plan.HasSecret(strings.Join(elsewhere, "\x00")) || (st.Action != plan.Type && plan.HasSecret(st.Value)) {
			bad = append(bad, fmt.Sprintf("step %d: a secret is only typed: {{secret:name}} may be a TYPE step's value, and nowhere else", st.Step))
		}
		if st.Action == plan.Type && secretField.MatchString(st.TargetDescription) && strings.TrimSpace(anyHole.ReplaceAllString(st.Value, "")) != "" {
			bad = append(bad, fmt.Sprintf("step %d types a value into %q: a skill never carries a secret; write {{secret:name}}", st.Step, textcut.Cut(st.TargetDescription, 60, "…")))
		}
		if st.Action == plan.Navigate && siteOK {
			if err := onSite(policy, s.Site, st.URL); err != nil {
				bad = append(bad, fmt.Sprintf("step %d: a skill stays on its site (%s): %v", st.Step, s.Site, err))
			}
		}
	}
	return bad
}

// onSite checks where a NAVIGATE with a scheme goes, its placeholders filled with a
// plain word (a placeholder in the host would let a goal pick the site). An address
// without a scheme stays on the page's site, and the browser checks it as it goes.
func onSite(policy sites.Policy, site, v string) error {
	v = anyHole.ReplaceAllString(strings.TrimSpace(v), "x")
	if strings.HasPrefix(v, "//") {
		v = site[:strings.Index(site, ":")+1] + v
	}
	if !hasScheme.MatchString(v) {
		return nil
	}
	return policy.Check(v)
}
