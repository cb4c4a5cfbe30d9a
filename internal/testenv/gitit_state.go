package testenv

import (
	"bufio"
	"bytes"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// GititState is what the judges compare of a Gitit, by kind, its rows by key:
//
//	file  a file of the repository's last commit (HEAD) by its path ("Coffee Machine.page",
//	      "holiday-calendar-2025.csv") → its text
//	user  an account of the users file by its name → "email=…; hash=…" (its salted
//	      password hash, so that a changed password shows)
type GititState map[string]map[string]string

// git runs git in the instance's repository and returns what it printed, failing the test
// when it fails.
func (w *Gitit) git(t testing.TB, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", w.Repo}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
	cmd.Stdin = strings.NewReader(stdin)
	var errs bytes.Buffer
	cmd.Stderr = &errs
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gitit: git %s: %v\n%s", strings.Join(args, " "), err, errs.String())
	}
	return string(out)
}

// Files is every file of the repository's last commit, by path, with its text: the
// tree's blobs read in one `git cat-file --batch`.
func (w *Gitit) Files(t testing.TB) map[string]string {
	t.Helper()
	var paths, blobs []string
	for _, entry := range strings.Split(w.git(t, "", "ls-tree", "-r", "-z", "HEAD"), "\x00") {
		meta, path, ok := strings.Cut(entry, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" {
			paths, blobs = append(paths, path), append(blobs, f[2])
		}
	}
	files := map[string]string{}
	r := bufio.NewReader(strings.NewReader(w.git(t, strings.Join(blobs, "\n")+"\n", "cat-file", "--batch")))
	for _, path := range paths {
		header, err := r.ReadString('\n')
		f := strings.Fields(header)
		if err != nil || len(f) != 3 {
			t.Fatalf("gitit: git cat-file said %q for %s: %v", header, path, err)
		}
		size, _ := strconv.Atoi(f[2])
		body := make([]byte, size+1) // the text and the newline after it
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatalf("gitit: read %s from git cat-file: %v", path, err)
		}
		files[path] = string(body[:size])
	}
	return files
}

// PageFile is the file a page is kept in: its name and Gitit's default extension.
func PageFile(page string) string { return page + ".page" }

// PageText is page's text in the repository's last commit, and whether it is there.
func (w *Gitit) PageText(t testing.TB, page string) (string, bool) {
	t.Helper()
	text, ok := w.Files(t)[PageFile(page)]
	return text, ok
}

// GititChange is one commit that touched a file: its author's name and its message (the
// description of changes typed into the edit form).
type GititChange struct{ Author, Message string }

// Changes are the commits that touched path, newest first.
func (w *Gitit) Changes(t testing.TB, path string) []GititChange {
	t.Helper()
	var out []GititChange
	for _, rec := range strings.Split(w.git(t, "", "log", "-z", "--format=%an%x01%B", "--", path), "\x00") {
		if author, msg, ok := strings.Cut(rec, "\x01"); ok {
			out = append(out, GititChange{author, strings.TrimSpace(msg)})
		}
	}
	return out
}

// gititUser is one account as Gitit's users file writes it (Haskell's show of its list of
// (name, User) pairs).
var gititUser = regexp.MustCompile(`\("((?:[^"\\]|\\.)*)",User \{uUsername = "(?:[^"\\]|\\.)*", uPassword = Password \{pSalt = "((?:[^"\\]|\\.)*)", pHashed = "([0-9a-f]*)"\}, uEmail = "((?:[^"\\]|\\.)*)"\}\)`)

// gititAccount is one account of the users file: its salt and hash, its email.
type gititAccount struct{ salt, hash, email string }

// accounts reads the users file: each account by its name.
func (w *Gitit) accounts(t testing.TB) map[string]gititAccount {
	t.Helper()
	data, err := os.ReadFile(w.Users)
	if err != nil {
		t.Fatalf("gitit: read the users file: %v", err)
	}
	out := map[string]gititAccount{}
	for _, m := range gititUser.FindAllStringSubmatch(string(data), -1) {
		out[gititUnquote(m[1])] = gititAccount{gititUnquote(m[2]), m[3], gititUnquote(m[4])}
	}
	if n := strings.Count(string(data), "User {"); n != len(out) {
		t.Fatalf("gitit: the users file has %d accounts but %d were read: %s", n, len(out), data)
	}
	return out
}

// gititUnquote is a Haskell string literal's text: its escapes (\\, \", \n, \DDD…) read as
// Go's strconv reads them, Haskell's decimal escapes and the empty escape \& aside.
func gititUnquote(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case c == '&':
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n, _ := strconv.Atoi(s[i:j])
			b.WriteRune(rune(n))
			i = j - 1
		case c == 'n':
			b.WriteByte('\n')
		case c == 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// PasswordIs says whether user's stored hash is password's: the SHA-512 of its salt and
// the password, as Gitit checks a password.
func (w *Gitit) PasswordIs(t testing.TB, user, password string) bool {
	t.Helper()
	a, ok := w.accounts(t)[user]
	if !ok {
		return false
	}
	sum := sha512.Sum512([]byte(a.salt + password))
	return hex.EncodeToString(sum[:]) == a.hash
}

// State reads the repository's last commit and the users file now.
func (w *Gitit) State(t testing.TB) GititState {
	t.Helper()
	s := GititState{"file": w.Files(t), "user": map[string]string{}}
	for name, a := range w.accounts(t) {
		s["user"][name] = fmt.Sprintf("email=%s; hash=%s", a.email, a.hash)
	}
	return s
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *Gitit) Seed() GititState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s GititState) Clone() GititState {
	c := GititState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each file or account missing,
// extra or different.
func (s GititState) Diff(want GititState) string {
	return IcingaWebState(s).Diff(IcingaWebState(want))
}

// Differs says how the instance's storage differs from want ("" when it holds exactly
// that).
func (w *Gitit) Differs(t testing.TB, want GititState) string {
	t.Helper()
	return w.State(t).Diff(want)
}
