package secret

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// seed is a TOTP key with its parameters (RFC 6238): HMAC-SHA-1, 6 digits and 30 s
// steps unless an otpauth:// URI says otherwise.
type seed struct {
	key    []byte
	hash   func() hash.Hash
	digits int
	period int64
}

// parseSeed reads a seed as authenticator apps take it: base32 (any case, spaces and
// padding optional), or an otpauth://totp/ URI with its secret, algorithm, digits and
// period.
func parseSeed(v string) (seed, error) {
	s := seed{hash: sha1.New, digits: 6, period: 30}
	secret := v
	if strings.HasPrefix(strings.ToLower(v), "otpauth://") {
		u, err := url.Parse(v)
		if err != nil || !strings.EqualFold(u.Host, "totp") {
			return s, errors.New("an otpauth URI must start with otpauth://totp/")
		}
		q := u.Query()
		secret = q.Get("secret")
		switch strings.ToUpper(q.Get("algorithm")) {
		case "", "SHA1":
		case "SHA256":
			s.hash = sha256.New
		case "SHA512":
			s.hash = sha512.New
		default:
			return s, errors.New("the otpauth URI's algorithm is not SHA1, SHA256 or SHA512")
		}
		if d := q.Get("digits"); d != "" {
			n, err := strconv.Atoi(d)
			if err != nil || n < 6 || n > 8 {
				return s, errors.New("the otpauth URI's digits is not 6, 7 or 8")
			}
			s.digits = n
		}
		if p := q.Get("period"); p != "" {
			n, err := strconv.ParseInt(p, 10, 64)
			if err != nil || n < 1 || n > 3600 {
				return s, errors.New("the otpauth URI's period is not a number of seconds")
			}
			s.period = n
		}
	}
	secret = strings.ToUpper(strings.Join(strings.Fields(secret), ""))
	secret = strings.TrimRight(secret, "=")
	key, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(secret)
	if err != nil || len(key) == 0 {
		return s, errors.New("the seed is not base32 (the letters A-Z and digits 2-7 an authenticator app takes)")
	}
	s.key = key
	return s, nil
}

// code is the one-time code for the step that holds t (RFC 6238, RFC 4226's truncation).
func (s seed) code(t time.Time) string {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(t.Unix()/s.period))
	m := hmac.New(s.hash, s.key)
	m.Write(msg[:])
	sum := m.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	bin := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	mod := uint32(1)
	for range s.digits {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", s.digits, bin%mod)
}
