package workflows

import (
	"net/url"
	"strings"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// The search attributes every run keeps up to date, so that the Web UI's list and
// `temporal workflow list --query` read like the product:
//
//	temporal workflow list --query 'WebagentStatus="failed" AND WebagentSite="shop.example.com"'
var (
	// StatusAttr is the run's status: running, waiting (for a person), success, unverified, partial, failed.
	StatusAttr = temporal.NewSearchAttributeKeyKeyword("WebagentStatus")
	// SiteAttr is the start URL's host.
	SiteAttr = temporal.NewSearchAttributeKeyKeyword("WebagentSite")
	// PlannerAttr is who wrote the plan: offline, gemini, given, skill.
	PlannerAttr = temporal.NewSearchAttributeKeyKeyword("WebagentPlanner")
	// SkillAttr is the skill the run reused; CacheHitAttr, whether it reused one.
	SkillAttr    = temporal.NewSearchAttributeKeyKeyword("WebagentSkill")
	CacheHitAttr = temporal.NewSearchAttributeKeyBool("WebagentCacheHit")
	// ScheduleAttr is the schedule that started the run (set by the schedule).
	ScheduleAttr = temporal.NewSearchAttributeKeyKeyword("WebagentSchedule")
)

// SearchAttributes are the attributes with their types, as `temporal operator
// search-attribute create --name N --type T` and the dev server's `--search-attribute N=T`
// take them. The worker checks at start that the server has them (and adds them when it
// may).
var SearchAttributes = []struct{ Name, Type string }{
	{"WebagentStatus", "Keyword"}, {"WebagentSite", "Keyword"}, {"WebagentPlanner", "Keyword"},
	{"WebagentSkill", "Keyword"}, {"WebagentCacheHit", "Bool"}, {"WebagentSchedule", "Keyword"},
}

// The values of WebagentStatus besides the final statuses.
const (
	StatusRunning Status = "running"
	StatusWaiting Status = "waiting"
)

// Site is the host of a start URL, as WebagentSite holds it.
func Site(startURL string) string {
	u, err := url.Parse(startURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// searchAttrs are a run's search attributes: whether it keeps them (runs begun since they
// exist), and the WebagentStatus it last set.
type searchAttrs struct {
	indexed bool
	status  Status
}

// index upserts the run's search attributes, on runs begun since they exist.
func (a *searchAttrs) index(ctx workflow.Context, updates ...temporal.SearchAttributeUpdate) {
	if !a.indexed {
		return
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, updates...); err != nil {
		workflow.GetLogger(ctx).Warn("could not update the run's search attributes", "error", err)
	}
}

// set records where the run is in WebagentStatus.
func (a *searchAttrs) set(ctx workflow.Context, s Status) {
	if a.status == s {
		return
	}
	a.status = s
	a.index(ctx, StatusAttr.ValueSet(string(s)))
}
