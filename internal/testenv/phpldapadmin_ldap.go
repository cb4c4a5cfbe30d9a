package testenv

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// LDAPEntry is one entry of the directory as ldapsearch prints it: its DN and its user
// attributes (not the server's operational ones), each named in lower case, with its
// values in the order the server keeps them.
type LDAPEntry struct {
	DN    string
	Attrs map[string][]string
}

// Values are the values of the attribute attr (named in any case); nil when the entry
// has none.
func (e LDAPEntry) Values(attr string) []string { return e.Attrs[strings.ToLower(attr)] }

// String is the entry as `dn: attr=[values] ...`, the attributes in name order, for a
// judge's answer.
func (e LDAPEntry) String() string {
	names := make([]string, 0, len(e.Attrs))
	for k := range e.Attrs {
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString(e.DN + ":")
	for _, k := range names {
		fmt.Fprintf(&b, " %s=%q", k, e.Attrs[k])
	}
	return b.String()
}

// LDAPKey is a DN as the judges key entries: each RDN's attribute and value trimmed of
// the spaces around them, all in lower case (as the directory compares these names).
func LDAPKey(dn string) string {
	rdns := strings.Split(dn, ",")
	for i, rdn := range rdns {
		attr, value, _ := strings.Cut(rdn, "=")
		rdns[i] = strings.ToLower(strings.TrimSpace(attr)) + "=" + strings.ToLower(strings.TrimSpace(value))
	}
	return strings.Join(rdns, ",")
}

// LDAPParent is the key of the entry a DN is directly under ("" for a DN of one RDN).
func LDAPParent(dn string) string {
	key := LDAPKey(dn)
	if _, parent, ok := strings.Cut(key, ","); ok {
		return parent
	}
	return ""
}

// ldapClient runs one of OpenLDAP's clients (ldapadd, ldapsearch, ...) against the
// instance's server, bound as its admin, with stdin as its input; the system's ldap.conf
// is not read.
func (p *PhpLDAPadmin) ldapClient(tool, stdin string, args ...string) ([]byte, error) {
	cmd := exec.Command(tool, append([]string{"-x", "-H", p.LDAP, "-D", p.Login, "-w", p.Password}, args...)...)
	cmd.Env = append(os.Environ(), "LDAPNOINIT=1")
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return append(out, stderr.Bytes()...), fmt.Errorf("%s: %v: %s", tool, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// Entries reads the whole directory back with ldapsearch — every entry under the suffix
// with its user attributes — keyed by LDAPKey of its DN.
func (p *PhpLDAPadmin) Entries() (map[string]LDAPEntry, error) {
	out, err := p.ldapClient("ldapsearch", "", "-LLL", "-o", "ldif-wrap=no", "-b", PhpLDAPadminBase, "-s", "sub", "(objectClass=*)")
	if err != nil {
		return nil, err
	}
	entries, err := ParseLDIF(string(out))
	if err != nil {
		return nil, err
	}
	byKey := map[string]LDAPEntry{}
	for _, e := range entries {
		byKey[LDAPKey(e.DN)] = e
	}
	return byKey, nil
}

// Entry is the entry at dn, read from the directory; false when there is none (or the
// directory could not be read).
func (p *PhpLDAPadmin) Entry(dn string) (LDAPEntry, bool) {
	all, err := p.Entries()
	if err != nil {
		return LDAPEntry{}, false
	}
	e, ok := all[LDAPKey(dn)]
	return e, ok
}

// ParseLDIF reads the entries of LDIF content (as ldapsearch -LLL prints it): records
// apart by blank lines, lines folded by a leading space, comments, and values given in
// base64 after "::".
func ParseLDIF(text string) ([]LDAPEntry, error) {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(l, " ") && len(lines) > 0 && lines[len(lines)-1] != "" {
			lines[len(lines)-1] += l[1:]
			continue
		}
		lines = append(lines, l)
	}
	var entries []LDAPEntry
	var cur *LDAPEntry
	for _, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if strings.TrimSpace(l) == "" {
			cur = nil
			continue
		}
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			return nil, fmt.Errorf("LDIF: a line without a colon: %q", l)
		}
		if strings.HasPrefix(value, ":") {
			b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(value[1:]))
			if err != nil {
				return nil, fmt.Errorf("LDIF: %s: %v", name, err)
			}
			value = string(b)
		} else {
			value = strings.TrimPrefix(value, " ")
		}
		if cur == nil {
			if !strings.EqualFold(name, "dn") {
				return nil, fmt.Errorf("LDIF: a record begins with %q, not dn", name)
			}
			entries = append(entries, LDAPEntry{DN: value, Attrs: map[string][]string{}})
			cur = &entries[len(entries)-1]
			continue
		}
		name = strings.ToLower(name)
		cur.Attrs[name] = append(cur.Attrs[name], value)
	}
	return entries, nil
}
