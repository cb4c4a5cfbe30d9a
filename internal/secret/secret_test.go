package secret

import (
	"encoding/base32"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func grants(t *testing.T, js string) *Vault {
	t.Helper()
	v, err := Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestReveal(t *testing.T) {
	t.Setenv("WEBAGENT_TEST_SECRET", "s3cret")
	file := filepath.Join(t.TempDir(), "pin")
	if err := os.WriteFile(file, []byte("1234\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v := grants(t, `{
		"pw":  {"from": "env:WEBAGENT_TEST_SECRET", "sites": ["shop.example.com"]},
		"pin": {"from": "file:`+file+`", "sites": ["http://127.0.0.1:8090", "https://bank.example"]}
	}`)
	for _, tc := range []struct {
		use  Use
		at   string
		want string // the value, or part of the refusal
		ok   bool
	}{
		{Use{Name: "pw"}, "https://shop.example.com/login", "s3cret", true},
		{Use{Name: "pw"}, "http://eu.shop.example.com:8080/login", "s3cret", true},
		{Use{Name: "pw"}, "https://shop.example.com.evil.com/", "may be typed only on shop.example.com", false},
		{Use{Name: "pw"}, "https://evilshop.example.com/", "may be typed only on", false},
		{Use{Name: "pw"}, "https://evil.example/?u=https://shop.example.com", "this field is on https://evil.example", false},
		{Use{Name: "pw"}, "about:blank", "may be typed only on", false},
		{Use{Name: "pin"}, "http://127.0.0.1:8090/lab/signin", "1234", true},
		{Use{Name: "pin"}, "http://127.0.0.1:8091/lab/signin", "may be typed only on", false},
		{Use{Name: "pin"}, "https://127.0.0.1:8090/", "may be typed only on", false},
		{Use{Name: "pin"}, "https://bank.example/", "1234", true},
		{Use{Name: "pin"}, "https://www.bank.example:443/", "1234", true},
		{Use{Name: "pin"}, "http://bank.example/", "may be typed only on", false},
		{Use{Name: "nope"}, "https://shop.example.com/", `grants no secret "nope"`, false},
		{Use{Name: "pw", TOTP: true}, "https://shop.example.com/", "is not a TOTP seed", false},
	} {
		got, err := v.Reveal(tc.use, tc.at)
		switch {
		case tc.ok && (err != nil || got != tc.want):
			t.Errorf("Reveal(%s, %s) = %q, %v; want %q", tc.use, tc.at, got, err, tc.want)
		case !tc.ok && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Reveal(%s, %s) = %q, %v; want a refusal saying %q", tc.use, tc.at, got, err, tc.want)
		case !tc.ok && (strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "1234")):
			t.Errorf("Reveal(%s, %s): the refusal holds the value: %v", tc.use, tc.at, err)
		}
	}
	if err := v.Check([]Use{{Name: "pw"}, {Name: "pin"}}); err != nil {
		t.Errorf("Check of granted secrets: %v", err)
	}
	if err := v.Check([]Use{{Name: "pw"}, {Name: "GEMINI_API_KEY"}}); err == nil || !strings.Contains(err.Error(), `grants no secret "GEMINI_API_KEY"`) {
		t.Errorf("Check of a name not granted: %v", err)
	}
	if err := (*Vault)(nil).Check([]Use{{Name: "pw"}}); err == nil {
		t.Error("a worker with no grants served a secret")
	}
	names := v.Names()
	if len(names) != 2 || names[0].Name != "pin" || names[1].Name != "pw" || names[1].Sites[0] != "shop.example.com" {
		t.Errorf("Names() = %+v", names)
	}
}

// A mistake in the grants is found when the worker starts, says which secret and what
// to write, and holds nothing of a value.
func TestParseRefuses(t *testing.T) {
	t.Setenv("WEBAGENT_TEST_SECRET", "hunter2!")
	for js, msg := range map[string]string{
		`{"pw": {"from": "hunter2", "sites": ["a.example"]}}`:                                `"from" is env:VARIABLE`,
		`{"pw": {"from": "vault:kv/x", "sites": ["a.example"]}}`:                             `"from" is env:VARIABLE`,
		`{"pw": {"from": "env:WEBAGENT_TEST_SECRET"}}`:                                       `"sites" is empty`,
		`{"pw": {"from": "env:WEBAGENT_TEST_SECRET", "sites": ["https://a.example/x"]}}`:     `site "https://a.example/x"`,
		`{"pw": {"from": "env:WEBAGENT_TEST_SECRET", "sites": ["*.a.example"]}}`:             `site "*.a.example"`,
		`{"pw": {"from": "env:WEBAGENT_NO_SUCH", "sites": ["a.example"]}}`:                   "has no WEBAGENT_NO_SUCH",
		`{"pw": {"from": "file:/no/such/file", "sites": ["a.example"]}}`:                     "no such file",
		`{"pw": {"from": "env:WEBAGENT_TEST_SECRET", "sites": ["a.example"], "totp": true}}`: "not a TOTP seed",
		`{"bad name": {"from": "env:WEBAGENT_TEST_SECRET", "sites": ["a.example"]}}`:         "use letters",
		`{"pw": {"from": "env:WEBAGENT_TEST_SECRET", "site": ["a.example"]}}`:                "not JSON of the form",
		`["pw"]`: "not JSON of the form",
	} {
		_, err := Parse([]byte(js))
		if err == nil || !strings.Contains(err.Error(), msg) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Parse(%s): %v, want an error saying %q and nothing of a value", js, err, msg)
		}
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("WEBAGENT_TEST_SECRET", "x")
	t.Setenv(Env, "")
	if v, err := FromEnv(); err != nil || len(v.Names()) != 0 {
		t.Errorf("unset: %v, %v", v.Names(), err)
	}
	file := filepath.Join(t.TempDir(), "secrets.json")
	if err := os.WriteFile(file, []byte(`{"pw": {"from": "env:WEBAGENT_TEST_SECRET", "sites": ["a.example"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, val := range []string{file, `{"pw": {"from": "env:WEBAGENT_TEST_SECRET", "sites": ["a.example"]}}`} {
		t.Setenv(Env, val)
		if v, err := FromEnv(); err != nil || len(v.Names()) != 1 {
			t.Errorf("%s: %v, %v", val, v.Names(), err)
		}
	}
	t.Setenv(Env, "/no/such/secrets.json")
	if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
}

// The test vectors of RFC 6238, appendix B.
func TestTOTP(t *testing.T) {
	keys := map[string]string{
		"SHA1":   "12345678901234567890",
		"SHA256": "12345678901234567890123456789012",
		"SHA512": "1234567890123456789012345678901234567890123456789012345678901234",
	}
	vectors := []struct {
		at   int64
		want map[string]string
	}{
		{59, map[string]string{"SHA1": "94287082", "SHA256": "46119246", "SHA512": "90693936"}},
		{1111111109, map[string]string{"SHA1": "07081804", "SHA256": "68084774", "SHA512": "25091201"}},
		{1234567890, map[string]string{"SHA1": "89005924", "SHA256": "91819424", "SHA512": "93441116"}},
		{2000000000, map[string]string{"SHA1": "69279037", "SHA256": "90698825", "SHA512": "38618901"}},
		{20000000000, map[string]string{"SHA1": "65353130", "SHA256": "77737706", "SHA512": "47863826"}},
	}
	for alg, key := range keys {
		b32 := base32.StdEncoding.EncodeToString([]byte(key))
		s, err := parseSeed("otpauth://totp/Example:ada?secret=" + url.QueryEscape(b32) + "&algorithm=" + alg + "&digits=8&period=30")
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vectors {
			if got := s.code(time.Unix(v.at, 0)); got != v.want[alg] {
				t.Errorf("%s at %d: %s, want %s", alg, v.at, got, v.want[alg])
			}
		}
	}
	// A bare seed as apps show it: lower case, in groups, no padding; 6 digits.
	s, err := parseSeed("gezd gnbv gy3t qojq gezd gnbv gy3t qojq")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.code(time.Unix(59, 0)); got != "287082" {
		t.Errorf("6 digits at 59: %s, want 287082", got)
	}
	for _, bad := range []string{"not base32!", "otpauth://hotp/x?secret=GEZDGNBV", "otpauth://totp/x?secret=GEZDGNBV&algorithm=MD5", "otpauth://totp/x?secret=GEZDGNBV&digits=4", ""} {
		if _, err := parseSeed(bad); err == nil {
			t.Errorf("parseSeed(%q) accepted", bad)
		}
	}
}

// {{totp:name}} types the current code on the seed's sites; the seed itself is never typed.
func TestRevealTOTP(t *testing.T) {
	t.Setenv("WEBAGENT_TEST_SEED", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
	v := grants(t, `{"otp": {"from": "env:WEBAGENT_TEST_SEED", "sites": ["bank.example"], "totp": true}}`)
	v.now = func() time.Time { return time.Unix(59, 0) }
	if got, err := v.Reveal(Use{Name: "otp", TOTP: true}, "https://bank.example/2fa"); err != nil || got != "287082" {
		t.Errorf("the code: %q, %v", got, err)
	}
	if got, err := v.Reveal(Use{Name: "otp"}, "https://bank.example/2fa"); err == nil || strings.Contains(err.Error(), "GEZD") {
		t.Errorf("the seed typed as a secret: %q, %v", got, err)
	}
	if _, err := v.Reveal(Use{Name: "otp", TOTP: true}, "https://evil.example/"); err == nil {
		t.Error("a code typed on another site")
	}
}

// Values gives the browser what to recognise of the secrets a run names, and only those.
func TestValues(t *testing.T) {
	t.Setenv("WEBAGENT_TEST_SECRET", "s3cret")
	t.Setenv("WEBAGENT_TEST_OTHER", "other-value")
	v := grants(t, `{
		"pw":    {"from": "env:WEBAGENT_TEST_SECRET", "sites": ["shop.example.com"]},
		"other": {"from": "env:WEBAGENT_TEST_OTHER", "sites": ["shop.example.com"]}
	}`)
	got := v.Values([]Use{{Name: "pw"}, {Name: "none"}, {Name: "pw", TOTP: true}})
	if len(got) != 1 || got[0] != "s3cret" {
		t.Errorf("Values = %q, want only the named, granted secret", got)
	}
}
