package sites

import (
	"strings"
	"testing"
)

func TestPolicy(t *testing.T) {
	public := For("https://www.example.com/start", []string{"cdn.example.net"}, false)
	local := For("http://127.0.0.1:8090/projects", nil, false)
	tests := []struct {
		p    Policy
		url  string
		want string // "" allowed, else part of the reason
	}{
		{public, "https://example.com/a", ""},
		{public, "https://shop.example.com/a", ""},
		{public, "http://cdn.example.net/x", ""},
		{public, "https://evil.com/", "not one of this run's allowed sites"},
		{public, "https://example.com.evil.com/", "not one of this run's allowed sites"},
		{public, "file:///etc/passwd", "only http and https"},
		{public, "chrome://settings", "only http and https"},
		{public, "javascript:alert(1)", "only http and https"},
		{public, "http://169.254.169.254/latest/meta-data/", "internal address"},
		{public, "http://10.0.0.5/", "internal address"},
		{public, "http://localhost:8080/", "internal address"},
		{local, "http://127.0.0.1:9999/other-port", ""},
		{local, "http://169.254.169.254/", "not one of this run's allowed sites"},
		{local, "file:///etc/passwd", "only http and https"},
	}
	for _, tt := range tests {
		err := tt.p.Check(tt.url)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.url, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %q", tt.url, err, tt.want)
		}
	}
	if !local.Private || public.Private {
		t.Errorf("internal addresses are allowed only when the start URL is one: %+v %+v", local, public)
	}
}
