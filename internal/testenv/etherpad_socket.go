package testenv

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// epSocket is the connection a pad's page keeps with Etherpad: socket.io 2 over engine.io
// 3's long-polling transport (the transport the page's socket.io client starts with), its
// payloads in the text encoding (b64=1), each packet written "length:packet" with the
// length in UTF-16 code units, as JavaScript counts a string.
type epSocket struct {
	c       *http.Client
	url     string   // the transport's URL with the connection's sid
	pending []string // packets received and not yet read
}

// dialEtherpad opens a connection for the pad padID (the page passes it as padId in the
// query), reads the engine's open packet and waits for socket.io's connect.
func dialEtherpad(c *http.Client, base, padID string) (*epSocket, error) {
	q := url.Values{"EIO": {"3"}, "transport": {"polling"}, "b64": {"1"}, "padId": {padID}}
	s := &epSocket{c: c, url: base + "/socket.io/?" + q.Encode()}
	packets, err := s.poll()
	if err != nil {
		return nil, err
	}
	if len(packets) == 0 || !strings.HasPrefix(packets[0], "0") {
		return nil, fmt.Errorf("etherpad: socket.io sent no open packet: %q", packets)
	}
	var open struct {
		SID string `json:"sid"`
	}
	if err := json.Unmarshal([]byte(packets[0][1:]), &open); err != nil || open.SID == "" {
		return nil, fmt.Errorf("etherpad: socket.io's open packet %q: %v", packets[0], err)
	}
	s.url += "&sid=" + url.QueryEscape(open.SID)
	s.pending = packets[1:]
	for {
		p, err := s.packet()
		if err != nil {
			return nil, err
		}
		if p == "40" {
			return s, nil
		}
	}
}

// poll GETs the transport once and returns the packets it answers with.
func (s *epSocket) poll() ([]string, error) {
	resp, err := s.c.Get(s.url)
	if err != nil {
		return nil, fmt.Errorf("etherpad: socket.io poll: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("etherpad: socket.io poll: %s %v: %s", resp.Status, err, body)
	}
	return epPayload(string(body))
}

// epPayload splits a text payload into its packets.
func epPayload(body string) ([]string, error) {
	units := utf16.Encode([]rune(body))
	var packets []string
	for i := 0; i < len(units); {
		colon := i
		for colon < len(units) && units[colon] != ':' {
			colon++
		}
		n, err := strconv.Atoi(string(utf16.Decode(units[i:colon])))
		if err != nil || colon+1+n > len(units) {
			return nil, fmt.Errorf("etherpad: a socket.io payload that does not parse: %q", body)
		}
		packets = append(packets, string(utf16.Decode(units[colon+1:colon+1+n])))
		i = colon + 1 + n
	}
	return packets, nil
}

// packet is the next packet the server sent, polling for more when none is pending; it
// answers the server's pings.
func (s *epSocket) packet() (string, error) {
	for len(s.pending) == 0 {
		packets, err := s.poll()
		if err != nil {
			return "", err
		}
		s.pending = packets
	}
	p := s.pending[0]
	s.pending = s.pending[1:]
	switch {
	case p == "2":
		return s.packet()
	case strings.HasPrefix(p, "1"), strings.HasPrefix(p, "41"):
		return "", fmt.Errorf("etherpad: the server closed the pad's connection")
	}
	return p, nil
}

// post sends one packet.
func (s *epSocket) post(packet string) error {
	body := fmt.Sprintf("%d:%s", len(utf16.Encode([]rune(packet))), packet)
	resp, err := s.c.Post(s.url, "text/plain;charset=UTF-8", strings.NewReader(body))
	if err != nil {
		return fmt.Errorf("etherpad: socket.io post: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		out, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("etherpad: socket.io post: %s: %s", resp.Status, out)
	}
	return nil
}

// send sends msg as the page does (socket.json.send: a "message" event).
func (s *epSocket) send(msg any) error {
	data, err := json.Marshal([]any{"message", msg})
	if err != nil {
		return err
	}
	return s.post("42" + string(data))
}

// epMessage is a message the server sent: its type, and for a COLLABROOM message its data.
type epMessage struct {
	Type         string          `json:"type"`
	Data         json.RawMessage `json:"data"`
	Disconnect   string          `json:"disconnect"`
	AccessStatus string          `json:"accessStatus"`
}

// dataType is the type of a COLLABROOM message's data ("" for another message).
func (m epMessage) dataType() string {
	var d struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(m.Data, &d)
	return d.Type
}

// await reads the server's messages until one satisfies want, for at most limit; a
// disconnect or a denied access ends it with an error.
func (s *epSocket) await(limit time.Duration, want func(epMessage) bool) (epMessage, error) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		p, err := s.packet()
		if err != nil {
			return epMessage{}, err
		}
		if !strings.HasPrefix(p, "42") {
			continue
		}
		var event []json.RawMessage
		var m epMessage
		if json.Unmarshal([]byte(p[2:]), &event) != nil || len(event) != 2 || json.Unmarshal(event[1], &m) != nil {
			continue
		}
		if m.Disconnect != "" || m.AccessStatus != "" {
			return m, fmt.Errorf("etherpad: the server said disconnect %q, access %q", m.Disconnect, m.AccessStatus)
		}
		if want(m) {
			return m, nil
		}
	}
	return epMessage{}, fmt.Errorf("etherpad: no awaited message in %s", limit)
}

// close ends the connection as a page leaving does.
func (s *epSocket) close() { _ = s.post("1") }
