package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// IsChromium says whether a process's command name is one of Chromium's (the browser, its
// renderers, its GPU and utility processes; the full browser or the headless shell).
func IsChromium(name string) bool {
	name = strings.ToLower(name)
	return strings.Contains(name, "chrom") || strings.Contains(name, "headless")
}

// Ticks is a CPU time from /proc, in clock ticks, as a duration (USER_HZ is 100 on Linux).
func Ticks(n int64) time.Duration { return time.Duration(n) * 10 * time.Millisecond }

// EachProcess calls fn with the /proc directory, the command name and the stat fields
// after the name (state, ppid, ...; utime is stat[11]) of every process on the machine.
// Outside Linux it calls nothing.
func EachProcess(fn func(dir, name string, stat []string)) {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // gone meanwhile
		}
		s := string(data)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		if stat := strings.Fields(s[end+1:]); len(stat) >= 20 {
			fn(filepath.Dir(f), s[open+1:end], stat)
		}
	}
}
