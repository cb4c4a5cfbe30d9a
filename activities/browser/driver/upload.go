package driver

//lint:file-ignore SA1019 The element acted on is the exact node the observation numbered; only an ElementHandle names it.

import (
	"context"
	"fmt"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/plan"
)

// upload gives the step's element one of the files the run was given, by its name: a file
// input takes it directly; any other control (a "Browse" or "Import" button) is clicked,
// and the file chooser it opens takes it. Nothing on the worker's disk the run names is
// read: the file comes from the run's own folder in the store, through a private copy.
func upload(ctx context.Context, a *action) *plan.Feedback {
	name := a.step.File
	if a.opts.File == nil {
		return &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("the run was given no files, so %q cannot be uploaded: give it with the run (--attach)", name)}
	}
	data, err := a.opts.File(ctx, name)
	if err != nil {
		return &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("the run was given no file named %q (%v): give it with the run (--attach)", name, err)}
	}
	file, err := a.s.uploads.put(name, data)
	if err != nil {
		return &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("could not hand %q to the browser: %v", name, err)}
	}
	if a.out.Target != nil && a.out.Target.Tag == "input" && a.out.Target.Type == "file" {
		a.note("uploaded %q into %s", name, a.ref)
		return a.failed(a.el.SetInputFiles(file, playwright.ElementHandleSetInputFilesOptions{Timeout: timeout}))
	}
	chooser, err := a.s.page.ExpectFileChooser(func() error {
		return a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout})
	}, playwright.PageExpectFileChooserOptions{Timeout: playwright.Float(5000)})
	if err != nil {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("clicking %s opened no file chooser: %s", a.ref, firstLine(err.Error())),
			Suggestion: "name the file field, or the button that asks for a file"}
	}
	a.note("clicked %s and gave the file chooser %q", a.ref, name)
	return a.failed(chooser.SetFiles(file))
}
