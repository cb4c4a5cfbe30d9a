package testenv

import (
	"bufio"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// dovecotBin is Debian's Dovecot master (dovecot-core).
const dovecotBin = "/usr/sbin/dovecot"

// dovecotConf is a private Dovecot's whole configuration: IMAP alone on a loopback port,
// no TLS, one user in a passwd-file, mail in a Maildir under the temporary folder, every
// runtime file (sockets, pids, state, log) in temporary folders too; /etc/dovecot is never
// read. No process chroots and no socket is given to the dovecot group, so that a user
// other than root can run it as well.
const dovecotConf = `base_dir = {run}
state_dir = {dir}/state
instance_name = {name}
log_path = {dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = {uid}
{users}mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {dir}/users
}
userdb {
  driver = passwd-file
  args = username_format=%u {dir}/users
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Drafts {
    auto = subscribe
    special_use = \Drafts
  }
  mailbox Sent {
    auto = subscribe
    special_use = \Sent
  }
  mailbox Trash {
    auto = subscribe
    special_use = \Trash
  }
  mailbox Junk {
    auto = subscribe
    special_use = \Junk
  }
}
service anvil {
  chroot =
}
service stats {
  unix_listener stats-writer {
    group =
  }
}
service imap-hibernate {
  unix_listener imap-hibernate {
    group =
  }
}
service dict {
  unix_listener dict {
    group =
  }
}
service dict-async {
  unix_listener dict-async {
    group =
  }
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = {port}
  }
  inet_listener imaps {
    port = 0
  }
}
`

// Dovecot is a private IMAP server whose one user's mail is a Maildir on disk: what a run
// did to the mail is read back from the files (a folder is a directory, a message's flags
// are the letters at the end of its file's name).
type Dovecot struct {
	Addr    string // 127.0.0.1:PORT
	Maildir string // the user's Maildir: INBOX, and each other folder as ".Name"
}

// MailSeed is a message the Maildir starts with.
type MailSeed struct {
	From, Subject, Body, MessageID string
	Seen                           bool
}

// startDovecot writes the configuration, the user and the seeded messages under dir and
// runs Dovecot in the foreground until the test ends. As root, the mail belongs to
// nobody (Dovecot refuses mail access as root); otherwise to the test's own user.
func startDovecot(t testing.TB, dir, login, password string, seed []MailSeed) *Dovecot {
	t.Helper()
	uid, gid, users := 65534, 65534, ""
	if os.Getuid() != 0 {
		uid, gid = os.Getuid(), os.Getgid()
		if u, err := user.Current(); err == nil {
			users = fmt.Sprintf("default_login_user = %[1]s\ndefault_internal_user = %[1]s\n", u.Username)
		}
	}
	home := filepath.Join(dir, "home")
	d := &Dovecot{Maildir: filepath.Join(home, "Maildir")}
	for _, sub := range []string{"state", "home/Maildir/cur", "home/Maildir/new", "home/Maildir/tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, m := range seed {
		flags := ""
		if m.Seen {
			flags = "S"
		}
		msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
			m.From, login, m.Subject, time.Date(2026, 11, 2+i, 9, 30, 0, 0, time.UTC).Format(time.RFC1123Z), m.MessageID, m.Body)
		write(t, filepath.Join(d.Maildir, "cur", fmt.Sprintf("%d.M%dP1.seed:2,%s", 1793600000+i*3600, i+1, flags)), msg)
	}
	if os.Getuid() == 0 {
		// The test's temporary folders are 0700: the mail's owner must pass through them.
		for p := dir; p != "/" && p != os.TempDir(); p = filepath.Dir(p) {
			_ = os.Chmod(p, 0o711)
		}
		if err := filepath.Walk(home, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, uid, gid)
		}); err != nil {
			t.Fatalf("chown the Maildir: %v", err)
		}
	}
	write(t, filepath.Join(dir, "users"), fmt.Sprintf("%s:{PLAIN}%s:%d:%d::%s\n", login, password, uid, gid, home))
	port := FreePort(t)
	d.Addr = Addr(port)
	conf := strings.NewReplacer("{dir}", dir, "{run}", dovecotRunDir(t), "{name}", fmt.Sprintf("webagent-%d", port), "{uid}", fmt.Sprint(min(uid, 500)),
		"{users}", users, "{port}", fmt.Sprint(port)).Replace(dovecotConf)
	write(t, filepath.Join(dir, "dovecot.conf"), conf)
	p := start(t, "dovecot", exec.Command(dovecotBin, "-F", "-c", filepath.Join(dir, "dovecot.conf")))
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", d.Addr, time.Second)
		if err == nil {
			c.Close()
			return d
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "dovecot.log"))
			t.Fatalf("dovecot did not listen on %s: %v\n%s\n%s", d.Addr, err, p.out.String(), log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// dovecotRunDir is a short temporary folder for Dovecot's sockets (a socket's path may
// not be longer than about a hundred bytes, and a test's own temporary folder is named
// after the test), removed when the test ends.
func dovecotRunDir(t testing.TB) string {
	t.Helper()
	parent := os.TempDir()
	if len(parent) > 40 {
		parent = "/tmp"
	}
	run, err := os.MkdirTemp(parent, "dovecot")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	return run
}

// MailMessage is one message file of the Maildir.
type MailMessage struct {
	Folder          string // "INBOX", "Trash", "Receipts", ...
	File            string
	Flags           string // the Maildir flag letters: S seen, F flagged, R answered, T deleted, D draft
	From, To        string
	Subject, Body   string
	InReplyTo       string
	MessageID       string
	Seen, Flagged   bool
	Answered, Trash bool // Trash: marked deleted (T), not yet expunged
}

// Folders are the Maildir's folders: INBOX and each ".Name" directory, sorted.
func (d *Dovecot) Folders() []string {
	out := []string{"INBOX"}
	entries, _ := os.ReadDir(d.Maildir)
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), ".") && e.Name() != "." && e.Name() != ".." {
			out = append(out, strings.ReplaceAll(e.Name()[1:], ".", "/"))
		}
	}
	sort.Strings(out)
	return out
}

// Messages are every message of every folder, read from the files.
func (d *Dovecot) Messages(t testing.TB) []MailMessage {
	t.Helper()
	var out []MailMessage
	for _, f := range d.Folders() {
		dir := d.Maildir
		if f != "INBOX" {
			dir = filepath.Join(d.Maildir, "."+strings.ReplaceAll(f, "/", "."))
		}
		for _, sub := range []string{"new", "cur"} {
			entries, _ := os.ReadDir(filepath.Join(dir, sub))
			for _, e := range entries {
				if m, ok := readMailFile(filepath.Join(dir, sub, e.Name())); ok {
					m.Folder = f
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// readMailFile parses a message file: its headers, its text and the flags in its name.
func readMailFile(path string) (MailMessage, bool) {
	fh, err := os.Open(path)
	if err != nil {
		return MailMessage{}, false // moved or expunged meanwhile
	}
	defer fh.Close()
	msg, err := mail.ReadMessage(bufio.NewReader(fh))
	if err != nil {
		return MailMessage{}, false
	}
	var body strings.Builder
	_, _ = bufio.NewReader(msg.Body).WriteTo(&body)
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		subject = msg.Header.Get("Subject")
	}
	m := MailMessage{File: filepath.Base(path), From: msg.Header.Get("From"), To: msg.Header.Get("To"), Subject: subject,
		Body: body.String(), InReplyTo: msg.Header.Get("In-Reply-To"), MessageID: msg.Header.Get("Message-ID")}
	if _, info, ok := strings.Cut(m.File, ":2,"); ok {
		m.Flags = info
	}
	m.Seen, m.Flagged = strings.Contains(m.Flags, "S"), strings.Contains(m.Flags, "F")
	m.Answered, m.Trash = strings.Contains(m.Flags, "R"), strings.Contains(m.Flags, "T")
	return m, true
}

// SMTPSink is a tiny SMTP server that accepts every message and keeps it: what Roundcube
// sent is read back from it.
type SMTPSink struct {
	Addr string
	mu   sync.Mutex
	sent []SentMail
}

// SentMail is one message the sink accepted: its envelope and its text.
type SentMail struct {
	From string
	To   []string
	Data string
}

// startSMTPSink listens on a free loopback port until the test ends.
func startSMTPSink(t testing.TB) *SMTPSink {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("smtp sink: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	s := &SMTPSink{Addr: l.Addr().String()}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

// serve speaks just enough SMTP for one client: no extensions, no authentication.
func (s *SMTPSink) serve(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Minute))
	r, w := bufio.NewReader(c), bufio.NewWriter(c)
	say := func(line string) { w.WriteString(line + "\r\n"); w.Flush() }
	say("220 sink ESMTP")
	var cur SentMail
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			say("250 sink")
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			cur = SentMail{From: strings.Trim(strings.TrimSpace(line)[10:], "<> ")}
			say("250 OK")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			cur.To = append(cur.To, strings.Trim(strings.TrimSpace(line)[8:], "<> "))
			say("250 OK")
		case cmd == "DATA":
			say("354 go on")
			var data strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if strings.TrimRight(l, "\r\n") == "." {
					break
				}
				data.WriteString(strings.TrimPrefix(l, "."))
			}
			cur.Data = data.String()
			s.mu.Lock()
			s.sent = append(s.sent, cur)
			s.mu.Unlock()
			say("250 OK queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("250 OK")
		}
	}
}

// Sent are the messages the sink accepted, in order.
func (s *SMTPSink) Sent() []SentMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SentMail(nil), s.sent...)
}
