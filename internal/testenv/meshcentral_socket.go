package testenv

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// mcSocket is the WebSocket MeshCentral's pages keep open to control.ashx once signed in:
// every change a page makes is a JSON command sent on it, and the server answers and tells
// of every change on it too. It is a plain RFC 6455 client (text frames, masked as a
// browser masks them, no extension), enough for that one connection.
type mcSocket struct {
	conn net.Conn
	r    *bufio.Reader
}

// dialMeshCentral opens base's control.ashx (base is http://HOST:PORT) with the session's
// cookies, as the page does once it has loaded.
func dialMeshCentral(base string, jar http.CookieJar) (*mcSocket, error) {
	u, err := url.Parse(base + "/control.ashx")
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	nonce := base64.StdEncoding.EncodeToString(key)
	var cookies []string
	for _, c := range jar.Cookies(u) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	req := "GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: " + nonce + "\r\nSec-WebSocket-Version: 13\r\nOrigin: " + base + "\r\n" +
		"Cookie: " + strings.Join(cookies, "; ") + "\r\n\r\n"
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, req); err != nil {
		conn.Close()
		return nil, err
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	sum := sha1.Sum([]byte(nonce + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		conn.Close()
		return nil, fmt.Errorf("control.ashx answered %s, not a WebSocket", resp.Status)
	}
	_ = conn.SetDeadline(time.Time{})
	return &mcSocket{conn: conn, r: r}, nil
}

// send writes v as one masked text frame.
func (s *mcSocket) send(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.frame(1, data)
}

// frame writes one final frame of the opcode with payload, masked.
func (s *mcSocket) frame(op byte, payload []byte) error {
	head := []byte{0x80 | op}
	switch n := len(payload); {
	case n < 126:
		head = append(head, 0x80|byte(n))
	case n < 1<<16:
		head = append(head, 0x80|126, byte(n>>8), byte(n))
	default:
		head = append(head, 0x80|127)
		head = binary.BigEndian.AppendUint64(head, uint64(n))
	}
	mask := make([]byte, 4)
	_, _ = rand.Read(mask)
	head = append(head, mask...)
	body := make([]byte, len(payload))
	for i, c := range payload {
		body[i] = c ^ mask[i%4]
	}
	_ = s.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_, err := s.conn.Write(append(head, body...))
	return err
}

// read returns the next message the server sends as JSON (pings are answered, pongs
// skipped), waiting until deadline.
func (s *mcSocket) read(deadline time.Time) (map[string]any, error) {
	_ = s.conn.SetReadDeadline(deadline)
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(s.r, h[:]); err != nil {
			return nil, err
		}
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(s.r, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(s.r, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(s.r, payload); err != nil {
			return nil, err
		}
		switch op := h[0] & 0x0f; op {
		case 8:
			return nil, errors.New("the server closed control.ashx")
		case 9:
			_ = s.frame(10, payload)
			continue
		case 10:
			continue
		default:
			msg = append(msg, payload...)
		}
		if h[0]&0x80 == 0 {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(msg, &v); err != nil {
			msg = nil
			continue // not a JSON object: nothing the harness waits for
		}
		return v, nil
	}
}

// close ends the connection.
func (s *mcSocket) close() {
	_ = s.frame(8, []byte{0x03, 0xe8})
	_ = s.conn.Close()
}
