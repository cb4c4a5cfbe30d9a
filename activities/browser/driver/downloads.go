package driver

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"
)

// A file the page downloads while a step acts is kept, up to MaxDownloadBytes, for the
// step to store and list; the step counts it as its effect.

// MaxDownloadBytes caps one stored download; a larger one is reported, not stored.
const MaxDownloadBytes = 50 << 20

// Download is a file the page downloaded during a step.
type Download struct {
	// Name is the file name the site suggested; URL, where it came from.
	Name, URL string
	Data      []byte
	// Err says why the file could not be kept.
	Err error
}

// downloads are the files downloaded since the step took them, and the ones still
// being read.
type downloads struct {
	mu      sync.Mutex
	got     []Download
	reading sync.WaitGroup
}

// keep keeps a file the page downloads. Reading it waits for the download to end, so it
// is done off the event loop; the step waits for it (take).
func (ds *downloads) keep(d playwright.Download) {
	ds.reading.Add(1)
	go func() {
		defer ds.reading.Done()
		dl := Download{Name: d.SuggestedFilename(), URL: d.URL()}
		path, err := d.Path()
		if err == nil {
			dl.Data, err = readCapped(path, MaxDownloadBytes)
		}
		if err != nil {
			dl.Err = err
			_ = d.Cancel()
		}
		ds.mu.Lock()
		ds.got = append(ds.got, dl)
		ds.mu.Unlock()
	}()
}

func readCapped(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read the downloaded file: %w", err)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("the file is %d bytes, more than the %d a download may keep", fi.Size(), limit)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the downloaded file: %w", err)
	}
	return data, nil
}

// take waits, up to limit, for the downloads in progress, and takes the ones the page
// made.
func (ds *downloads) take(ctx context.Context, limit time.Duration) []Download {
	done := make(chan struct{})
	go func() { ds.reading.Wait(); close(done) }()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-ctx.Done():
	}
	ds.mu.Lock()
	defer ds.mu.Unlock()
	dl := ds.got
	ds.got = nil
	return dl
}
