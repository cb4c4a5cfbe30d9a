package notify

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Normalize is raw in the one form the allow list is matched against and the post is
// sent to, or why it has none. A URL means the same thing to the receiver's server in
// every spelling Normalize accepts, and anything that could be read two ways is refused
// rather than guessed at: a string prefix let `/hooks/team-a/../../admin` and
// `/hooks/team-a/%2e%2e/x` past an allowed `/hooks/team-a`.
//
//   - only http and https, with a host and no credentials (`http://h@evil/` is refused);
//   - scheme and host lower-cased; a default port (80, 443) dropped, any other written
//     plainly (`:080` is `:80`, then dropped);
//   - only the characters RFC 3986 lets a URL hold: a space, a backslash, `|`, non-ASCII
//     and the like must come percent-encoded;
//   - in the path, an encoded unreserved character (`%41`, `%2e`) is decoded, any other
//     escape kept with upper-case hex; an encoded slash or backslash (`%2f`, `%5c`) or
//     control character is refused, since servers disagree on whether it splits a segment,
//     and so is an encoded percent sign (`%252e`), which one that decodes twice reads as a dot;
//   - a path with a dot segment (`.`, `..`, also `%2e%2e`, `..;x`) or an empty one (`//`)
//     is refused, not resolved: no webhook needs one, and refusing leaves nothing to
//     interpret;
//   - no fragment; the query is kept as written.
func Normalize(raw string) (*url.URL, error) {
	if len(raw) > 2000 {
		return nil, errors.New("it is longer than 2000 characters")
	}
	for i := 0; i < len(raw); i++ {
		if !urlChar(raw[i]) {
			return nil, fmt.Errorf("it holds %q, which a URL must percent-encode", raw[i])
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("it is not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errors.New("it is not an http(s) URL")
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, errors.New("it has no host")
	}
	if u.User != nil {
		return nil, errors.New("it has credentials")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return nil, errors.New("it has a fragment")
	}
	host, err := normalHost(u)
	if err != nil {
		return nil, err
	}
	p, err := normalPath(u.EscapedPath())
	if err != nil {
		return nil, err
	}
	out := &url.URL{Scheme: u.Scheme, Host: host, RawPath: p, RawQuery: u.RawQuery}
	if out.Path, err = url.PathUnescape(p); err != nil {
		return nil, errors.New("its path is not percent-encoded")
	}
	return out, nil
}

// ParseAllowed reads the operator's list of destinations: URLs separated by commas, each
// normalised as a run's URL is. An entry has no query: it allows any query, as the
// receiver's token often rides in one. A bad entry is an error naming it, so that the
// worker does not start with a list that means something else than it says.
func ParseAllowed(list string) ([]*url.URL, error) {
	var out []*url.URL
	for _, raw := range strings.Split(list, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		u, err := allowedEntry(raw)
		if err != nil {
			return nil, fmt.Errorf("entry %s: %w", redact(raw), err)
		}
		out = append(out, u)
	}
	return out, nil
}

// allowedEntry is an operator's entry normalised, with no query.
func allowedEntry(raw string) (*url.URL, error) {
	u, err := Normalize(raw)
	if err != nil {
		return nil, err
	}
	if u.RawQuery != "" || strings.Contains(raw, "?") {
		return nil, errors.New("it has a query (an allowed URL allows any query)")
	}
	return u, nil
}

// Within reports whether the normalised u is at or under the normalised allowed URL a:
// the same scheme, host and port, and a's path matched on whole segments, so that
// `/hooks/team-a` covers `/hooks/team-a` and `/hooks/team-a/x` but never `/hooks/team-abc`.
// A trailing slash on a changes nothing; a's path `/` covers the whole host.
func Within(u, a *url.URL) bool {
	if u.Scheme != a.Scheme || u.Host != a.Host {
		return false
	}
	ap := strings.TrimSuffix(a.EscapedPath(), "/")
	p := u.EscapedPath()
	return p == ap || strings.HasPrefix(p, ap+"/")
}

// normalHost is u's host lower-cased, with its port written plainly and a default one
// dropped.
func normalHost(u *url.URL) (string, error) {
	host := strings.ToLower(u.Hostname())
	if host == "" || strings.Contains(host, "%") {
		return "", errors.New("it has no plain host")
	}
	port := u.Port()
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("its port %q is not one", port)
		}
		port = strconv.Itoa(n)
		if (u.Scheme == "http" && n == 80) || (u.Scheme == "https" && n == 443) {
			port = ""
		}
	}
	if port != "" {
		return net.JoinHostPort(host, port), nil
	}
	if strings.Contains(host, ":") {
		return "[" + host + "]", nil
	}
	return host, nil
}

// normalPath is the escaped path with unreserved characters decoded and other escapes in
// upper case, or why it is refused.
func normalPath(esc string) (string, error) {
	if esc == "" {
		return "/", nil
	}
	if esc[0] != '/' {
		return "", errors.New("its path is not absolute")
	}
	var b strings.Builder
	for i := 0; i < len(esc); i++ {
		c := esc[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(esc) {
			return "", errors.New("its path is not percent-encoded")
		}
		n, err := strconv.ParseUint(esc[i+1:i+3], 16, 8)
		if err != nil {
			return "", errors.New("its path is not percent-encoded")
		}
		switch v := byte(n); {
		case v == '/' || v == '\\':
			return "", errors.New("its path has an encoded slash or backslash")
		case v == '%':
			// A server or proxy that decodes twice would read %252e as a dot.
			return "", errors.New("its path has an encoded percent sign")
		case v < 0x20 || v == 0x7f:
			return "", errors.New("its path has an encoded control character")
		case unreserved(v):
			b.WriteByte(v)
		default:
			fmt.Fprintf(&b, "%%%02X", v)
		}
		i += 2
	}
	p := b.String()
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		if s == "" && i < len(segs)-1 {
			return "", errors.New("its path has an empty segment (//)")
		}
		// A segment of dots only, alone or before ";" parameters, is one some
		// server treats as a step up ("..;" in Java containers, "..." in Windows).
		if name, _, _ := strings.Cut(s, ";"); name != "" && strings.Trim(name, ".") == "" {
			return "", errors.New("its path has a dot segment")
		}
	}
	return p, nil
}

// unreserved: RFC 3986's characters that mean the same encoded or not.
func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// urlChar: the characters RFC 3986 lets a URL hold as written (unreserved, reserved and
// the percent sign of an escape).
func urlChar(c byte) bool {
	return unreserved(c) || c == '%' || strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0
}
