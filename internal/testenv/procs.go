package testenv

import (
	"os"
	"path/filepath"
	"strings"
)

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
