package notify_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/notify"
)

var testKey = []byte("k-0123456789abcdef")

// signed is the headers of a post with delivery id sent at ts, signed with key.
func signed(key []byte, id string, ts time.Time, body []byte) http.Header {
	h := http.Header{}
	h.Set(notify.DeliveryHeader, id)
	h.Set(notify.TimestampHeader, strconv.FormatInt(ts.Unix(), 10))
	h.Set(notify.SignatureHeader, notify.Sign(key, id, ts, body))
	return h
}

// seenSet is a receiver's record of the deliveries it accepted.
func seenSet() func(string) bool {
	seen := map[string]bool{}
	return func(id string) bool {
		was := seen[id]
		seen[id] = true
		return was
	}
}

// TestVerify: a receiver accepts a post signed with its key, recent, and new; it refuses
// a replay, a stale or future timestamp, and any change to the ID, the timestamp or the
// body, each with its error.
func TestVerify(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"event":"ended"}`)
	good := signed(testKey, "d1", now, body)
	with := func(name, value string) http.Header {
		h := good.Clone()
		if value == "" {
			h.Del(name)
		} else {
			h.Set(name, value)
		}
		return h
	}
	ts := strconv.FormatInt(now.Unix(), 10)
	for _, tc := range []struct {
		name   string
		header http.Header
		body   string
		at     time.Time
		want   error
	}{
		{"good", good, string(body), now, nil},
		{"a little late", good, string(body), now.Add(4 * time.Minute), nil},
		{"a little early", good, string(body), now.Add(-4 * time.Minute), nil},
		{"stale", good, string(body), now.Add(6 * time.Minute), notify.ErrStale},
		{"from the future", good, string(body), now.Add(-6 * time.Minute), notify.ErrStale},
		{"tampered body", good, `{"event":"waiting"}`, now, notify.ErrSignature},
		{"tampered timestamp", with(notify.TimestampHeader, strconv.FormatInt(now.Unix()+60, 10)), string(body), now, notify.ErrSignature},
		{"timestamp with a leading zero", with(notify.TimestampHeader, "0"+ts), string(body), now, notify.ErrSignature},
		{"timestamp not a number", with(notify.TimestampHeader, ts+".5"), string(body), now, notify.ErrSignature},
		{"no timestamp", with(notify.TimestampHeader, ""), string(body), now, notify.ErrSignature},
		{"tampered delivery", with(notify.DeliveryHeader, "d2"), string(body), now, notify.ErrSignature},
		{"delivery with a dot", with(notify.DeliveryHeader, "d1."+ts), string(body), now, notify.ErrSignature},
		{"no delivery", with(notify.DeliveryHeader, ""), string(body), now, notify.ErrSignature},
		{"no signature", with(notify.SignatureHeader, ""), string(body), now, notify.ErrSignature},
		{"wrong key", signed([]byte("another-key-0123456"), "d1", now, body), string(body), now, notify.ErrSignature},
		{"the old body-only scheme", with(notify.SignatureHeader, "v1="+bodyOnly(testKey, body)), string(body), now, notify.ErrSignature},
		{"signature without its scheme", with(notify.SignatureHeader, strings.TrimPrefix(good.Get(notify.SignatureHeader), "v1=")), string(body), now, notify.ErrSignature},
		{"one of two signatures holds", with(notify.SignatureHeader, "v1=00, "+good.Get(notify.SignatureHeader)), string(body), now, nil},
	} {
		err := notify.Verify(testKey, tc.header, []byte(tc.body), tc.at, 0, seenSet())
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}

	// The same post twice: the second is a replay, even with a fresh signature.
	seen := seenSet()
	if err := notify.Verify(testKey, good, body, now, time.Minute, seen); err != nil {
		t.Fatal(err)
	}
	if err := notify.Verify(testKey, good, body, now.Add(30*time.Second), time.Minute, seen); !errors.Is(err, notify.ErrReplay) {
		t.Errorf("replayed: %v", err)
	}
	if err := notify.Verify(testKey, signed(testKey, "d1", now.Add(time.Second), body), body, now, time.Minute, seen); !errors.Is(err, notify.ErrReplay) {
		t.Errorf("re-signed with the same delivery: %v", err)
	}
	// A forged post is refused before seen is asked, so it cannot fill the record.
	asked := false
	err := notify.Verify(testKey, with(notify.SignatureHeader, "v1=00"), body, now, 0, func(string) bool { asked = true; return false })
	if !errors.Is(err, notify.ErrSignature) || asked {
		t.Errorf("forged: %v, seen asked %v", err, asked)
	}
	if err := notify.Verify(testKey, good, body, now, 0, nil); err == nil {
		t.Error("verified with no record of seen deliveries")
	}
	if err := notify.Verify(nil, good, body, now, 0, seenSet()); err == nil {
		t.Error("verified with no key")
	}
}

// bodyOnly is the HMAC of the body alone, as posts were signed before they carried an ID
// and a time: it must not pass as a signature of them.
func bodyOnly(key, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}
