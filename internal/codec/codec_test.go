package codec

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

func key(b byte) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)) }

func TestRoundTripAndRotation(t *testing.T) {
	old, err := Parse("k1:" + key(1))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := converter.GetDefaultDataConverter().ToPayload(map[string]string{"goal": "sign in as ada"})
	sealed, err := old.Encode([]*commonpb.Payload{p})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed[0].Data, []byte("ada")) || string(sealed[0].Metadata["encryption-key-id"]) != "k1" {
		t.Fatalf("the payload is not sealed: %v", sealed[0])
	}
	// A new key first: new payloads use it, old ones still open.
	rotated, err := Parse("k2:" + key(2) + ",k1:" + key(1))
	if err != nil {
		t.Fatal(err)
	}
	opened, err := rotated.Decode(sealed)
	if err != nil || !bytes.Equal(opened[0].Data, p.Data) {
		t.Fatalf("decode after rotation: %v %v", opened, err)
	}
	again, _ := rotated.Encode([]*commonpb.Payload{p})
	if string(again[0].Metadata["encryption-key-id"]) != "k2" {
		t.Error("the first key encrypts")
	}
	if _, err := old.Decode(again); err == nil || !strings.Contains(err.Error(), `key "k2"`) {
		t.Errorf("a codec without the key must say which key it lacks: %v", err)
	}
	// Plain payloads pass through.
	if out, err := old.Decode([]*commonpb.Payload{p}); err != nil || out[0] != p {
		t.Errorf("a plain payload: %v %v", out, err)
	}
	for _, bad := range []string{"k1", "k1:short", "k1:" + key(1) + ",k1:" + key(2)} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) should fail", bad)
		}
	}
}

func TestSealer(t *testing.T) {
	s, err := NewSealer(DeriveKey("minio-secret", "state"))
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := s.Seal([]byte(`{"cookies":[{"name":"session","value":"abc"}]}`))
	if err != nil || bytes.Contains(sealed, []byte("session")) {
		t.Fatalf("sealed: %q %v", sealed, err)
	}
	plain, err := s.Open(sealed)
	if err != nil || !bytes.Contains(plain, []byte(`"value":"abc"`)) {
		t.Fatalf("open: %q %v", plain, err)
	}
	if p, err := s.Open([]byte(`{"plain":true}`)); err != nil || string(p) != `{"plain":true}` {
		t.Errorf("plain data passes through: %q %v", p, err)
	}
	other, _ := NewSealer(DeriveKey("another", "state"))
	if _, err := other.Open(sealed); err == nil {
		t.Error("another key must not open it")
	}
}
