package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"google.golang.org/genai"
)

// Role is a job the model does for the agent. Each role has its own model, thinking
// level and image resolution, because they differ in what they need: deciding and
// evaluating sit on every step's path and must be quick; planning and judging are done
// once a run and must be right.
type Role string

// The roles.
const (
	RolePlan      Role = "plan"
	RoleReplan    Role = "replan"
	RoleDecide    Role = "decide"
	RoleEvaluate  Role = "evaluate"
	RoleJudge     Role = "judge"
	RoleSummarize Role = "summarize"
	RoleExtract   Role = "extract"
	RoleEmbed     Role = "embed"
	// RoleComputerUse decides with the computer-use tool, when that is on.
	RoleComputerUse Role = "computer_use"
)

// Roles lists the roles in the order people read them.
var Roles = []Role{RolePlan, RoleReplan, RoleDecide, RoleEvaluate, RoleJudge, RoleSummarize, RoleExtract, RoleEmbed, RoleComputerUse}

// Variable is the environment variable that sets the role's model.
func (r Role) Variable() string {
	if r == RoleEmbed {
		return "WEBAGENT_EMBEDDING_MODEL"
	}
	return "WEBAGENT_" + strings.ToUpper(string(r)) + "_MODEL"
}

// ThinkingVariable is the environment variable that sets the role's thinking level.
func (r Role) ThinkingVariable() string {
	return "WEBAGENT_" + strings.ToUpper(string(r)) + "_THINKING"
}

// group is the older variable that sets the models of several roles at once; a role's
// own variable wins over it.
func (r Role) group() string {
	switch r {
	case RolePlan, RoleReplan, RoleJudge:
		return "WEBAGENT_PLANNING_MODEL"
	case RoleDecide, RoleEvaluate, RoleSummarize, RoleExtract:
		return "WEBAGENT_DECISION_MODEL"
	}
	return ""
}

// RoleConfig is how one role calls Gemini.
type RoleConfig struct {
	Model string
	// Thinking is the thinking level sent to models that take one (Gemini 3 and later);
	// "" leaves the model's own default.
	Thinking genai.ThinkingLevel
	// Media is the resolution the role's images are read at ("" is the model's default).
	Media genai.MediaResolution
	// From is the variable that chose Model, for messages that say what to change.
	From string
}

// Default is a role's default and the reason for it, which the README's table repeats.
type Default struct {
	Model    string
	Thinking genai.ThinkingLevel
	// Media is the resolution the role's screenshots are read at.
	Media genai.MediaResolution
	Why   string
}

// Defaults are the roles' models: current Gemini models with no announced shutdown, as
// Google's model and deprecation pages listed them on DeprecationsRead. gemini-3.8-flash
// is Google's named successor to gemini-2.5-pro, GA, with the computer-use tool;
// gemini-3.5-flash-lite the fastest and cheapest current model. A screenshot costs 560
// input tokens at medium resolution and 1120 at the default (high): see the README.
var Defaults = map[Role]Default{
	RolePlan: {"gemini-3.8-flash", genai.ThinkingLevelHigh, genai.MediaResolutionMedium,
		"once a run; a plan read wrong costs every step after it, so the strongest GA Flash, thinking hard; the page's element list carries the text, so a medium screenshot does"},
	RoleReplan: {"gemini-3.8-flash", genai.ThinkingLevelHigh, genai.MediaResolutionMedium,
		"rare, and only after a step failed every attempt: the hardest reasoning the agent asks for"},
	RoleDecide: {"gemini-3.8-flash", genai.ThinkingLevelLow, genai.MediaResolutionMedium,
		"on a step's path whenever DOM-first resolution fails; a wrong pick is a wrong click, so not the Lite model, but low thinking for latency; the numbers drawn on the screenshot read well at medium"},
	RoleEvaluate: {"gemini-3.8-flash", genai.ThinkingLevelLow, genai.MediaResolutionMedium,
		"on a step's path after weak or failed checks: compare two screenshots and say precisely what went wrong"},
	RoleJudge: {"gemini-3.8-flash", genai.ThinkingLevelHigh, genai.MediaResolutionHigh,
		"once a run; a wrong verdict is a false success or a lost one, so thinking hard on a full-resolution final page"},
	RoleSummarize: {"gemini-3.5-flash-lite", genai.ThinkingLevelMinimal, "",
		"once a run, from text the workflow already has: the cheapest, fastest current model, no reasoning needed"},
	RoleExtract: {"gemini-3.8-flash", genai.ThinkingLevelLow, genai.MediaResolutionHigh,
		"copies values off a page exactly (the page's text goes with it): accuracy, little reasoning, a full-resolution screenshot"},
	RoleEmbed: {"gemini-embedding-001", "", "",
		"embeds goal templates for the skills library; GA with no shutdown announced, and a new embedding model would orphan every stored skill's vector"},
	RoleComputerUse: {"gemini-3.8-flash", genai.ThinkingLevelLow, genai.MediaResolutionMedium,
		"the vision fallback with the computer-use tool (WEBAGENT_COMPUTER_USE=on): the current GA model that offers the tool, at decide's settings"},
}

// ThinkingLevels are the levels the current models take, where they do not take all four
// (Google's model cards): a level a model refuses is a configuration error at start, not
// a failed request in the middle of a run.
var ThinkingLevels = map[string][]genai.ThinkingLevel{
	"gemini-3.8-flash":       {genai.ThinkingLevelLow, genai.ThinkingLevelMedium, genai.ThinkingLevelHigh},
	"gemini-3.7-flash":       {genai.ThinkingLevelLow, genai.ThinkingLevelMedium, genai.ThinkingLevelHigh},
	"gemini-4-argon":         {genai.ThinkingLevelLow, genai.ThinkingLevelMedium, genai.ThinkingLevelHigh},
	"gemini-3.1-pro-preview": {genai.ThinkingLevelLow, genai.ThinkingLevelMedium, genai.ThinkingLevelHigh},
}

// Config says which models to use and how to reach them. Credentials come from the
// SDK's own environment: GEMINI_API_KEY (or GOOGLE_API_KEY), or Vertex AI through
// GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION.
type Config struct {
	// Roles is each role's model; a role left out takes its default.
	Roles map[Role]RoleConfig
	// ComputerUse decides with the computer-use tool when DOM-first resolution fails
	// (WEBAGENT_COMPUTER_USE), instead of asking for an element number.
	ComputerUse bool
	// Prices price the run's calls (WEBAGENT_PRICES).
	Prices Prices
	// BaseURL overrides the API endpoint (GOOGLE_GEMINI_BASE_URL does the same).
	BaseURL string
	// Timeout bounds one HTTP request.
	Timeout time.Duration
	// Repairs is how often an invalid answer is sent back with its validation error.
	Repairs int
}

// Role returns a role's settings, its defaults filled in.
func (c Config) Role(r Role) RoleConfig {
	rc := c.Roles[r]
	d := Defaults[r]
	if rc.Model == "" {
		rc.Model, rc.From = d.Model, r.Variable()
		if rc.Thinking == "" {
			rc.Thinking = d.Thinking
		}
	}
	if rc.From == "" {
		rc.From = r.Variable()
	}
	if rc.Media == "" {
		rc.Media = d.Media
	}
	return rc
}

// Models returns the distinct models the configuration uses, each with the variables
// that chose it.
func (c Config) Models() map[string][]string {
	out := map[string][]string{}
	for _, r := range Roles {
		if r == RoleComputerUse && !c.ComputerUse {
			continue
		}
		rc := c.Role(r)
		if !slices.Contains(out[rc.Model], rc.From) {
			out[rc.Model] = append(out[rc.Model], rc.From)
		}
	}
	return out
}

var (
	thinkingLevels = map[string]genai.ThinkingLevel{"minimal": genai.ThinkingLevelMinimal, "low": genai.ThinkingLevelLow, "medium": genai.ThinkingLevelMedium, "high": genai.ThinkingLevelHigh}
	mediaLevels    = map[string]genai.MediaResolution{"low": genai.MediaResolutionLow, "medium": genai.MediaResolutionMedium, "high": genai.MediaResolutionHigh}
)

// ConfigFromEnv reads the roles' settings from getenv: per role WEBAGENT_<ROLE>_MODEL and
// WEBAGENT_<ROLE>_THINKING (minimal, low, medium, high or default), the older
// WEBAGENT_PLANNING_MODEL and WEBAGENT_DECISION_MODEL for several roles at once,
// WEBAGENT_MEDIA_RESOLUTION (low, medium, high or default), WEBAGENT_COMPUTER_USE and
// WEBAGENT_PRICES. The error names every variable that is wrong.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	var errs []error
	c := Config{Roles: map[Role]RoleConfig{}}
	media := genai.MediaResolution("")
	switch v := strings.ToLower(get("WEBAGENT_MEDIA_RESOLUTION")); v {
	case "":
	case "default":
		media = genai.MediaResolutionUnspecified
	default:
		var ok bool
		if media, ok = mediaLevels[v]; !ok {
			errs = append(errs, fmt.Errorf("WEBAGENT_MEDIA_RESOLUTION=%q: low, medium, high or default", v))
		}
	}
	for _, r := range Roles {
		d := Defaults[r]
		rc := RoleConfig{Model: d.Model, Thinking: d.Thinking, Media: d.Media, From: r.Variable()}
		if media != "" && r != RoleEmbed && r != RoleSummarize {
			rc.Media = media
		}
		if g := r.group(); g != "" && get(g) != "" {
			rc.Model, rc.From = get(g), g
		}
		if v := get(r.Variable()); v != "" {
			rc.Model, rc.From = v, r.Variable()
		}
		rc.Model = strings.TrimPrefix(rc.Model, "models/")
		if r != RoleEmbed {
			switch v := strings.ToLower(get(r.ThinkingVariable())); v {
			case "":
			case "default":
				rc.Thinking = ""
			default:
				t, ok := thinkingLevels[v]
				if !ok {
					errs = append(errs, fmt.Errorf("%s=%q: minimal, low, medium, high or default", r.ThinkingVariable(), v))
				}
				rc.Thinking = t
			}
			if levels, ok := ThinkingLevels[rc.Model]; ok && rc.Thinking != "" && !slices.Contains(levels, rc.Thinking) {
				errs = append(errs, fmt.Errorf("%s thinks at %s, and %s does not take that level: set %s to one of %s", r, strings.ToLower(string(rc.Thinking)), rc.Model, r.ThinkingVariable(), levelNames(levels)))
			}
		}
		c.Roles[r] = rc
	}
	switch v := strings.ToLower(get("WEBAGENT_COMPUTER_USE")); v {
	case "", "0", "false", "no", "off":
	case "1", "true", "yes", "on":
		c.ComputerUse = true
	default:
		errs = append(errs, fmt.Errorf("WEBAGENT_COMPUTER_USE=%q: on or off", v))
	}
	var err error
	if c.Prices, err = LoadPrices(get("WEBAGENT_PRICES")); err != nil {
		errs = append(errs, err)
	}
	return c, errors.Join(errs...)
}

func levelNames(levels []genai.ThinkingLevel) string {
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = strings.ToLower(string(l))
	}
	return strings.Join(names, ", ")
}

// takesThinkingLevel reports whether a model takes a thinking level: Gemini 3 and later do;
// Gemini 2.5 takes a thinking budget instead and refuses a level.
func takesThinkingLevel(model string) bool {
	major, ok := generation(model)
	return ok && major >= 3
}

// generation is the major version in a model name ("gemini-3.5-flash" → 3).
func generation(model string) (int, bool) {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(model, "models/"), "gemini-")
	if !ok {
		return 0, false
	}
	n := 0
	i := 0
	for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
		n = n*10 + int(rest[i]-'0')
	}
	return n, i > 0
}
