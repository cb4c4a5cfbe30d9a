package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// DecapPost is one post of the seed: content/posts/SLUG.md, its front matter and body as
// Decap CMS writes them.
type DecapPost struct {
	Slug, Title, Date string
	Tags              []string
	Draft             bool
	Body              string
}

// DecapAuthor is one author of the seed: content/authors/SLUG.yml.
type DecapAuthor struct{ Slug, Name, Email, Bio string }

// DecapSeedPosts are a gardening blog's posts, several with near-identical titles (two
// "Spring Garden" posts, two "… Garden Tips", two "Autumn P… Guide", two compost posts) so
// that a goal's near miss is one click away; one is a draft already.
var DecapSeedPosts = []DecapPost{
	{"spring-garden-tips", "Spring Garden Tips", "2024-03-04T09:00:00.000Z", []string{"spring", "garden"}, false,
		"Start your seedlings indoors six weeks before the last frost."},
	{"spring-garden-tour", "Spring Garden Tour", "2024-04-12T10:30:00.000Z", []string{"spring", "events"}, false,
		"Join us for a walk through the community garden on the first Saturday of May."},
	{"summer-garden-tips", "Summer Garden Tips", "2024-06-02T08:00:00.000Z", []string{"summer", "garden"}, false,
		"Water early in the morning and mulch the beds to keep the soil cool."},
	{"autumn-planting-guide", "Autumn Planting Guide", "2024-09-15T09:00:00.000Z", []string{"autumn", "planting"}, false,
		"Garlic, tulips and broad beans all go in before the ground freezes."},
	{"autumn-pruning-guide", "Autumn Pruning Guide", "2024-10-03T09:00:00.000Z", []string{"autumn", "pruning"}, false,
		"Cut back perennials once they have died down, but leave the seed heads for the birds."},
	{"composting-for-beginners", "Composting for Beginners", "2024-02-10T12:00:00.000Z", []string{"compost", "beginners"}, false,
		"Mix green and brown material, keep the heap moist and turn it every few weeks."},
	{"compost-tea-recipes", "Compost Tea Recipes", "2024-05-20T12:00:00.000Z", []string{"compost"}, false,
		"Steep a shovel of finished compost in a bucket of rain water for two days."},
	{"winter-seed-catalog-picks", "Winter Seed Catalog Picks", "2024-12-01T09:00:00.000Z", []string{"winter", "seeds"}, true,
		"The varieties we are ordering for next year."},
}

// DecapSeedAuthors are the blog's authors, two with near-identical names.
var DecapSeedAuthors = []DecapAuthor{
	{"maria-lopez", "Maria Lopez", "maria@greenthumb.example", "Grows vegetables on a city allotment."},
	{"mario-rossi", "Mario Rossi", "mario@greenthumb.example", "Keeps bees and writes about pollinators."},
	{"anna-berg", "Anna Berg", "anna@greenthumb.example", "Our compost expert."},
}

// DecapSeedSettings are the site settings (data/settings.yml), in the file's order.
var DecapSeedSettings = [][2]string{
	{"site_title", "Green Thumb Notes"},
	{"tagline", "Notes from a small garden"},
	{"description", "A small blog about gardening, composting and the seasons."},
}

// DecapPostFile is a post's file content as Decap CMS writes it: YAML front matter (title,
// date, tags as a block list, draft) and the Markdown body.
func DecapPostFile(p DecapPost) string {
	var b strings.Builder
	b.WriteString("---\ntitle: " + decapYAML(p.Title) + "\n")
	if p.Date != "" {
		b.WriteString("date: " + p.Date + "\n")
	}
	if len(p.Tags) > 0 {
		b.WriteString("tags:\n")
		for _, tag := range p.Tags {
			b.WriteString("  - " + decapYAML(tag) + "\n")
		}
	}
	if p.Draft {
		b.WriteString("draft: true\n")
	} else {
		b.WriteString("draft: false\n")
	}
	b.WriteString("---\n" + p.Body + "\n")
	return b.String()
}

// DecapAuthorFile is an author's file content as Decap CMS writes it (YAML).
func DecapAuthorFile(a DecapAuthor) string {
	s := "name: " + decapYAML(a.Name) + "\nemail: " + decapYAML(a.Email) + "\n"
	if a.Bio != "" {
		s += "bio: " + decapYAML(a.Bio) + "\n"
	}
	return s
}

// DecapSettingsFile is data/settings.yml with the given values (DecapSeedSettings's keys,
// in their order).
func DecapSettingsFile(values map[string]string) string {
	var b strings.Builder
	for _, kv := range DecapSeedSettings {
		b.WriteString(kv[0] + ": " + decapYAML(values[kv[0]]) + "\n")
	}
	return b.String()
}

// decapYAML writes a plain string as a YAML scalar as js-yaml (which Decap CMS writes
// with) does: as it is, or single-quoted when YAML would read it as something else.
func decapYAML(s string) string {
	special := s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`0123456789") ||
		strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":")
	if special || map[string]bool{"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
		"null": true, "~": true}[strings.ToLower(s)] {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// decapSeedRepo makes the site's git repository at dir: branch main, its own committer,
// the seed's files (DecapSeedPosts, DecapSeedAuthors, DecapSeedSettings and a README) in
// one commit.
func decapSeedRepo(t testing.TB, dir string) {
	t.Helper()
	files := map[string]string{
		"README.md":         "# Green Thumb Notes\n\nThe content of the Green Thumb Notes blog, edited with Decap CMS.\n",
		"data/settings.yml": DecapSettingsFile(decapSeedSettingsMap()),
	}
	for _, p := range DecapSeedPosts {
		files["content/posts/"+p.Slug+".md"] = DecapPostFile(p)
	}
	for _, a := range DecapSeedAuthors {
		files["content/authors/"+a.Slug+".yml"] = DecapAuthorFile(a)
	}
	for path, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, full, text)
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.name", "Decap CMS"},
		{"config", "user.email", "cms@greenthumb.example"},
		{"config", "commit.gpgsign", "false"},
		{"add", "-A"},
		{"commit", "-q", "-m", "Initial content"},
	} {
		decapGit(t, dir, args...)
	}
}

// decapSeedSettingsMap is DecapSeedSettings as a map.
func decapSeedSettingsMap() map[string]string {
	m := map[string]string{}
	for _, kv := range DecapSeedSettings {
		m[kv[0]] = kv[1]
	}
	return m
}

// decapGit runs git in the repository dir with no configuration but the repository's, and
// returns what it printed; a failure fails the test.
func decapGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := decapGitOutput(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// decapGitOutput runs git in dir (its own configuration only) and returns its output.
func decapGitOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "LANG=C.UTF-8", "TZ=UTC"}
	out, err := cmd.CombinedOutput()
	return string(out), err
}
