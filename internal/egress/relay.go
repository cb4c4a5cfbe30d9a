package egress

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
)

// tunnel answers CONNECT: the policy is asked about the host and port, the connection
// made, then bytes copied both ways until either side closes.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	up, err := p.dial(r.Context(), "tcp", r.Host)
	if err != nil {
		refusedOr(w, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		_ = up.Close()
		http.Error(w, "tunnels are not supported here", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		_ = up.Close()
		_ = down.Close()
		return
	}
	splice(down, buf, up)
}

// splice copies both ways, including what the browser sent after its CONNECT before the
// answer (buffered in buf), and closes both ends when either is done.
func splice(down net.Conn, buf *bufio.ReadWriter, up net.Conn) {
	done := make(chan struct{}, 2)
	go func() {
		if n := buf.Reader.Buffered(); n > 0 {
			b, _ := buf.Reader.Peek(n)
			_, _ = up.Write(b)
		}
		_, _ = io.Copy(up, down)
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(down, up)
		done <- struct{}{}
	}()
	<-done
	_ = up.Close()
	_ = down.Close()
	<-done
}

// hopHeaders are a proxy's own and never forwarded.
var hopHeaders = []string{"Proxy-Connection", "Proxy-Authorization", "Proxy-Authenticate", "Keep-Alive", "Te", "Trailer", "Transfer-Encoding"}

// forward sends a plain HTTP request on through the boundary's dialer and copies the
// answer back. A redirect is the browser's to follow, so its next hop comes back here and
// is checked like the first; an upgrade (a ws: socket sent without CONNECT) is spliced.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request) {
	out := r.Clone(r.Context())
	out.RequestURI = ""
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	if out.URL.Scheme == "ws" {
		out.URL.Scheme = "http"
	}
	if isUpgrade(r) {
		p.upgrade(w, out)
		return
	}
	out.Header.Del("Connection")
	if err := whole(out); err != nil {
		http.Error(w, "read the request's body: "+err.Error(), http.StatusBadRequest)
		return
	}
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		refusedOr(w, err)
		return
	}
	defer resp.Body.Close()
	for _, h := range hopHeaders {
		resp.Header.Del(h)
	}
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	flush(w, resp.Body)
}

// wholeBody caps the request bodies the proxy reads whole before it sends them on.
const wholeBody = 8 << 20

// whole reads a request's body before the request is sent on, up to wholeBody, so that
// the site gets the request in one piece as the browser sent it: a worker that dies
// between the headers and the body would otherwise leave the site half a request (a
// create the site counts but cannot read). A larger body (an upload) is streamed.
func whole(r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength > wholeBody {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, wholeBody+1))
	if err != nil {
		return err
	}
	if len(b) > wholeBody {
		// Unknown length and larger than the cap: what was read, then the rest.
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(b), r.Body), r.Body}
		return nil
	}
	_ = r.Body.Close()
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	if len(b) == 0 {
		r.Body = http.NoBody
	}
	r.TransferEncoding = nil
	return nil
}

// flush copies a body, flushing as it goes, so that a stream (server-sent events, a long
// poll) reaches the page as it arrives.
func flush(w http.ResponseWriter, body io.Reader) {
	f, _ := w.(http.Flusher)
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			if f != nil {
				f.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}

func isUpgrade(r *http.Request) bool {
	for _, v := range r.Header.Values("Connection") {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), "upgrade") {
				return true
			}
		}
	}
	return false
}

// upgrade relays a request that asks to switch protocols over one checked connection.
func (p *Proxy) upgrade(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Host
	if r.URL.Port() == "" {
		host = net.JoinHostPort(r.URL.Hostname(), "80")
	}
	up, err := p.dial(r.Context(), "tcp", host)
	if err != nil {
		refusedOr(w, err)
		return
	}
	if err := r.Write(up); err != nil {
		_ = up.Close()
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		_ = up.Close()
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	splice(down, buf, up)
}

// refusedOr answers a failed connection: 403 with the reason when the policy refused it,
// 502 when the site could not be reached.
func refusedOr(w http.ResponseWriter, err error) {
	var refused *RefusedError
	if errors.As(err, &refused) {
		w.Header().Set(RefusedHeader, "1")
		http.Error(w, "refused by the worker's egress policy: "+refused.Reason, http.StatusForbidden)
		return
	}
	http.Error(w, err.Error(), http.StatusBadGateway)
}
