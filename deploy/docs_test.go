package deploy_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docPages are the README and every page under docs/.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pages {
		pages[i], _ = filepath.Rel(root, p)
	}
	return append([]string{"README.md"}, pages...)
}

// withoutCode blanks fenced and indented code blocks, and (unless keepSpans) inline code
// spans, so that what they show is never taken for a link or a heading.
func withoutCode(text string, keepSpans bool) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			fenced = !fenced
			out = append(out, "")
		case fenced, strings.HasPrefix(line, "    ") && !strings.HasPrefix(trimmed, "-"):
			out = append(out, "")
		case keepSpans:
			out = append(out, line)
		default:
			out = append(out, inlineCode.ReplaceAllString(line, "``"))
		}
	}
	return out
}

var (
	inlineCode = regexp.MustCompile("`[^`]*`")
	heading    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	// [text](target) and ![alt](target); the target ends at a space (a title) or ")".
	link = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
)

// slug is the anchor GitHub gives a heading: lower case, punctuation dropped, spaces as
// hyphens.
func slug(h string) string {
	h = strings.ToLower(strings.ReplaceAll(h, "`", ""))
	var b strings.Builder
	for _, r := range h {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// anchors are the slugs of a page's headings, repeated ones numbered as GitHub does.
func anchors(t *testing.T, page string) map[string]bool {
	t.Helper()
	seen := map[string]int{}
	out := map[string]bool{}
	for _, line := range withoutCode(read(t, page), true) {
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// TestDocsLinks checks every relative link of the README and the docs/ pages: its file
// exists, and a #anchor names a heading of that file.
func TestDocsLinks(t *testing.T) {
	pages := docPages(t)
	if len(pages) < 2 {
		t.Fatal("no pages under docs/")
	}
	fromReadme := map[string]bool{}
	for _, page := range pages {
		for n, line := range withoutCode(read(t, page), false) {
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				dest := page
				if file != "" {
					dest = filepath.Join(filepath.Dir(page), file)
				}
				if page == "README.md" {
					fromReadme[filepath.ToSlash(dest)] = true
				}
				if _, err := os.Stat(filepath.Join(root, dest)); err != nil {
					t.Errorf("%s:%d: %s: %s does not exist", page, n+1, target, dest)
					continue
				}
				if anchor != "" && strings.HasSuffix(dest, ".md") && !anchors(t, dest)[anchor] {
					t.Errorf("%s:%d: %s: %s has no heading #%s", page, n+1, target, dest, anchor)
				}
			}
		}
	}
	// A reader finds every page from the README.
	for _, page := range pages[1:] {
		if !fromReadme[filepath.ToSlash(page)] {
			t.Errorf("the README does not link %s", page)
		}
	}
}

func TestSlug(t *testing.T) {
	for h, want := range map[string]string{
		"The Web UI's list":                              "the-web-uis-list",
		"From the `temporal` CLI or the Web UI":          "from-the-temporal-cli-or-the-web-ui",
		"Skills: learn once, replay cheaply":             "skills-learn-once-replay-cheaply",
		"Measured on pages nobody here wrote: MiniWoB++": "measured-on-pages-nobody-here-wrote-miniwob",
	} {
		if got := slug(h); got != want {
			t.Errorf("slug(%q) = %q, want %q", h, got, want)
		}
	}
}
