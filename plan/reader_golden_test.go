package plan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestReaderGolden records how the offline planner reads a large corpus of goals: every
// row's example, every idiom's example and what it means, the goals of the package's and
// the end-to-end tests (testdata/reader-goals.txt) and the MiniWoB++ instructions
// (testdata/miniwob-utterances.tsv). For each it writes the steps Parse makes, as JSON, or
// its refusal, and the parts ParseTarget, ParseMove, ParseCondition and ParseDuration read
// from them. A change to the reader shows as a change to testdata/reader.golden:
//
//	go test ./plan -run TestReaderGolden -update
func TestReaderGolden(t *testing.T) {
	var out bytes.Buffer
	for _, g := range readerCorpus(t) {
		writeReading(&out, g)
	}
	golden := filepath.Join("testdata", "reader.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read the golden file (make it with -update): %v", err)
	}
	if got := out.Bytes(); !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		shown := 0
		for i := 0; i < len(gl) || i < len(wl); i++ {
			g, w := lineAt(gl, i), lineAt(wl, i)
			if g != w && shown < 20 {
				t.Errorf("line %d:\n got %s\nwant %s", i+1, g, w)
				shown++
			}
		}
		t.Fatalf("the reader reads the corpus differently from %s (%d lines against %d)", golden, len(gl), len(wl))
	}
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "<none>"
}

// readerCorpus is every goal the golden file records, each once, in a fixed order.
func readerCorpus(t *testing.T) []string {
	t.Helper()
	var goals []string
	for _, r := range readings {
		goals = append(goals, r.examples...)
	}
	for _, id := range idioms {
		goals = append(goals, id.example, id.means)
	}
	for _, a := range unsupportedActions {
		goals = append(goals, a.example)
	}
	for _, r := range unquotedRules {
		goals = append(goals, "click "+r.example)
	}
	goals = append(goals, readLines(t, "reader-goals.txt", func(l string) string {
		s, err := strconv.Unquote(l)
		if err != nil {
			t.Fatalf("reader-goals.txt: %q: %v", l, err)
		}
		return s
	})...)
	goals = append(goals, readLines(t, "miniwob-utterances.tsv", func(l string) string {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 {
			t.Fatalf("miniwob-utterances.tsv: %q is not task, seed and instruction", l)
		}
		return f[2]
	})...)
	seen := map[string]bool{}
	var out []string
	for _, g := range goals {
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

func readLines(t *testing.T, name string, read func(string) string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			out = append(out, read(l))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// writeReading writes one goal's reading: its steps or its refusal, then what the other
// readers make of it and of each step's operands.
func writeReading(w *bytes.Buffer, goal string) {
	fmt.Fprintf(w, "== %q\n", goal)
	steps, err := Parse(goal)
	if err != nil {
		fmt.Fprintf(w, "error %s\n", err)
	}
	for _, s := range steps {
		b, _ := json.Marshal(schemaForm(s))
		fmt.Fprintf(w, "step %s\n", b)
		if s.TargetDescription != "" {
			writeJSON(w, "target "+strconv.Quote(s.TargetDescription), ParseTarget(s.TargetDescription))
		}
		if s.Action == Drag {
			m, ok := ParseMove(s.Operand())
			writeJSON(w, fmt.Sprintf("move %q %t", s.Operand(), ok), m)
		}
		if s.Condition != nil {
			c, err := ParseCondition(s.Condition.String())
			writeJSON(w, fmt.Sprintf("condition %q %v", s.Condition, err), c)
		}
		if s.Action == Wait && s.Operand() != "" {
			d, err := ParseDuration(s.Operand())
			fmt.Fprintf(w, "duration %q %v %v\n", s.Operand(), d, err)
		}
	}
	if parts, ok, err := Parallel(goal); ok {
		writeJSON(w, fmt.Sprintf("parallel %v", err), parts)
	}
	// The goal as a description, a value and a condition: the readers take text from the
	// model and from people too, not only what Parse gives them.
	writeJSON(w, "as target", ParseTarget(goal))
	if len(goal) <= 80 {
		m, ok := ParseMove(goal)
		writeJSON(w, fmt.Sprintf("as move %t", ok), m)
		c, err := ParseCondition(goal)
		writeJSON(w, fmt.Sprintf("as condition %v", err), c)
		d, err := ParseDuration(goal)
		fmt.Fprintf(w, "as duration %v %v\n", d, err)
	}
}

// schemaForm is a step as the core spec's schema writes it (one "value", one "when"): the
// form this record was first written in, before steps carried their operands typed.
func schemaForm(s Step) any {
	var when string
	if s.Condition != nil {
		when = s.Condition.String()
	}
	return struct {
		Step              int          `json:"step"`
		Action            Action       `json:"action"`
		TargetDescription string       `json:"target_description,omitempty"`
		Target            *Target      `json:"target,omitempty"`
		Value             string       `json:"value,omitempty"`
		When              string       `json:"when,omitempty"`
		Negated           bool         `json:"negated,omitempty"`
		SemanticRole      SemanticRole `json:"semantic_role,omitempty"`
		RequiredState     string       `json:"required_state,omitempty"`
		ExpectedOutcome   string       `json:"expected_outcome,omitempty"`
		AcceptDialog      bool         `json:"accept_dialog,omitempty"`
		AnswersDialog     bool         `json:"answers_dialog,omitempty"`
		RequiresApproval  bool         `json:"requires_approval,omitempty"`
		State             string       `json:"state,omitempty"`
	}{s.Step, s.Action, s.TargetDescription, s.Target, s.Operand(), when, s.Negated, s.SemanticRole,
		s.RequiredState, s.ExpectedOutcome, s.AcceptDialog, s.AnswersDialog, s.RequiresApproval, s.State}
}

func writeJSON(w *bytes.Buffer, label string, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s %s\n", label, b)
}
