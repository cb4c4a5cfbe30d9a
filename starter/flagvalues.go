package main

import (
	"fmt"
	"strings"
	"time"
)

// params collects repeated --param name=value flags.
type params map[string]string

func (p params) String() string { return fmt.Sprint(map[string]string(p)) }

func (p params) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("%q is not name=value", v)
	}
	p[strings.TrimSpace(name)] = value
	return nil
}

// domains collects repeated --allow-domain flags.
type domains []string

func (d *domains) String() string     { return strings.Join(*d, ",") }
func (d *domains) Set(v string) error { *d = append(*d, v); return nil }

// personWait is a wait for a person given on the command line. Zero in the run's limits
// takes the default, so a flag that says 0 would silently wait the default: it is refused.
type personWait struct {
	d    *time.Duration
	name string
}

func (w personWait) String() string {
	if w.d == nil || *w.d == 0 {
		return ""
	}
	return w.d.String()
}

func (w personWait) Set(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("%q is not a duration such as 30s or 5m", v)
	}
	if d <= 0 {
		return fmt.Errorf("--%s must be more than 0 (0 would be read as the default wait): to never wait for a person, give --unattended instead", w.name)
	}
	*w.d = d
	return nil
}
