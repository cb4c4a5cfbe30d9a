package testenv

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cupsJobStates are IPP's job states by their number.
var cupsJobStates = map[uint32]string{3: "pending", 4: "held", 5: "processing", 6: "stopped", 7: "canceled", 8: "aborted", 9: "completed"}

// jobs reads the spool's job files (cNNNNN, an IPP message of the job's attributes, as
// cupsd saves it): each job's id → "printer=…; name=…; state=…; hold=…".
func (c *Cups) jobs(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(c.Dir, "spool", "c[0-9]*"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("cups: read %s: %v", path, err)
		}
		attrs, err := cupsIPPAttributes(data)
		if err != nil {
			t.Fatalf("cups: %s: %v", path, err)
		}
		var id int
		fmt.Sscanf(filepath.Base(path), "c%d", &id)
		printer := attrs["printer-uri"]
		printer = printer[strings.LastIndexByte(printer, '/')+1:]
		state := "unknown"
		if js := attrs["job-state"]; len(js) == 4 {
			state = cupsJobStates[binary.BigEndian.Uint32([]byte(js))]
		}
		out[fmt.Sprint(id)] = fmt.Sprintf("hold=%s; name=%s; printer=%s; state=%s", attrs["job-hold-until"], attrs["job-name"], printer, state)
	}
	return out
}

// cupsIPPAttributes reads an IPP message's attributes: each one's name → its first value's
// bytes (a text as it is, an integer or enum as its four bytes). Collections' members and
// further values are skipped.
func cupsIPPAttributes(data []byte) (map[string]string, error) {
	out := map[string]string{}
	if len(data) < 8 {
		return nil, fmt.Errorf("%d bytes, too short for an IPP message", len(data))
	}
	at := 8
	for at < len(data) {
		tag := data[at]
		at++
		if tag == 0x03 {
			return out, nil
		}
		if tag < 0x10 {
			continue
		}
		if at+2 > len(data) {
			break
		}
		n := int(binary.BigEndian.Uint16(data[at:]))
		at += 2
		if at+n+2 > len(data) {
			break
		}
		name := string(data[at : at+n])
		at += n
		m := int(binary.BigEndian.Uint16(data[at:]))
		at += 2
		if at+m > len(data) {
			break
		}
		if _, seen := out[name]; name != "" && tag != 0x4a && !seen {
			out[name] = string(data[at : at+m])
		}
		at += m
	}
	return nil, fmt.Errorf("the IPP message ends before its end tag")
}
