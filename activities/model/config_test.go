package model

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/genai"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/geminitest"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigFromEnv(t *testing.T) {
	c, err := ConfigFromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Roles {
		rc, d := c.Role(r), Defaults[r]
		if rc.Model != d.Model || rc.Thinking != d.Thinking || rc.Media != d.Media || rc.From != r.Variable() {
			t.Errorf("%s: got %+v, want the default %+v", r, rc, d)
		}
		if _, gone := Deprecations[rc.Model]; gone {
			t.Errorf("%s: the default %s is on the deprecation list", r, rc.Model)
		}
		if d.Why == "" {
			t.Errorf("%s: the default says no reason", r)
		}
	}
	if c.ComputerUse {
		t.Error("computer use is opt-in")
	}

	c, err = ConfigFromEnv(env(map[string]string{
		"WEBAGENT_PLANNING_MODEL": "gemini-2.5-pro", "WEBAGENT_JUDGE_MODEL": "models/gemini-4-argon",
		"WEBAGENT_DECIDE_THINKING": "medium", "WEBAGENT_MEDIA_RESOLUTION": "low", "WEBAGENT_COMPUTER_USE": "on",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if p := c.Role(RolePlan); p.Model != "gemini-2.5-pro" || p.From != "WEBAGENT_PLANNING_MODEL" {
		t.Errorf("the older group variable still sets the planning roles: %+v", p)
	}
	if j := c.Role(RoleJudge); j.Model != "gemini-4-argon" || j.From != "WEBAGENT_JUDGE_MODEL" {
		t.Errorf("a role's own variable wins over its group's: %+v", j)
	}
	if d := c.Role(RoleDecide); d.Thinking != genai.ThinkingLevelMedium || d.Media != genai.MediaResolutionLow {
		t.Errorf("decide: %+v", d)
	}
	if s := c.Role(RoleSummarize); s.Media != "" {
		t.Errorf("summarize sends no image, so no resolution: %+v", s)
	}
	if !c.ComputerUse || len(c.Models()["gemini-3.8-flash"]) == 0 {
		t.Errorf("computer use on: %+v", c.Models())
	}

	_, err = ConfigFromEnv(env(map[string]string{
		"WEBAGENT_PLAN_THINKING": "minimal", "WEBAGENT_EVALUATE_THINKING": "lots",
		"WEBAGENT_MEDIA_RESOLUTION": "huge", "WEBAGENT_COMPUTER_USE": "maybe", "WEBAGENT_PRICES": "{\"models\": 3}",
	}))
	for _, want := range []string{
		"set WEBAGENT_PLAN_THINKING to one of low, medium, high", // gemini-3.8-flash refuses minimal
		`WEBAGENT_EVALUATE_THINKING="lots"`, `WEBAGENT_MEDIA_RESOLUTION="huge"`, `WEBAGENT_COMPUTER_USE="maybe"`, "WEBAGENT_PRICES",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the error should say %q: %v", want, err)
		}
	}
}

func TestPrices(t *testing.T) {
	dec := time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC)
	jan := time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC)
	p := DefaultPrices
	if c, ok := p.Cost("gemini-3.8-flash", dec, 1_000_000, 1_000_000); !ok || c != 4.50 {
		t.Errorf("3.8 Flash in December: %v %v", c, ok)
	}
	if c, _ := p.Cost("gemini-3.8-flash", jan, 1_000_000, 1_000_000); c != 9.00 {
		t.Errorf("3.8 Flash from January 2027 costs double: %v", c)
	}
	if _, ok := p.Cost("gemini-9", dec, 1, 1); ok {
		t.Error("an unknown model has no price")
	}
	file := filepath.Join(t.TempDir(), "prices.json")
	if err := os.WriteFile(file, []byte(`{"read": "2027-02-01", "models": {"gemini-9": [{"input": 1, "output": 2}, {"input": 3, "output": 4, "from": "2027-01-01"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPrices(file)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := p.Cost("gemini-9", jan, 1_000_000, 0); c != 3 || p.Read != "2027-02-01" {
		t.Errorf("the file's prices: %v, read %s", c, p.Read)
	}
	if _, ok := p.Cost("gemini-3.8-flash", jan, 1, 1); !ok {
		t.Error("the file's prices go over the defaults, which stay")
	}
	for _, bad := range []string{`{"models": {"m": {"input": -1}}}`, `{"models": {"m": {"input": 1, "from": "soon"}}}`, `{"modles": {}}`, "no-such-file.json"} {
		if _, err := LoadPrices(bad); err == nil || !strings.Contains(err.Error(), "WEBAGENT_PRICES") {
			t.Errorf("%s: want an error naming WEBAGENT_PRICES, got %v", bad, err)
		}
	}
}

// TestGemini3Controls checks what a Gemini 3 request carries: the role's thinking level,
// the screenshot's media resolution, no temperature; and what its answer costs.
func TestGemini3Controls(t *testing.T) {
	c, s := newClient(t, func(geminitest.Call, int) geminitest.Reply {
		return geminitest.Reply{JSON: map[string]any{"action": "element", "element": 1, "reason": "the row's menu", "confidence": 0.8}}
	})
	_, u, err := c.Decide(context.Background(), DecideInput{DecideInput: activities.DecideInput{Goal: "g", Step: archive, Attempt: 1}, Page: samplePage, Marked: []byte("png"), Width: 1280, Height: 800})
	if err != nil {
		t.Fatal(err)
	}
	call := s.Calls("decider")[0]
	if call.ThinkingLevel != "LOW" || call.MediaResolution != "MEDIA_RESOLUTION_MEDIUM" || call.Temperature != nil || call.ImageTokens != 560 {
		t.Errorf("decide on gemini-3.8-flash: thinking %q, media %q, temperature %v, image tokens %d", call.ThinkingLevel, call.MediaResolution, call.Temperature, call.ImageTokens)
	}
	want, _ := DefaultPrices.Cost(call.Model, time.Now(), u.InputTokens, u.OutputTokens)
	if u.CostUSD != want || u.CostUSD == 0 || u.PricesRead != PricesRead || u.UnpricedCalls != 0 {
		t.Errorf("usage %+v, want cost %v", u, want)
	}

	// An older model takes no thinking level: it gets a low temperature instead.
	c.cfg.Roles = map[Role]RoleConfig{RoleDecide: {Model: "gemini-2.5-flash", Thinking: genai.ThinkingLevelLow}}
	if _, _, err := c.Decide(context.Background(), DecideInput{DecideInput: activities.DecideInput{Goal: "g", Step: archive, Attempt: 1}, Page: samplePage, Marked: []byte("png"), Width: 1280, Height: 800}); err != nil {
		t.Fatal(err)
	}
	old := s.Calls("decider")[1]
	if old.ThinkingLevel != "" || old.Temperature == nil {
		t.Errorf("gemini-2.5-flash: thinking %q temperature %v", old.ThinkingLevel, old.Temperature)
	}
}

func TestCheckModels(t *testing.T) {
	s := geminitest.New(t, nil)
	t.Setenv("GEMINI_API_KEY", "test-key")
	cache := filepath.Join(t.TempDir(), "models.json")
	newC := func(getenv map[string]string) *Client {
		cfg, err := ConfigFromEnv(env(getenv))
		if err != nil {
			t.Fatal(err)
		}
		cfg.BaseURL = s.URL
		c, err := New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	res, err := newC(nil).Check(context.Background(), cache)
	if err != nil || len(res.Warnings) != 0 || len(res.Unchecked) != 0 || res.Cached != 0 {
		t.Fatalf("the defaults: %+v %v", res, err)
	}
	asked := len(s.Gets())
	if asked != len(newC(nil).cfg.Models()) {
		t.Errorf("asked about %v", s.Gets())
	}
	res, err = newC(nil).Check(context.Background(), cache)
	if err != nil || res.Cached != asked || len(s.Gets()) != asked {
		t.Errorf("a second start should ask nothing: %+v %v, asked %v", res, err, s.Gets())
	}

	_, err = newC(map[string]string{"WEBAGENT_DECIDE_MODEL": "gemini-3.9-flesh"}).Check(context.Background(), cache)
	if err == nil || !strings.Contains(err.Error(), `no model "gemini-3.9-flesh"`) || !strings.Contains(err.Error(), "set WEBAGENT_DECIDE_MODEL") {
		t.Errorf("a model that does not exist should stop the worker naming the variable: %v", err)
	}

	res, err = newC(map[string]string{"WEBAGENT_PLANNING_MODEL": "gemini-2.5-pro"}).Check(context.Background(), cache)
	if err != nil || len(res.Warnings) != 1 {
		t.Fatalf("a deprecated model starts with a warning: %+v %v", res, err)
	}
	if w := res.Warnings[0]; !strings.Contains(w, "shuts down on December 1, 2026") || !strings.Contains(w, "WEBAGENT_PLANNING_MODEL") || !strings.Contains(w, "gemini-3.8-flash") {
		t.Errorf("the warning should give the date, the variable and the replacement: %s", w)
	}
}

// decideCall is one decide call as a run makes it on a busy page: a 1280×800 screenshot
// and a list of 40 elements.
func decideCall() DecideInput {
	img := image.NewRGBA(image.Rect(0, 0, 1280, 800))
	var shot bytes.Buffer
	_ = png.Encode(&shot, img)
	var list strings.Builder
	for i := range 40 {
		fmt.Fprintf(&list, "#%d button \"Project actions\" in row \"Project %d\"\n", i, i)
	}
	return DecideInput{DecideInput: activities.DecideInput{Goal: `Archive the project "Q4-bugs"`, Step: archive, Attempt: 1},
		Page: Page{URL: "http://app.test/projects", Title: "Projects", Elements: list.String(), Count: 40}, Marked: shot.Bytes(), Width: 1280, Height: 800}
}

// TestDecideTokens measures one decide call's input tokens at the chosen media resolution
// against the same call at the model's default, with the stand-in's accounting (Google's
// documented image costs). The README quotes it: go test ./activities/model -run TestDecideTokens -v
func TestDecideTokens(t *testing.T) {
	c, s := newClient(t, func(geminitest.Call, int) geminitest.Reply {
		return geminitest.Reply{JSON: map[string]any{"action": "element", "element": 1, "reason": "r", "confidence": 0.9}}
	})
	measure := func(media genai.MediaResolution) (activities.Usage, geminitest.Call) {
		c.cfg.Roles = map[Role]RoleConfig{RoleDecide: {Model: Defaults[RoleDecide].Model, Thinking: Defaults[RoleDecide].Thinking, Media: media}}
		_, u, err := c.Decide(context.Background(), decideCall())
		if err != nil {
			t.Fatal(err)
		}
		calls := s.Calls("decider")
		return u, calls[len(calls)-1]
	}
	chosen, cc := measure(Defaults[RoleDecide].Media)
	def, dc := measure(genai.MediaResolutionUnspecified)
	t.Logf("decide on %s: %d input tokens at %s (screenshot %d), %d at the default (screenshot %d): %.0f%% fewer; $%.6f against $%.6f",
		cc.Model, chosen.InputTokens, cc.MediaResolution, cc.ImageTokens, def.InputTokens, dc.ImageTokens,
		100*(1-float64(chosen.InputTokens)/float64(def.InputTokens)), chosen.CostUSD, def.CostUSD)
	if dc.MediaResolution != "" || cc.ImageTokens != 560 || dc.ImageTokens != 1120 || def.InputTokens-chosen.InputTokens != 560 {
		t.Errorf("chosen %+v default %+v", cc, dc)
	}
}

// TestLiveDecideTokens makes the same measurement against the real API when
// GEMINI_API_KEY is set: the tokens Google counts, not the stand-in's estimate.
func TestLiveDecideTokens(t *testing.T) {
	if os.Getenv("GEMINI_API_KEY") == "" {
		t.Skip("GEMINI_API_KEY is not set: the live token measurement is skipped (the stand-in's is TestDecideTokens)")
	}
	cfg, err := ConfigFromEnv(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, media := range []genai.MediaResolution{Defaults[RoleDecide].Media, genai.MediaResolutionUnspecified} {
		c.cfg.Roles[RoleDecide] = RoleConfig{Model: cfg.Role(RoleDecide).Model, Thinking: cfg.Role(RoleDecide).Thinking, Media: media}
		_, u, err := c.Decide(context.Background(), decideCall())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("decide on %s at %q: %d input tokens, %d output, %d thinking, $%.6f", cfg.Role(RoleDecide).Model, media, u.InputTokens, u.OutputTokens, u.ThinkingTokens, u.CostUSD)
	}
}
