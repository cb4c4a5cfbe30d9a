package testenv

import (
	"bufio"
	"fmt"
	"io"
	"mime"
	"net"
	"net/mail"
	"slices"
	"strings"
	"sync"
	"testing"
)

// MaildevSinkMessage is one mail the relay sink took: its envelope's sender and
// recipients (as MAIL FROM and RCPT TO gave them) and its Subject header, decoded.
type MaildevSinkMessage struct {
	From    string
	To      []string
	Subject string
}

// String is how a judge names the message: "Subject → rcpt1, rcpt2".
func (m MaildevSinkMessage) String() string {
	return m.Subject + " → " + strings.Join(m.To, ", ")
}

// maildevSink is the outgoing SMTP server a MailDev relays to: a small SMTP server of the
// test's own on a free loopback port, which accepts every mail and keeps it in memory,
// so that a relayed mail's arrival can be judged. It speaks what a relaying client needs
// (EHLO or HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) and offers no TLS and no
// authentication.
type maildevSink struct {
	Port int
	ln   net.Listener
	mu   sync.Mutex
	got  []MaildevSinkMessage
	wg   sync.WaitGroup
}

// startMaildevSink starts a sink, closed when the test ends.
func startMaildevSink(t testing.TB) *maildevSink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("maildev: the relay sink: %v", err)
	}
	s := &maildevSink{Port: ln.Addr().(*net.TCPAddr).Port, ln: ln}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(func() { _ = ln.Close(); s.wg.Wait() })
	return s
}

// Messages is every mail the sink took so far, in the order it took them.
func (s *maildevSink) Messages() []MaildevSinkMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.got)
}

func (s *maildevSink) serve() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer conn.Close()
			s.session(conn)
		}()
	}
}

// session talks SMTP with one client until it quits or hangs up.
func (s *maildevSink) session(conn net.Conn) {
	r, w := bufio.NewReader(conn), bufio.NewWriter(conn)
	reply := func(line string) { _, _ = w.WriteString(line + "\r\n"); _ = w.Flush() }
	reply("220 relay-sink ESMTP ready")
	var msg MaildevSinkMessage
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch verb {
		case "EHLO":
			reply("250-relay-sink\r\n250-8BITMIME\r\n250 SIZE 52428800")
		case "HELO", "NOOP":
			reply("250 OK")
		case "RSET":
			msg = MaildevSinkMessage{}
			reply("250 OK")
		case "MAIL":
			msg = MaildevSinkMessage{From: sinkPath(line)}
			reply("250 OK")
		case "RCPT":
			msg.To = append(msg.To, sinkPath(line))
			reply("250 OK")
		case "DATA":
			reply("354 End data with <CR><LF>.<CR><LF>")
			data, err := sinkData(r)
			if err != nil {
				return
			}
			msg.Subject = sinkSubject(data)
			slices.Sort(msg.To)
			s.mu.Lock()
			s.got = append(s.got, msg)
			s.mu.Unlock()
			msg = MaildevSinkMessage{}
			reply("250 OK: queued")
		case "QUIT":
			reply("221 Bye")
			return
		default:
			reply("502 Command not implemented")
		}
	}
}

// sinkPath is the address of a MAIL FROM:<a> or RCPT TO:<a> line, lower case.
func sinkPath(line string) string {
	i, j := strings.Index(line, "<"), strings.Index(line, ">")
	if i < 0 || j < i {
		if k := strings.Index(line, ":"); k >= 0 {
			return strings.ToLower(strings.TrimSpace(line[k+1:]))
		}
		return ""
	}
	return strings.ToLower(line[i+1 : j])
}

// sinkData reads a DATA section up to its lone dot, undoing the dot stuffing.
func sinkData(r *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		if strings.TrimRight(line, "\r\n") == "." {
			return b.String(), nil
		}
		b.WriteString(strings.TrimPrefix(line, "."))
	}
}

// sinkSubject is a message's Subject header, its encoded words decoded.
func sinkSubject(data string) string {
	m, err := mail.ReadMessage(strings.NewReader(data))
	if err != nil {
		return fmt.Sprintf("(unreadable message: %v)", err)
	}
	_, _ = io.Copy(io.Discard, m.Body)
	subject := m.Header.Get("Subject")
	if dec, err := new(mime.WordDecoder).DecodeHeader(subject); err == nil {
		subject = dec
	}
	return subject
}
