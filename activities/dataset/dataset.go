// Package dataset records the visual dataset of a run: a screenshot of every distinct UI
// state it went through — dialogs, menus, half-filled forms, states that have no URL of
// their own — each stored once, with a manifest that says how the run got there.
package dataset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"strings"
	"sync"
	"time"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/activities/visual"
)

// DefaultThreshold is the share of pixels that must change for a new state when the
// page's structure did not (the core spec's 2%).
const DefaultThreshold = 0.02

// ManifestName is the manifest's name in a run's dataset folder.
const ManifestName = "manifest.json"

// Store is what the recorder needs of the object store.
type Store interface {
	Put(ctx context.Context, key, contentType string, data []byte) error
	Get(ctx context.Context, key string) ([]byte, error)
}

// Manifest lists a run's states in the order they were reached.
type Manifest struct {
	Threshold float64 `json:"threshold"`
	States    []State `json:"states"`
}

// State is one distinct UI state.
type State struct {
	Seq  int    `json:"seq"`
	Name string `json:"name"`
	// File is the screenshot's name in the dataset folder; a state seen before (the
	// same screenshot) names the earlier file, which is stored once.
	File  string `json:"file"`
	URL   string `json:"url"`
	Title string `json:"title"`
	// Step is the plan step the state was reached in (0: before the first).
	Step int `json:"step"`
	// Action is what led to the state.
	Action string `json:"action"`
	// Previous is the state before this one ("" for the first).
	Previous string `json:"previous,omitempty"`
	// Why says what made it distinct: "first", "structure" (the URL, the controls, their
	// states or values changed) or "pixels" (the same structure, and more than the
	// threshold of the pixels changed).
	Why      string       `json:"why"`
	Revisit  bool         `json:"revisit,omitempty"`
	Elements []ElementBox `json:"elements"`
	At       time.Time    `json:"timestamp"`
	// SHA256 is the file's SHA-256.
	SHA256 string `json:"sha256"`
	// Signature is the page's structure (see Signature).
	Signature string `json:"signature"`
}

// ElementBox is an element of the state, for labelling the dataset.
type ElementBox struct {
	Index int      `json:"index"`
	Role  string   `json:"role"`
	Name  string   `json:"name,omitempty"`
	Box   page.Box `json:"box"`
}

// Recorder records the datasets of the runs this process drives. It remembers each run's
// last state; a run that moved here from a lost worker picks its manifest up from the store.
type Recorder struct {
	Store     Store
	Threshold float64

	mu   sync.Mutex
	runs map[string]*run
}

type run struct {
	mu       sync.Mutex
	loaded   bool
	manifest Manifest
	// lastPNG and lastSig are the last recorded state's screenshot and structure; last
	// is its pixels, decoded when first needed. seen is the last screenshot captured.
	last    *image.RGBA
	lastPNG []byte
	lastSig string
	seen    []byte
	files   map[string]string // file hash → file
}

// Capture records the page as a state of the run whose objects live under prefix, if it
// differs from the last state recorded: in structure (URL, controls and their states,
// values) or in more than the threshold of its pixels. It returns the state, or nil when
// the page is the same state as before.
func (r *Recorder) Capture(ctx context.Context, prefix string, step int, action string, png []byte, obs page.Observation) (*State, error) {
	ru := r.run(prefix)
	ru.mu.Lock()
	defer ru.mu.Unlock()
	if err := r.load(ctx, prefix, ru); err != nil {
		return nil, err
	}
	sig := Signature(obs)
	if ru.seen != nil && sig == ru.lastSig && string(ru.seen) == string(png) {
		return nil, nil // byte for byte the same frame, and the same controls
	}
	// Pixels are decoded only when the structure cannot tell the states apart: most
	// steps change a control or a value, and a screenshot's decode is the most costly
	// thing a step does in this process.
	why := "first"
	var img *image.RGBA
	switch {
	case ru.lastPNG == nil:
	case sig != ru.lastSig:
		why = "structure"
	default:
		if ru.last == nil {
			last, err := visual.Decode(ru.lastPNG)
			if err != nil {
				return nil, err
			}
			ru.last = last
		}
		var err error
		if img, err = visual.Decode(png); err != nil {
			return nil, err
		}
		switch changed, err := visual.Changed(ru.last, img, r.threshold()); {
		case err == nil && changed:
			why = "pixels"
		case err != nil && !strings.Contains(err.Error(), "size"):
			return nil, err
		case err != nil:
			why = "pixels" // the viewport changed size
		default:
			ru.seen = png
			return nil, nil
		}
	}
	// Chromium encodes the same pixels to the same bytes: the file's hash finds a state
	// seen before.
	sum := sha256.Sum256(png)
	hash := hex.EncodeToString(sum[:])
	st := State{
		Seq: len(ru.manifest.States) + 1, Name: Name(obs), URL: obs.URL, Title: obs.Title, Step: step, Action: action,
		Why: why, At: time.Now().UTC(), SHA256: hash, Signature: sig,
	}
	if n := len(ru.manifest.States); n > 0 {
		st.Previous = ru.manifest.States[n-1].File
	}
	for _, e := range obs.Elements {
		if !e.Offscreen {
			st.Elements = append(st.Elements, ElementBox{Index: e.Index, Role: e.Role, Name: e.Name, Box: e.Box})
		}
	}
	if file, ok := ru.files[hash]; ok {
		st.File, st.Revisit = file, true
	} else {
		st.File = fmt.Sprintf("%03d-%02d-%s.png", st.Seq, step, st.Name)
		if err := r.Store.Put(ctx, prefix+"/dataset/"+st.File, "image/png", png); err != nil {
			return nil, err
		}
		ru.files[hash] = st.File
	}
	ru.manifest.States = append(ru.manifest.States, st)
	data, err := json.MarshalIndent(ru.manifest, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := r.Store.Put(ctx, prefix+"/dataset/"+ManifestName, "application/json", data); err != nil {
		return nil, err
	}
	ru.last, ru.lastPNG, ru.seen, ru.lastSig = img, png, png, sig
	return &st, nil
}

func (r *Recorder) threshold() float64 {
	if r.Threshold > 0 {
		return r.Threshold
	}
	return DefaultThreshold
}

func (r *Recorder) run(prefix string) *run {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.runs == nil {
		r.runs = map[string]*run{}
	}
	ru, ok := r.runs[prefix]
	if !ok {
		ru = &run{files: map[string]string{}}
		r.runs[prefix] = ru
	}
	return ru
}

// Forget drops what the recorder remembers of a run (its manifest stays in the store).
func (r *Recorder) Forget(prefix string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.runs, prefix)
}

// load picks up a manifest an earlier worker wrote, with its last state's screenshot.
func (r *Recorder) load(ctx context.Context, prefix string, ru *run) error {
	if ru.loaded {
		return nil
	}
	ru.manifest.Threshold = r.threshold()
	data, err := r.Store.Get(ctx, prefix+"/dataset/"+ManifestName)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			ru.loaded = true
			return nil
		}
		return err
	}
	if err := json.Unmarshal(data, &ru.manifest); err != nil {
		return fmt.Errorf("read the dataset manifest: %w", err)
	}
	for _, s := range ru.manifest.States {
		if s.SHA256 != "" {
			ru.files[s.SHA256] = s.File
		}
	}
	if n := len(ru.manifest.States); n > 0 {
		last := ru.manifest.States[n-1]
		png, err := r.Store.Get(ctx, prefix+"/dataset/"+last.File)
		if err != nil {
			return err
		}
		ru.lastPNG, ru.seen, ru.lastSig = png, png, last.Signature
	}
	ru.loaded = true
	return nil
}

// Signature is the page's structure as a person would tell two states apart: the URL and
// each visible control with its state and value. Moving boxes and free text are not in it.
func Signature(obs page.Observation) string {
	var b strings.Builder
	b.WriteString(obs.URL)
	for _, e := range obs.Elements {
		if e.Offscreen {
			continue
		}
		fmt.Fprintf(&b, "\n%s|%s|%s|%s|%v|%v|%v|%v", e.Role, e.Name, e.Container, e.Value, deref(e.Checked), deref(e.Expanded), deref(e.Selected), e.Disabled)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

func deref(b *bool) string {
	if b == nil {
		return "-"
	}
	return fmt.Sprint(*b)
}

// Name describes a state in a few words for its file name: "dialog-new-project-filled",
// "projects-tracker-menu-project-actions", "sign-in".
func Name(obs page.Observation) string {
	opener, filled := "", false
	for _, e := range obs.Elements {
		if e.Offscreen {
			continue
		}
		if e.Expanded != nil && *e.Expanded && opener == "" {
			opener = e.Name
		}
		if e.Editable() && e.Value != "" && !e.Secret {
			filled = true
		}
	}
	name := page.Slug(obs.Title, 40)
	switch ov := obs.Overlay(); {
	case strings.HasPrefix(ov, "dialog"):
		name = ov
	case ov == "menu":
		name += "-menu"
		if opener != "" {
			name += "-" + page.Slug(opener, 30)
		}
	}
	if filled {
		name += "-filled"
	}
	name = strings.Trim(name, "-")
	if name == "" {
		name = "page"
	}
	return name
}
