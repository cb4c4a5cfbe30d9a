package workflows

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// checkFiles says what is wrong with the files given to a run: each is named by a base
// name (a path would say where on a machine to read it, which no run chooses), once, and
// they fit the caps.
func checkFiles(files []activities.RunFile) []error {
	var errs []error
	if len(files) > MaxRunFiles {
		errs = append(errs, fmt.Errorf("the run is given %d files; at most %d", len(files), MaxRunFiles))
	}
	seen, total := map[string]bool{}, 0
	for _, f := range files {
		total += len(f.Data)
		switch {
		case strings.TrimSpace(f.Name) == "":
			errs = append(errs, fmt.Errorf("a file given to the run has no name"))
		case f.Name != filepath.Base(f.Name) || strings.ContainsAny(f.Name, `/\`) || f.Name == "." || f.Name == "..":
			errs = append(errs, fmt.Errorf("the file %q is named by a path: give its name alone (\"report.pdf\")", f.Name))
		case seen[f.Name]:
			errs = append(errs, fmt.Errorf("two files given to the run are named %q", f.Name))
		}
		seen[f.Name] = true
	}
	if total > MaxRunFileBytes {
		errs = append(errs, fmt.Errorf("the files given to the run hold %d bytes; at most %d in all", total, MaxRunFileBytes))
	}
	return errs
}

// uploadsGiven says which UPLOAD step names a file the run was not given.
func uploadsGiven(steps []plan.Step, files []activities.RunFile) error {
	given := map[string]bool{}
	for _, f := range files {
		given[f.Name] = true
	}
	for _, s := range steps {
		if s.Action == plan.Upload && !given[s.File] {
			return fmt.Errorf("step %d uploads %q, which the run was not given: give the file with the run (starter --attach FILE, input \"files\")", s.Step, s.File)
		}
	}
	return nil
}

// putFiles stores the files given to the run where its UPLOAD steps read them, once, on
// any worker (the run's first; a run that continued as new has them already).
func (r *run) putFiles(ctx workflow.Context) error {
	if len(r.in.Files) == 0 || r.in.Continued != nil {
		return nil
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5, InitialInterval: time.Second},
		Summary:             fmt.Sprintf("store the %d files given to the run", len(r.in.Files)),
	})
	_, err := activities.PutRunFiles.Execute(actx, activities.PutRunFilesInput{KeyPrefix: r.res.Metadata.keyPrefix(), Files: r.in.Files})
	if err != nil {
		r.res.addError(ctx, 0, "files", "could not store the files given to the run: "+rootMessage(err), false)
	}
	return err
}
