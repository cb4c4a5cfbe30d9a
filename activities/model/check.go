package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"google.golang.org/genai"
)

// Deprecation is a model's place on Google's deprecation schedule.
type Deprecation struct {
	// Shutdown is the day the model stops answering, as Google announced it; "" when
	// none is announced.
	Shutdown string
	// Replacement is the model Google recommends instead.
	Replacement string
	// Note says what else is known: that requests are already routed to another model,
	// that it shut down already.
	Note string
}

// DeprecationsRead is the day Deprecations were read off Google's Gemini API deprecations
// page and changelog.
const DeprecationsRead = "2026-11-22"

// Deprecations are the models with an announced end, among those a user is likely to
// configure. models.get does not say when a model shuts down, so the check at start reads
// this table; during a run the API's own model status is logged too.
var Deprecations = map[string]Deprecation{
	"gemini-2.5-pro":                          {Shutdown: "December 1, 2026", Replacement: "gemini-3.8-flash", Note: "from then on requests are served by gemini-3.8-flash, at its prices"},
	"gemini-2.5-flash":                        {Shutdown: "December 1, 2026", Replacement: "gemini-3.5-flash-lite", Note: "from then on requests are served by gemini-3.5-flash-lite, at its prices"},
	"gemini-3.7-flash":                        {Replacement: "gemini-3.8-flash", Note: "deprecated on October 8, 2026; requests are served by gemini-3.8-flash"},
	"gemini-3.5-flash":                        {Replacement: "gemini-3.6-flash", Note: "deprecated on October 8, 2026; requests are served by gemini-3.6-flash"},
	"gemini-3.1-flash-lite":                   {Shutdown: "May 7, 2027", Replacement: "gemini-3.5-flash-lite"},
	"gemini-3-pro-preview":                    {Shutdown: "March 9, 2026", Replacement: "gemini-3.1-pro-preview", Note: "already shut down"},
	"gemini-2.0-flash":                        {Shutdown: "June 1, 2026", Replacement: "gemini-3.5-flash-lite", Note: "already shut down"},
	"gemini-2.0-flash-lite":                   {Shutdown: "June 1, 2026", Replacement: "gemini-3.5-flash-lite", Note: "already shut down"},
	"gemini-2.5-computer-use-preview-10-2025": {Replacement: "gemini-3.8-flash", Note: "a legacy preview: current Flash models carry the computer-use tool"},
}

// CheckResult is what the check at start found.
type CheckResult struct {
	// Warnings are models that answer but are deprecated, or will shut down.
	Warnings []string
	// Unchecked are models the API could not be asked about (no network, a fault); the
	// worker starts, and a run that needs them says what is wrong.
	Unchecked []string
	// Cached is how many answers came from the cache.
	Cached int
}

// cacheTTL is how long a model that exists is not asked about again.
const cacheTTL = 24 * time.Hour

type checkCache struct {
	Models map[string]checkEntry `json:"models"`
}

type checkEntry struct {
	Checked time.Time `json:"checked"`
	Display string    `json:"displayName,omitempty"`
}

// Check asks the API about every model the configuration uses (models.get), once: a model
// found is remembered in cacheFile for a day, so that restarts stay fast. A model that does
// not exist is an error that names the variable to change; one that is deprecated or has
// a shutdown date is a warning with the date. cacheFile "" caches nothing.
func (c *Client) Check(ctx context.Context, cacheFile string) (CheckResult, error) {
	var res CheckResult
	cache := readCache(cacheFile)
	endpoint := c.endpoint()
	now := time.Now()
	models := c.cfg.Models()
	names := make([]string, 0, len(models))
	for m := range models {
		names = append(names, m)
	}
	slices.Sort(names)
	var missing []error
	dirty := false
	for _, m := range names {
		vars := strings.Join(models[m], " or ")
		key := endpoint + " " + m
		e, ok := cache.Models[key]
		if ok && now.Sub(e.Checked) < cacheTTL {
			res.Cached++
		} else {
			gctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			info, err := c.gc.Models.Get(gctx, m, nil)
			cancel()
			var api genai.APIError
			switch {
			case errors.As(err, &api) && api.Code == 404:
				missing = append(missing, fmt.Errorf("gemini has no model %q (%s): set %s to a current model, e.g. %s", m, strings.TrimSpace(api.Message), vars, suggest(m)))
				continue
			case err != nil:
				res.Unchecked = append(res.Unchecked, fmt.Sprintf("%s (%s): %v", m, vars, err))
				continue
			}
			e = checkEntry{Checked: now, Display: info.DisplayName}
			cache.Models[key] = e
			dirty = true
		}
		if w := deprecationWarning(m); w != "" {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s (chosen by %s)", w, vars))
		}
	}
	if dirty {
		writeCache(cacheFile, cache)
	}
	return res, errors.Join(missing...)
}

// endpoint names where the API is, for the cache: the same model name may exist on one
// endpoint and not another.
func (c *Client) endpoint() string {
	cc := c.gc.ClientConfig()
	if cc.Backend == genai.BackendVertexAI {
		return "vertex:" + cc.Project + "/" + cc.Location
	}
	if u := cc.HTTPOptions.BaseURL; u != "" {
		return u
	}
	return "gemini-api"
}

// deprecationWarning says what is known about a model's end, "" when nothing is.
func deprecationWarning(model string) string {
	d, ok := Deprecations[model]
	if !ok {
		return ""
	}
	s := model + " is deprecated"
	if d.Shutdown != "" {
		s = fmt.Sprintf("%s is deprecated and shuts down on %s", model, d.Shutdown)
	}
	if d.Note != "" {
		s += " (" + d.Note + ")"
	}
	if d.Replacement != "" {
		s += "; Google recommends " + d.Replacement
	}
	return s + " — Google's deprecations page, read " + DeprecationsRead
}

// suggest names the default of the role family a model name looks like it belongs to.
func suggest(model string) string {
	switch {
	case strings.Contains(model, "embedding"):
		return Defaults[RoleEmbed].Model
	case strings.Contains(model, "lite"):
		return Defaults[RoleDecide].Model
	}
	return Defaults[RolePlan].Model
}

func readCache(file string) checkCache {
	c := checkCache{Models: map[string]checkEntry{}}
	if file == "" {
		return c
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return c
	}
	if json.Unmarshal(data, &c) != nil || c.Models == nil {
		return checkCache{Models: map[string]checkEntry{}}
	}
	return c
}

// writeCache writes the cache, best effort: a cache that cannot be written only makes
// the next start ask again.
func writeCache(file string, c checkCache) {
	if file == "" {
		return
	}
	for k, e := range c.Models {
		if time.Since(e.Checked) >= cacheTTL {
			delete(c.Models, k)
		}
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(file), 0o755) != nil {
		return
	}
	tmp := file + ".tmp"
	if os.WriteFile(tmp, data, 0o644) == nil {
		_ = os.Rename(tmp, file)
	}
}
