package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
	"go.temporal.io/sdk/activity"
)

// storeMarked draws the elements' numbers on a screenshot and stores the copy; it
// returns the key, or "" when it could not.
func (a *Activities) storeMarked(ctx context.Context, key string, png []byte, obs page.Observation) string {
	img, err := page.DrawMarks(png, obs)
	if err == nil {
		err = a.Store.Put(ctx, key, "image/png", img)
	}
	if err != nil {
		activity.GetLogger(ctx).Warn("numbered screenshot", "err", err)
		return ""
	}
	return key
}

// storeObservation puts the screenshot and the element list in the store and returns
// their keys.
func (a *Activities) storeObservation(ctx context.Context, name string, obs page.Observation, png []byte) (activities.Snapshot, error) {
	snap := activities.Snapshot{URL: obs.URL, Title: obs.Title, Fingerprint: obs.Fingerprint, Elements: len(obs.Elements)}
	data, err := json.Marshal(obs)
	if err != nil {
		return snap, err
	}
	// The picture and the list are two objects: stored side by side.
	shot := make(chan error, 1)
	go func() {
		if len(png) == 0 {
			shot <- nil
			return
		}
		shot <- a.Store.Put(ctx, name+".png", "image/png", png)
	}()
	listErr := a.Store.Put(ctx, name+".json", "application/json", data)
	if err := <-shot; err != nil {
		return snap, err
	}
	if len(png) > 0 {
		snap.ScreenshotKey = name + ".png"
	}
	if listErr != nil {
		return snap, listErr
	}
	snap.ElementsKey = name + ".json"
	return snap, nil
}

// Observe stores a look at the page — screenshot, element list and visible text —
// without acting, for a model that plans or reads the page.
func (a *Activities) Observe(ctx context.Context, in activities.ObserveInput) (activities.Snapshot, error) {
	var snap activities.Snapshot
	err := a.withSession(ctx, in.SessionID, func(s *driver.Session, hb *heartbeat) error {
		a.uses(in.SessionID, in.KeyPrefix) // only once the session is known to be the caller's
		hb.set(activities.PhaseObserving)
		if err := s.Settle(ctx, 3*time.Second); err != nil {
			return err
		}
		var err error
		snap, _, err = a.observe(ctx, s, in.KeyPrefix, in.Name, 0, "looked at the page")
		s.Scrub(&snap)
		return err
	})
	return snap, err
}

// observe stores the page's screenshot, element list and text under name, records the
// page in the dataset as reached by action in step, and returns the text too.
func (a *Activities) observe(ctx context.Context, s *driver.Session, prefix, name string, step int, action string) (activities.Snapshot, string, error) {
	obs, err := s.Observe(ctx)
	if err != nil {
		return activities.Snapshot{}, "", err
	}
	png, err := s.Screenshot(ctx)
	if err != nil {
		return activities.Snapshot{}, "", err
	}
	if a.Dataset != nil {
		// The dataset is a record of the run, not part of it: kept beside it, in order;
		// a failure is only logged.
		log := activity.GetLogger(ctx)
		a.behind(prefix, func(ctx context.Context) {
			if _, err := a.Dataset.Capture(ctx, prefix, step, action, png, obs); err != nil {
				log.Warn("dataset capture", "err", err)
			}
		})
	}
	name = prefix + "/" + name
	snap, err := a.storeObservation(ctx, name, obs, png)
	if err != nil {
		return snap, "", err
	}
	text, err := s.VisibleText(ctx)
	if err != nil {
		return snap, "", err
	}
	if err := a.Store.Put(ctx, name+".txt", "text/plain; charset=utf-8", []byte(text)); err != nil {
		return snap, text, err
	}
	snap.TextKey = name + ".txt"
	return snap, text, nil
}

// ValidateGoal looks at the final page: the plan's closing checks must still hold. The
// final screenshot is stored.
func (a *Activities) ValidateGoal(ctx context.Context, in activities.ValidateGoalInput) (activities.ValidateGoalResult, error) {
	var res activities.ValidateGoalResult
	err := a.withSession(ctx, in.SessionID, func(s *driver.Session, hb *heartbeat) error {
		a.uses(in.SessionID, in.KeyPrefix) // only once the session is known to be the caller's
		hb.set(activities.PhaseChecking)
		if err := s.Settle(ctx, 3*time.Second); err != nil {
			return err
		}
		defer s.Scrub(&res)
		var text string
		var err error
		if res.Final, text, err = a.observe(ctx, s, in.KeyPrefix, "final", in.StepsPlanned, "the end of the run"); err != nil {
			return err
		}
		if in.Baseline != "" {
			// An effect is looked for in what the page shows, not in the values of its
			// fields: those may be what the agent itself typed.
			if text, err = s.ShownText(ctx); err != nil {
				return err
			}
		}
		verdict(&res, in, text)
		if err := a.pageEvidence(ctx, s, &res, in); err != nil {
			return err
		}
		if res.Success && in.Baseline != "" {
			before, err := a.Store.Get(ctx, in.Baseline)
			if err != nil {
				return fmt.Errorf("read the page before the step (%s): %w", in.Baseline, err)
			}
			baseline(&res, in, string(before))
		}
		return nil
	})
	return res, err
}

// verdict judges the final page's text against the plan's closing checks.
func verdict(res *activities.ValidateGoalResult, in activities.ValidateGoalInput, text string) {
	if in.StepsCompleted < in.StepsPlanned {
		res.Reason = fmt.Sprintf("only %d of %d steps completed", in.StepsCompleted, in.StepsPlanned)
		res.Confidence = 0.95
		return
	}
	if len(in.Checks) == 0 {
		res.Success, res.Confidence = true, 0.6
		res.Reason = fmt.Sprintf("all %d steps completed and checked; the goal states no final check to confirm it", in.StepsPlanned)
		return
	}
	pg := page.NormalizeText(text)
	for _, c := range in.Checks {
		c = c.Bind(in.Params)
		if page.ContainsText(pg, c.Value) == c.Negated {
			res.Confidence = 0.9
			res.Reason = fmt.Sprintf("on the page %q: %s does not hold", res.Final.Title, c.String())
			return
		}
	}
	res.Success, res.Confidence = true, 0.9
	res.Reason = fmt.Sprintf("all %d steps completed, and on the final page %q: %s", in.StepsPlanned, res.Final.Title, plan.Describe(in.Checks, in.Params))
}

// pageEvidence looks, for a goal that states no check, at what the final page shows
// outside its fields (read once) for evidence the goal was done: the last form's values
// (Shown), the page's own word that a last click did it (Said), the item's own row
// (State), the form kept and stored (Kept), the list without the item removed (Removed);
// each asked for only when the one before found nothing. The pages before and the final
// page's fields they are weighed against are read once each (evidenceReads).
func (a *Activities) pageEvidence(ctx context.Context, s *driver.Session, res *activities.ValidateGoalResult, in activities.ValidateGoalInput) error {
	if !res.Success || len(in.Checks) > 0 || len(in.Typed)+len(in.KeptTyped)+len(in.Done)+len(in.Gone) == 0 {
		return nil
	}
	seen, err := s.SeenText(ctx, false)
	if err != nil {
		return err
	}
	reads := &evidenceReads{a: a, s: s}
	if len(in.Typed) > 0 {
		if err := a.shownTyped(ctx, reads, res, in, seen); err != nil {
			return err
		}
	}
	if res.Shown == "" && len(in.Done) > 0 {
		if err := pageSaid(ctx, reads, res, in, seen); err != nil {
			return err
		}
	}
	if res.Shown == "" && res.Said == "" && res.State == "" && res.Flipped == "" && len(in.Typed)+len(in.KeptTyped) > 0 {
		if err := keptForm(ctx, reads, res, in, seen); err != nil {
			return err
		}
	}
	if res.Shown == "" && res.Said == "" && res.State == "" && res.Flipped == "" && res.Kept == "" && len(in.Gone) > 0 {
		return listGone(ctx, reads, res, in, seen)
	}
	return nil
}

// storedObservation reads back a page's controls stored under key (what names the page
// in errors).
func (a *Activities) storedObservation(ctx context.Context, key, what string) (page.Observation, error) {
	var obs page.Observation
	data, err := a.Store.Get(ctx, key)
	if err != nil {
		return obs, fmt.Errorf("read %s (%s): %w", what, key, err)
	}
	if err := json.Unmarshal(data, &obs); err != nil {
		return obs, fmt.Errorf("read %s (%s): %w", what, key, err)
	}
	return obs, nil
}

// shownTyped looks for the values the goal's last form was given on the final page, as
// text a person sees outside every field, and not on the page before they were typed:
// the form was taken, and the page now shows what it was given (a contact's name in the
// list, a page's new text saved). A value still in a field is no evidence (the form may
// be where it was), nor one the page showed before. seen is the final page's text
// outside its fields.
func (a *Activities) shownTyped(ctx context.Context, reads *evidenceReads, res *activities.ValidateGoalResult, in activities.ValidateGoalInput, seen string) error {
	fields, err := reads.fieldTexts(ctx)
	if err != nil {
		return err
	}
	var before, raw string
	if in.TypedBefore != "" {
		b, err := reads.text(ctx, in.TypedBefore, "the page before the form")
		if err != nil {
			return err
		}
		before, raw = page.NormalizeText(b), b
	}
	if in.TypedClosed != "" {
		obs, err := a.storedObservation(ctx, in.TypedClosed, "the page after the form's click")
		if err != nil {
			return err
		}
		if v := stillInField(in.Typed, obs); v != "" {
			res.NotShown = strconv.Quote(v) + " was still in a field after the click that came after the form: it did not close it"
			return nil
		}
	}
	var again func(v string) bool
	if in.TypedAt != "" && sameAddress(in.TypedAt, res.Final.URL) {
		again = func(v string) bool { return shownMore(seen, raw, v) }
	}
	res.Shown, res.NotShown = shownValues(in.Typed, page.NormalizeText(seen), fields, before, again)
	return nil
}

// stillInField is the first of typed that a field of obs holds, or "".
func stillInField(typed []string, obs page.Observation) string {
	for _, v := range typed {
		for _, e := range obs.Elements {
			if !e.Secret && e.Value != "" && page.ContainsText(page.NormalizeText(e.Value), v) {
				return v
			}
		}
	}
	return ""
}

// shownValues says, for the values typed, whether each is in seen (the page's text
// outside its fields), in none of fields, and not in before, unless again (set when the
// final page is at the address of the page before) says it is shown anew: shown names them
// all, or notShown says of the first that is not what it is instead.
func shownValues(typed []string, seen string, fields []string, before string, again func(string) bool) (shown, notShown string) {
	var all []string
	for _, v := range typed {
		q := strconv.Quote(v)
		if !page.ContainsText(seen, v) {
			return "", q + " is not on the final page"
		}
		if onlyAsked(seen, page.Norm(v)) {
			return "", q + " is on the final page only in a question it asks (it waits for an answer)"
		}
		if before != "" && page.ContainsText(before, v) && (again == nil || !again(v)) {
			return "", q + " was on the page before it was typed"
		}
		for _, f := range fields {
			if page.ContainsText(page.NormalizeText(f), v) {
				return "", q + " is still in a field"
			}
		}
		all = append(all, q)
	}
	return strings.Join(all, ", "), ""
}

// shownMore reports whether more lines of seen than of before (the pages' texts, as
// shown) hold v, and none of seen's that hold it is a line of failure: a record added to
// the list the form sits on (a journal's new transaction names accounts its others name
// too).
func shownMore(seen, before, v string) bool {
	count := func(text string) (n int, failed bool) {
		for _, l := range strings.Split(text, "\n") {
			if l = page.NormalizeText(l); page.ContainsText(l, v) {
				n++
				failed = failed || failure.MatchString(l)
			}
		}
		return n, failed
	}
	after, failed := count(seen)
	was, _ := count(before)
	return !failed && after > was
}

// onlyAsked reports whether every place seen (normalized) shows v is inside a question:
// the words after it run to a question mark before any other end of a sentence ("Do you
// really want to add carla@… to hiking-club?", the page's Confirm still to press).
func onlyAsked(seen, v string) bool {
	asked := false
	for from := 0; ; {
		i := strings.Index(seen[from:], v)
		if i < 0 {
			return asked
		}
		from += i + len(v)
		rest := seen[from:min(len(seen), from+200)]
		end := strings.IndexAny(rest, ".!?")
		// A dot inside a word (an address's, a number's) ends no sentence.
		for end >= 0 && rest[end] == '.' && end+1 < len(rest) && rest[end+1] != ' ' {
			next := strings.IndexAny(rest[end+1:], ".!?")
			if next < 0 {
				end = -1
				break
			}
			end += 1 + next
		}
		if end < 0 || rest[end] != '?' {
			return false
		}
		asked = true
	}
}

// baseline withdraws a verdict whose checks already held on the page before the step.
func baseline(res *activities.ValidateGoalResult, in activities.ValidateGoalInput, before string) {
	pg := page.NormalizeText(before)
	for _, c := range in.Checks {
		c = c.Bind(in.Params)
		if page.ContainsText(pg, c.Value) == c.Negated {
			return // this check did not hold before: it is evidence
		}
	}
	res.Success, res.Inconclusive = false, true
	res.Reason = fmt.Sprintf("%s held on the page before the step as well, so it says nothing about the step", plan.Describe(in.Checks, in.Params))
}

// safeFileName is a site's suggested file name made safe for an object key: letters,
// digits, dots, dashes and underscores, at most 100 of them, never only dots.
func safeFileName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 100 {
			break
		}
	}
	out := strings.Trim(b.String(), ".")
	if out == "" {
		return "download"
	}
	return out
}
