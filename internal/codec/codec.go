// Package codec encrypts what the project writes into Temporal's history — goals, plans,
// page observations, outputs — with AES-256-GCM before it leaves the process, so that the
// history at rest, and anyone who reads it without the key, sees none of it. The worker
// and the starter encode and decode; the codec server (`starter codec-server`) decodes for
// the Web UI and the temporal CLI (--codec-endpoint), for those who hold the key.
//
// Keys come from WEBAGENT_CODEC_KEYS: "id:base64key[,id:base64key...]", 32-byte keys; the
// first encrypts, every one decrypts, and each payload names its key, so keys rotate by
// putting a new one first. Unset, history is written in the clear.
package codec

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"
)

// Env is the variable that holds the keys.
const Env = "WEBAGENT_CODEC_KEYS"

const (
	encoding    = "binary/encrypted"
	metaKeyID   = "encryption-key-id"
	metaCipher  = "encryption-cipher"
	cipherName  = "AES256-GCM"
	metaEncoded = "encoding"
)

// Codec is a converter.PayloadCodec that seals payloads with AES-GCM.
type Codec struct {
	current string
	keys    map[string]cipher.AEAD
}

// Parse reads keys written as WEBAGENT_CODEC_KEYS holds them.
func Parse(spec string) (*Codec, error) {
	c := &Codec{keys: map[string]cipher.AEAD{}}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, b64, ok := strings.Cut(part, ":")
		if !ok || id == "" {
			return nil, fmt.Errorf("%s: each key is id:base64 (e.g. k1:%s)", Env, base64.StdEncoding.EncodeToString(make([]byte, 32)))
		}
		key, err := base64.StdEncoding.DecodeString(b64)
		if err != nil || len(key) != 32 {
			return nil, fmt.Errorf("%s: key %q must be 32 bytes, base64-encoded (openssl rand -base64 32)", Env, id)
		}
		aead, err := gcm(key)
		if err != nil {
			return nil, err
		}
		if _, dup := c.keys[id]; dup {
			return nil, fmt.Errorf("%s: key id %q is given twice", Env, id)
		}
		c.keys[id] = aead
		if c.current == "" {
			c.current = id
		}
	}
	if c.current == "" {
		return nil, fmt.Errorf("%s holds no key", Env)
	}
	return c, nil
}

// gcm makes an AES-256-GCM cipher from a 32-byte key.
func gcm(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// FromEnv returns the codec WEBAGENT_CODEC_KEYS configures, or nil when it is unset.
func FromEnv() (*Codec, error) {
	spec := strings.TrimSpace(os.Getenv(Env))
	if spec == "" {
		return nil, nil
	}
	return Parse(spec)
}

// Encode seals each payload with the current key.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	aead := c.keys[c.current]
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		nonce := make([]byte, aead.NonceSize())
		if _, err := rand.Read(nonce); err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{metaEncoded: []byte(encoding), metaKeyID: []byte(c.current), metaCipher: []byte(cipherName)},
			Data:     aead.Seal(nonce, nonce, plain, []byte(c.current)),
		}
	}
	return out, nil
}

// Decode opens the payloads this codec sealed and passes others through.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[metaEncoded]) != encoding {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[metaKeyID])
		aead, ok := c.keys[id]
		if !ok {
			return nil, fmt.Errorf("a payload is encrypted with key %q, which %s does not hold", id, Env)
		}
		n := aead.NonceSize()
		if len(p.Data) < n {
			return nil, errors.New("an encrypted payload is too short")
		}
		plain, err := aead.Open(nil, p.Data[:n], p.Data[n:], []byte(id))
		if err != nil {
			return nil, fmt.Errorf("a payload encrypted with key %q does not open: %w", id, err)
		}
		var dec commonpb.Payload
		if err := proto.Unmarshal(plain, &dec); err != nil {
			return nil, err
		}
		out[i] = &dec
	}
	return out, nil
}

// DataConverter wraps the SDK's default converter with the codec.
func (c *Codec) DataConverter() converter.DataConverter {
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)
}

// FailureConverter encodes failures' messages and stack traces too: an error can quote
// what a step saw.
func (c *Codec) FailureConverter() converter.FailureConverter {
	return temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{DataConverter: c.DataConverter(), EncodeCommonAttributes: true})
}
