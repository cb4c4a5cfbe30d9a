package codec

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// sealedMagic opens every blob Seal writes, so that Open can tell it from plain data
// written before sealing was on.
var sealedMagic = []byte("webagent-sealed-v1\n")

// Sealer encrypts blobs at rest (the browser's cookies and storage in MinIO) with
// AES-256-GCM.
type Sealer struct{ aead cipher.AEAD }

// NewSealer makes a sealer from a 32-byte key.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("a sealing key is 32 bytes, not %d", len(key))
	}
	aead, err := gcm(key)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// KeyFromBase64 reads a 32-byte key written in base64.
func KeyFromBase64(s string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(k) != 32 {
		return nil, errors.New("want 32 bytes, base64-encoded (openssl rand -base64 32)")
	}
	return k, nil
}

// DeriveKey makes a key from a secret every worker shares, for when none is configured.
func DeriveKey(secret, purpose string) []byte {
	sum := sha256.Sum256([]byte("webagent|" + purpose + "|" + secret))
	return sum[:]
}

// FirstKey returns the encrypting key of a WEBAGENT_CODEC_KEYS spec, if it holds one.
func FirstKey(spec string) ([]byte, bool) {
	if _, err := Parse(spec); err != nil {
		return nil, false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(spec), ",")
	_, b64, _ := strings.Cut(strings.TrimSpace(first), ":")
	k, err := KeyFromBase64(b64)
	return k, err == nil
}

// Seal encrypts plain.
func (s *Sealer) Seal(plain []byte) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out := append([]byte{}, sealedMagic...)
	out = append(out, nonce...)
	return s.aead.Seal(out, nonce, plain, sealedMagic), nil
}

// Open decrypts what Seal wrote; data written in the clear passes through.
func (s *Sealer) Open(data []byte) ([]byte, error) {
	if !bytes.HasPrefix(data, sealedMagic) {
		return data, nil
	}
	rest := data[len(sealedMagic):]
	n := s.aead.NonceSize()
	if len(rest) < n {
		return nil, errors.New("a sealed blob is too short")
	}
	plain, err := s.aead.Open(nil, rest[:n], rest[n:], sealedMagic)
	if err != nil {
		return nil, fmt.Errorf("a sealed blob does not open with this worker's key: %w", err)
	}
	return plain, nil
}
