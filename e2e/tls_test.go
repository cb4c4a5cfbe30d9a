package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// tlsFront puts a TLS endpoint (a certificate for localhost, made here) in front of
// addr, as a TLS cluster or Temporal Cloud presents one, and returns its address and the
// CA file that verifies it.
func tlsFront(t *testing.T, addr string) (string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer in.Close()
				out, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				defer out.Close()
				go func() { _, _ = io.Copy(out, in) }()
				_, _ = io.Copy(in, out)
			}()
		}
	}()
	return ln.Addr().String(), caFile
}

// TestTemporalOverTLS: the worker and the starter reach Temporal over TLS, with an API key,
// from the environment alone — as they would a TLS cluster or Temporal Cloud; without the
// CA they refuse the server, saying where they looked.
func TestTemporalOverTLS(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	front, ca := tlsFront(t, s.TemporalAddr)
	tlsEnv := []string{"TEMPORAL_TLS=true", "TEMPORAL_TLS_CA=" + ca, "TEMPORAL_TLS_SERVER_NAME=localhost", "TEMPORAL_API_KEY=test-key"}
	at := s.Stack
	at.TemporalAddr = front
	testenv.StartWorker(t, workerBin, at, tlsEnv...)

	run := func(env ...string) (string, int) {
		cmd := exec.Command(starterBin, "run", "--url", s.appURL, demoGoal)
		cmd.Env = append(os.Environ(), append([]string{"TEMPORAL_ADDRESS=" + front, "TEMPORAL_NAMESPACE=" + s.Namespace, "GEMINI_API_KEY=", "GOOGLE_API_KEY="}, env...)...)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	if out, code := run(tlsEnv...); code != 0 || !strings.Contains(out, "SUCCESS") {
		t.Fatalf("over TLS: exit %d\n%s", code, out)
	}
	if out, code := run("TEMPORAL_TLS=true"); code != 2 || !strings.Contains(out, "cannot reach Temporal at "+front) {
		t.Errorf("without the CA the server's certificate must be refused: exit %d\n%s", code, out)
	}
}
