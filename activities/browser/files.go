package browser

import (
	"context"
	"mime"
	"path/filepath"

	"github.com/webagent-dev/webagent/activities"
)

// PutRunFiles stores the files given to a run in the run's own folder of the store, where
// its UPLOAD steps read them by name. Storing one again writes the same object.
func (a *Activities) PutRunFiles(ctx context.Context, in activities.PutRunFilesInput) (activities.PutRunFilesResult, error) {
	out := activities.PutRunFilesResult{Keys: map[string]string{}}
	for _, f := range in.Files {
		key := activities.RunFileKey(in.KeyPrefix, f.Name)
		ct := mime.TypeByExtension(filepath.Ext(f.Name))
		if ct == "" {
			ct = "application/octet-stream"
		}
		if err := a.Store.Put(ctx, key, ct, f.Data); err != nil {
			return out, err
		}
		out.Keys[f.Name] = key
	}
	return out, nil
}
