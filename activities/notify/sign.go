package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Headers of a post. The signature covers the delivery ID, the timestamp and the body
// together, so that a captured post cannot be sent again later, nor under another ID.
const (
	// SignatureHeader is "v1=" and the hex HMAC-SHA256, with the key, of
	// delivery ID + "." + timestamp + "." + body.
	SignatureHeader = "X-Webagent-Signature"
	// DeliveryHeader names the delivery: derived from the run and the activity that
	// posts, it is the same on every retry of one post, so a receiver can drop repeats.
	DeliveryHeader = "X-Webagent-Delivery"
	// TimestampHeader is when the post was sent, in Unix seconds.
	TimestampHeader = "X-Webagent-Timestamp"
	EventHeader     = "X-Webagent-Event"
)

// DefaultTolerance is how far a post's timestamp may be from the receiver's clock when
// Verify is given none: wide enough for clocks a little apart, narrow enough that the
// deliveries a receiver must remember are few.
const DefaultTolerance = 5 * time.Minute

// Errors of Verify, to tell with errors.Is.
var (
	// ErrSignature: the post is not signed with the key (or its headers are missing).
	ErrSignature = errors.New("bad signature")
	// ErrStale: the timestamp is further from now than the tolerance.
	ErrStale = errors.New("timestamp outside tolerance")
	// ErrReplay: a post with this delivery ID was already accepted. A retried post
	// (the first answer was lost) is one too: answer it 2xx and do nothing again.
	ErrReplay = errors.New("delivery already seen")
)

// Sign is the signature header's value for the post with delivery id, sent at ts.
func Sign(key []byte, id string, ts time.Time, body []byte) string {
	return "v1=" + hex.EncodeToString(mac(key, id, strconv.FormatInt(ts.Unix(), 10), body))
}

// Verify is the receiver's check of a post: nil when header carries a signature of body
// with key, a timestamp within tolerance of now (DefaultTolerance if tolerance is not
// positive), and a delivery ID that seen has not seen. seen is asked only about an
// authentic, fresh post, so forged posts cannot fill the receiver's record: it reports
// whether id was accepted before, and records it. Remembering IDs for twice the tolerance
// is enough, since an older post is refused as stale.
func Verify(key []byte, header http.Header, body []byte, now time.Time, tolerance time.Duration, seen func(id string) bool) error {
	if len(key) == 0 || seen == nil {
		return errors.New("verify needs the key and a record of seen deliveries")
	}
	id, ts := header.Get(DeliveryHeader), header.Get(TimestampHeader)
	if !validID(id) {
		return fmt.Errorf("%w: no valid %s", ErrSignature, DeliveryHeader)
	}
	sec, ok := unixSeconds(ts)
	if !ok {
		return fmt.Errorf("%w: no valid %s", ErrSignature, TimestampHeader)
	}
	want := mac(key, id, ts, body)
	signed := false
	// The header may carry several signatures (a key being changed); one must hold.
	for _, f := range strings.FieldsFunc(header.Get(SignatureHeader), func(r rune) bool { return r == ',' || r == ' ' }) {
		got, err := hex.DecodeString(strings.TrimPrefix(f, "v1="))
		if strings.HasPrefix(f, "v1=") && err == nil && hmac.Equal(got, want) {
			signed = true
		}
	}
	if !signed {
		return ErrSignature
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w of %s", ErrStale, tolerance)
	}
	if seen(id) {
		return fmt.Errorf("%w: %s", ErrReplay, id)
	}
	return nil
}

// mac is the HMAC of id, ts and body, joined by dots. Neither an ID nor a timestamp
// holds a dot, so no other split of the same bytes is a valid post.
func mac(key []byte, id, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + ts + "."))
	m.Write(body)
	return m.Sum(nil)
}

// deliveryID names one logical delivery: the run, the activity that posts (one per
// event; its retries keep its ID), the event and step. A hash, so that it holds no dot.
func deliveryID(workflowID, runID, activityID, event string, step int) string {
	h := sha256.Sum256([]byte(strings.Join([]string{workflowID, runID, activityID, event, strconv.Itoa(step)}, "\x00")))
	return hex.EncodeToString(h[:16])
}

// validID: 1–128 letters, digits, '-' or '_'.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// unixSeconds reads a timestamp of 1–12 digits: no sign, no fraction, no spaces.
func unixSeconds(s string) (int64, bool) {
	if s == "" || len(s) > 12 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
