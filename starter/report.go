package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"html/template"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	agent "github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/workflows"
)

// reportCommand writes `report WORKFLOW_ID --out FILE.html`: one self-contained page (the
// images embedded) with the goal, the outcome and its evidence, every step with its
// screenshots, actions and feedback, and the run's visual dataset.
func reportCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the HTML file to write (default: report-WORKFLOW_ID.html)")
	words, ok := parseWords(fs, args)
	if !ok {
		return exitBadInput
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "error: "+format+"\n", a...)
		return exitBadInput
	}
	if len(words) != 1 {
		return bad("usage: starter report WORKFLOW_ID [--out FILE.html]")
	}
	id := words[0]
	if *out == "" {
		*out = "report-" + id + ".html"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := dial(ctx)
	if err != nil {
		return bad("%v", err)
	}
	defer c.Close()
	// A worker, which holds the store's credentials, hands out links to the run's objects.
	rep, err := c.Run(id).Report(ctx, 10*time.Minute)
	if err != nil {
		return exitFor(stderr, err)
	}
	if rep.Truncated {
		fmt.Fprintf(stderr, "warning: run %s stored more objects than one answer carries; the report shows what the first %d of them hold\n", id, len(rep.Links))
	}
	res := rep.Result
	page := reportPage(ctx, &res, rep.Links, rep.URL)
	f, err := os.Create(*out)
	if err != nil {
		return bad("write the report: %v", err)
	}
	if err := reportTemplate.Execute(f, page); err != nil {
		_ = f.Close()
		return bad("write the report: %v", err)
	}
	if err := f.Close(); err != nil {
		return bad("write the report: %v", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d steps, %d screenshots, %d dataset states\n", *out, len(page.Steps), page.images, len(page.Dataset))
	return exitOK
}

type reportData struct {
	R       *workflows.GoalResult
	Link    string
	Final   template.URL
	Steps   []reportStep
	Dataset []reportImage
	images  int
}

type reportStep struct {
	workflows.StepRecord
	Images []reportImage
}

type reportImage struct {
	Label string
	Src   template.URL
}

// reportPage fetches the images the report shows, in parallel, and embeds them.
func reportPage(ctx context.Context, res *workflows.GoalResult, links map[string]string, link string) *reportData {
	d := &reportData{R: res, Link: link}
	var mu sync.Mutex
	var wg sync.WaitGroup
	embed := func(key string, set func(template.URL)) {
		u, ok := links[key]
		if !ok || key == "" {
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			data, err := agent.Download(ctx, u, "from the store")
			if err != nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			set(template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(data)))
			d.images++
		}()
	}
	embed(res.Validation.FinalScreenshot, func(u template.URL) { d.Final = u })
	d.Steps = make([]reportStep, len(res.Steps))
	for i, s := range res.Steps {
		d.Steps[i].StepRecord = s
		keys := []struct{ label, key string }{
			{"before", s.Evidence.BeforeScreenshot},
			{"numbered, as the model sees it", strings.TrimSuffix(s.Evidence.BeforeScreenshot, ".png") + "-marked.png"},
			{"after", s.Evidence.AfterScreenshot},
		}
		d.Steps[i].Images = make([]reportImage, len(keys))
		for j, k := range keys {
			d.Steps[i].Images[j].Label = k.label
			embed(k.key, func(u template.URL) { d.Steps[i].Images[j].Src = u })
		}
	}
	var states []string
	for key := range links {
		if strings.Contains(key, "/dataset/") && strings.HasSuffix(key, ".png") {
			states = append(states, key)
		}
	}
	sort.Strings(states)
	d.Dataset = make([]reportImage, len(states))
	for i, key := range states {
		d.Dataset[i].Label = key[strings.LastIndex(key, "/")+1:]
		embed(key, func(u template.URL) { d.Dataset[i].Src = u })
	}
	wg.Wait()
	for i := range d.Steps {
		imgs := d.Steps[i].Images[:0]
		for _, im := range d.Steps[i].Images {
			if im.Src != "" {
				imgs = append(imgs, im)
			}
		}
		d.Steps[i].Images = imgs
	}
	return d
}

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"ms": func(v int64) string {
		return (time.Duration(v) * time.Millisecond).Round(10 * time.Millisecond).String()
	},
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Run report · {{.R.Metadata.Goal}}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#1d2330;padding:0 1rem}
h1{font-size:1.4rem;margin-bottom:.2rem} .muted{color:#667}
.status{display:inline-block;padding:.15rem .6rem;border-radius:1rem;font-weight:600;color:#fff}
.success{background:#1e8e3e}.unverified{background:#8a6d3b}.partial{background:#d18b00}.failed{background:#c5221f}
table{border-collapse:collapse;margin:.6rem 0} td,th{border:1px solid #dde;padding:.3rem .6rem;text-align:left;vertical-align:top}
section.step{border:1px solid #dde;border-radius:.5rem;padding:.8rem 1rem;margin:1rem 0}
.shots{display:flex;gap:.6rem;flex-wrap:wrap} figure{margin:0;flex:1 1 30%} figure img{width:100%;border:1px solid #ccd}
figcaption{font-size:.8rem;color:#667} ul{margin:.3rem 0} .gallery{display:grid;grid-template-columns:repeat(4,1fr);gap:.5rem}
.gallery img{width:100%;border:1px solid #ccd}
</style></head><body>
<h1>{{.R.Metadata.Goal}}</h1>
<p class="muted">{{.R.Metadata.WorkflowID}} · started {{.R.Metadata.StartedAt.Format "2006-01-02 15:04:05 MST"}} · {{ms .R.Metadata.DurationMs}} · <a href="{{.Link}}">open in the Temporal Web UI</a></p>
<p><span class="status {{.R.Execution.Status}}">{{.R.Execution.Status}}</span> {{.R.Summary.Brief}}</p>
<table>
<tr><th>start URL</th><td>{{.R.Metadata.StartURL}}</td><th>final URL</th><td>{{.R.Metadata.FinalURL}}</td></tr>
<tr><th>validation</th><td colspan="3">{{if .R.Validation.Success}}success{{else}}not reached{{end}}, {{if .R.Validation.Verified}}verified{{else}}<b>not verified</b>{{end}} ({{printf "%.2f" .R.Validation.Confidence}}): {{.R.Validation.Reason}}</td></tr>
<tr><th>steps</th><td colspan="3">{{.R.Execution.StepsCompleted}} completed, {{.R.Execution.StepsFailed}} failed, {{.R.Execution.StepsSkipped}} skipped of {{.R.Execution.StepsPlanned}}; {{.R.Execution.TotalRetries}} retries, {{.R.Execution.Replans}} replans, {{.R.Execution.BrowserRecoveries}} browser recoveries</td></tr>
<tr><th>planner</th><td>{{.R.Metadata.Planner}}{{if .R.Skill.CacheHit}} (skill {{.R.Skill.ID}} v{{.R.Skill.Version}}){{end}}</td><th>model</th><td>{{.R.Usage.Calls}} calls, {{.R.Usage.InputTokens}} in / {{.R.Usage.OutputTokens}} out tokens{{if .R.Usage.CostUSD}}, ${{printf "%.4f" .R.Usage.CostUSD}}{{end}}</td></tr>
{{if or .R.Skill.CacheHit .R.Skill.MissReason .R.Skill.Saved}}<tr><th>skill</th><td colspan="3">{{if .R.Skill.CacheHit}}cache hit, {{.R.Skill.ID}} v{{.R.Skill.Version}} (similarity {{printf "%.3f" .R.Skill.Similarity}}){{else}}cache miss{{with .R.Skill.MissReason}}: {{.}}{{end}}{{end}}{{with .R.Skill.Saved}}; {{.}}{{end}}</td></tr>{{end}}
</table>
{{with .R.Errors}}<h2>Errors</h2><ul>{{range .}}<li>step {{.Step}} ({{.Type}}): {{.Message}}</li>{{end}}</ul>{{end}}
{{with .R.Summary.Warnings}}<h2>Warnings</h2><ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .R.Downloads}}<h2>Downloads</h2><ul>{{range .}}<li>step {{.Step}}: {{.Name}} ({{.Bytes}} bytes) {{.Key}}{{.Error}}</li>{{end}}</ul>{{end}}
{{if .Final}}<h2>Final page</h2><figure><img src="{{.Final}}" alt="the final page"></figure>{{end}}
<h2>Steps</h2>
{{range .Steps}}<section class="step" id="step-{{.Order}}">
<h3>{{.Order}}. {{.Description}} — {{.Status}}</h3>
<p class="muted">{{.Attempts}} attempt(s), {{ms .DurationMs}}{{if .Cached}}, from a skill{{end}}{{if .Unverified}}, <b>not verified</b>{{end}}{{if .ApprovedBy}}, approved by {{.ApprovedBy}}{{end}}</p>
{{with .Actions}}<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .Feedback}}<p>Feedback of the failed attempts:</p><ul>{{range .}}<li>{{.Type}}: {{.Details}}{{if .Suggestion}} — {{.Suggestion}}{{end}}</li>{{end}}</ul>{{end}}
<div class="shots">{{range .Images}}<figure><img src="{{.Src}}" alt="{{.Label}}"><figcaption>{{.Label}}</figcaption></figure>{{end}}</div>
</section>{{end}}
{{with .Dataset}}<h2>Visual dataset: the run's distinct UI states</h2><div class="gallery">{{range .}}<figure><img src="{{.Src}}" alt="{{.Label}}"><figcaption>{{.Label}}</figcaption></figure>{{end}}</div>{{end}}
</body></html>
`))
