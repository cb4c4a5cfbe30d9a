package testenv

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"time"
)

// ircAskers numbers the passers-by ircAsk sends, so that each has a nick of its own.
var ircAskers atomic.Int64

// ircAsk connects to the private ngircd on port as a passer-by (a nick of its own, joining
// nothing, so that no channel sees it come or go), asks for the channels' LIST (its
// topics: TOPIC answers members only) and each one's NAMES, and quits. It returns each channel's topic ("" for none) and its members as NAMES lists them
// (space-separated, without their @ or + prefixes).
func ircAsk(port int, channels []TheLoungeChannel) (topics, names map[string]string, err error) {
	c, err := net.DialTimeout("tcp", Addr(port), 3*time.Second)
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	nick := fmt.Sprintf("judge%d", ircAskers.Add(1))
	fmt.Fprintf(c, "NICK %s\r\nUSER judge 0 * :The harness's judge\r\n", nick)
	topics, names = map[string]string{}, map[string]string{}
	r := bufio.NewReader(c)
	asked, answered := false, 0
	for answered < len(channels) {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, nil, fmt.Errorf("%v (answered %d of %d channels)", err, answered, len(channels))
		}
		f := ircFields(strings.TrimRight(line, "\r\n"))
		switch {
		case len(f) >= 2 && f[0] == "PING":
			fmt.Fprintf(c, "PONG :%s\r\n", f[1])
		case len(f) >= 2 && (f[1] == "001" || f[1] == "376" || f[1] == "422") && !asked:
			// Registered: ask about every channel at once.
			asked = true
			var list []string
			for _, ch := range channels {
				list = append(list, ch.Name)
			}
			fmt.Fprintf(c, "LIST %s\r\n", strings.Join(list, ","))
			for _, ch := range channels {
				fmt.Fprintf(c, "NAMES %s\r\n", ch.Name)
			}
		case len(f) >= 6 && f[1] == "322":
			topics[f[3]] = f[5]
		case len(f) >= 6 && f[1] == "353":
			for _, n := range strings.Fields(f[5]) {
				names[f[4]] = strings.TrimSpace(names[f[4]] + " " + strings.TrimLeft(n, "@+%~&"))
			}
		case len(f) >= 4 && f[1] == "366":
			answered++
		case len(f) >= 2 && (f[1] == "432" || f[1] == "433" || f[0] == "ERROR"):
			return nil, nil, fmt.Errorf("ngircd refused the judge: %s", line)
		}
	}
	fmt.Fprintf(c, "QUIT :done\r\n")
	return topics, names, nil
}

// ircFields splits an IRC line into its prefix (":server", kept as the first field),
// command, middle parameters and trailing parameter (after " :", kept whole).
func ircFields(line string) []string {
	var out []string
	if strings.HasPrefix(line, ":") {
		prefix, rest, _ := strings.Cut(line, " ")
		out, line = append(out, prefix), rest
	}
	head, trailing, hasTrailing := strings.Cut(line, " :")
	out = append(out, strings.Fields(head)...)
	if hasTrailing {
		out = append(out, trailing)
	}
	return out
}
