package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Modules written out by hand, each beside its text format.
var (
	header = []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	// (module (func (export "_start") unreachable))
	trapCommand = module(
		[]byte{0x01, 0x04, 0x01, 0x60, 0x00, 0x00},
		[]byte{0x03, 0x02, 0x01, 0x00},
		[]byte{0x07, 0x0a, 0x01, 0x06, '_', 's', 't', 'a', 'r', 't', 0x00, 0x00},
		[]byte{0x0a, 0x05, 0x01, 0x03, 0x00, 0x00, 0x0b})
	// (module (func (export "_start") (loop br 0)))
	loopCommand = module(
		[]byte{0x01, 0x04, 0x01, 0x60, 0x00, 0x00},
		[]byte{0x03, 0x02, 0x01, 0x00},
		[]byte{0x07, 0x0a, 0x01, 0x06, '_', 's', 't', 'a', 'r', 't', 0x00, 0x00},
		[]byte{0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b})
	// (module (memory 1) (func (export "_start")
	//   (if (i32.eq (memory.grow (i32.const 10000)) (i32.const -1)) (then unreachable))))
	growCommand = module(
		[]byte{0x01, 0x04, 0x01, 0x60, 0x00, 0x00},
		[]byte{0x03, 0x02, 0x01, 0x00},
		[]byte{0x05, 0x03, 0x01, 0x00, 0x01},
		[]byte{0x07, 0x0a, 0x01, 0x06, '_', 's', 't', 'a', 'r', 't', 0x00, 0x00},
		[]byte{0x0a, 0x11, 0x01, 0x0f, 0x00, 0x41, 0x90, 0xce, 0x00, 0x40, 0x00, 0x41, 0x7f, 0x46, 0x04, 0x40, 0x00,
			0x0b, 0x0b})
	// (module (func (export "spice_respond") (result i32) unreachable))
	trapReactor = module(
		[]byte{0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f},
		[]byte{0x03, 0x02, 0x01, 0x00},
		append([]byte{0x07, 0x11, 0x01, 0x0d}, append([]byte("spice_respond"), 0x00, 0x00)...),
		[]byte{0x0a, 0x05, 0x01, 0x03, 0x00, 0x00, 0x0b})
)

func module(sections ...[]byte) []byte {
	return bytes.Join(append([][]byte{header}, sections...), nil)
}

func written(t *testing.T, name string, code []byte) string {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, code, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gatewayOf(t *testing.T, command, kept string, timeout time.Duration) *gateway {
	g, err := newGateway(context.Background(), settings{command: command, kept: kept, instances: 4, timeout: timeout,
		memoryPages: 256})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.close(context.Background()) })
	return g
}

func get(g *gateway, method, path string) *httptest.ResponseRecorder {
	recorder := httptest.NewRecorder()
	g.ServeHTTP(recorder, httptest.NewRequest(method, path, nil))
	return recorder
}

// The real probe modules (wasm/Makefile runs this test with SPICE_WASM_DIR=target).
func probeModules(t *testing.T) (string, string) {
	dir := os.Getenv("SPICE_WASM_DIR")
	if dir == "" {
		t.Skip("SPICE_WASM_DIR names no directory of spice.wasm and spice-kept.wasm (make test sets it)")
	}
	return filepath.Join(dir, "spice.wasm"), filepath.Join(dir, "spice-kept.wasm")
}

func TestBothProbesAnswerThePageTheProgramWrites(t *testing.T) {
	command, kept := probeModules(t)
	g := gatewayOf(t, command, kept, 5*time.Second)
	fresh := get(g, "GET", "/spice/wasm/spice?x=1")
	if fresh.Code != 200 || fresh.Header().Get("Content-Type") != "text/html;charset=US-ASCII" {
		t.Fatalf("fresh: %d %v %q", fresh.Code, fresh.Header(), fresh.Body.String())
	}
	if fresh.Header().Get("Content-Length") != strconv.Itoa(fresh.Body.Len()) || !strings.HasPrefix(fresh.Body.String(), "<") {
		t.Fatalf("fresh: Content-Length %s for %d bytes", fresh.Header().Get("Content-Length"), fresh.Body.Len())
	}
	var wg sync.WaitGroup
	failures := make(chan string, 200)
	for client := 0; client < 8; client++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				kept := get(g, "GET", "/spice/wasm-kept/spice")
				if kept.Code != 200 || !bytes.Equal(kept.Body.Bytes(), fresh.Body.Bytes()) {
					failures <- kept.Body.String()
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for failure := range failures {
		t.Fatalf("a kept instance's answer is not the fresh one's: %q", failure)
	}
	if made := len(g.made); made < 1 || made > 4 {
		t.Fatalf("%d kept instances made for 8 clients, at most 4 allowed", made)
	}
}

func TestOnlyGetAndHeadAndTheTwoPaths(t *testing.T) {
	g := gatewayOf(t, written(t, "trap.wasm", trapCommand), written(t, "trap-kept.wasm", trapReactor), time.Second)
	if answer := get(g, "POST", freshPath); answer.Code != 405 || answer.Header().Get("Allow") != "GET, HEAD" {
		t.Fatalf("POST: %d %v", answer.Code, answer.Header())
	}
	if answer := get(g, "GET", "/spice/wasm/other"); answer.Code != 404 {
		t.Fatalf("another path: %d", answer.Code)
	}
}

func TestATrapATimeoutAndTooMuchMemoryEachGetA5xxAndTheHostGoesOn(t *testing.T) {
	trap := get(gatewayOf(t, written(t, "trap.wasm", trapCommand), written(t, "k.wasm", trapReactor), time.Second),
		"GET", freshPath)
	if trap.Code != 500 {
		t.Fatalf("a trap: %d", trap.Code)
	}
	g := gatewayOf(t, written(t, "loop.wasm", loopCommand), written(t, "k.wasm", trapReactor), 200*time.Millisecond)
	began := time.Now()
	if loop := get(g, "GET", freshPath); loop.Code != 504 {
		t.Fatalf("a loop: %d", loop.Code)
	}
	// the loop is stopped at its deadline (0.2 s): 2 s is ten times that, for a busy machine
	if took := time.Since(began); took > 2*time.Second {
		t.Fatalf("a loop held its request %v past a 0.2 s timeout", took)
	}
	grow := get(gatewayOf(t, written(t, "grow.wasm", growCommand), written(t, "k.wasm", trapReactor), time.Second),
		"GET", freshPath)
	if grow.Code != 500 {
		t.Fatalf("memory.grow past the cap: %d", grow.Code)
	}
	// a kept instance that traps is replaced, not kept
	for i := 0; i < 3; i++ {
		if kept := get(g, "GET", keptPath); kept.Code != 500 {
			t.Fatalf("a kept instance's trap: %d", kept.Code)
		}
	}
	if len(g.made) != 0 || len(g.idle) != 0 {
		t.Fatalf("trapped instances still counted: %d made, %d idle", len(g.made), len(g.idle))
	}
}

func TestTheProgramsOutputIsReadAsCgiSaysOrRefused(t *testing.T) {
	page := "Content-Type: text/html\r\nContent-Length: 5\r\n\r\nhello"
	response, err := readCGI([]byte(page))
	if err != nil || response.status != 200 || string(response.body) != "hello" ||
		response.header.Get("Content-Type") != "text/html" || response.header.Get("Content-Length") != "" {
		t.Fatalf("%v %+v", err, response)
	}
	response, err = readCGI([]byte("Status: 404 Not Found\nContent-Type: text/plain\n\nno"))
	if err != nil || response.status != 404 || string(response.body) != "no" {
		t.Fatalf("%v %+v", err, response)
	}
	// the first empty line ends the header, whatever the body holds after it
	response, err = readCGI([]byte("Content-Type: text/plain\n\na\r\n\r\nb"))
	if err != nil || string(response.body) != "a\r\n\r\nb" {
		t.Fatalf("%v %+v", err, response)
	}
	for _, bad := range []string{
		"Content-Type: text/html\r\nContent-Length: 6\r\n\r\nhello",
		"Content-Type: text/html\r\nhello",
		"Content-Type text/html\r\n\r\nhello",
		"Status: 99\r\nContent-Type: text/html\r\n\r\n",
		"Content-Length: 0\r\n\r\n",
	} {
		if _, err := readCGI([]byte(bad)); err == nil {
			t.Fatalf("accepted %q", bad)
		}
	}
}

func TestTheEnvironmentIsCgisWithoutHttpProxy(t *testing.T) {
	r := httptest.NewRequest("HEAD", "/spice/wasm/spice?a=b", nil)
	r.Header.Set("Proxy", "http://evil")
	r.Header.Set("User-Agent", "spice")
	env := map[string]string{}
	pairs := cgiEnvironment(r)
	for i := 0; i+1 < len(pairs); i += 2 {
		env[pairs[i]] = pairs[i+1]
	}
	if env["REQUEST_METHOD"] != "HEAD" || env["QUERY_STRING"] != "a=b" || env["HTTP_USER_AGENT"] != "spice" ||
		env["GATEWAY_INTERFACE"] != "CGI/1.1" || env["SCRIPT_NAME"] != "/spice/wasm/spice" ||
		env["REQUEST_URI"] != "/spice/wasm/spice?a=b" || env["REMOTE_ADDR"] != "192.0.2.1" ||
		env["REMOTE_PORT"] != "1234" || env["HTTP_HOST"] != "example.com" {
		t.Fatalf("%v", env)
	}
	if _, found := env["HTTP_PROXY"]; found {
		t.Fatalf("HTTP_PROXY passed: %v", env)
	}
}

func TestOptionsAreCheckedBeforeAnythingStarts(t *testing.T) {
	if _, err := parse([]string{"--listen", "unix:/tmp/x.sock", "--command", "a.wasm", "--kept", "b.wasm"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{
		{"--command", "a.wasm", "--kept", "b.wasm"},
		{"--listen", "unix:/tmp/x.sock", "--kept", "b.wasm"},
		{"--listen", "unix:/tmp/x.sock", "--command", "a.wasm", "--kept", "b.wasm", "--instances", "0"},
		{"--listen", "unix:/tmp/x.sock", "--command", "a.wasm", "--kept", "b.wasm", "--timeout", "-1s"},
		{"--listen", "unix:/tmp/x.sock", "--command", "a.wasm", "--kept", "b.wasm", "extra"},
	} {
		if _, err := parse(bad); err == nil {
			t.Fatalf("accepted %v", bad)
		}
	}
}

func TestAProgramMayWriteNoMoreThanTheLimit(t *testing.T) {
	var out bytes.Buffer
	limited := &limitedWriter{to: &out, left: 10}
	if n, err := limited.Write([]byte("0123456789")); n != 10 || err != nil {
		t.Fatalf("%d %v", n, err)
	}
	if _, err := limited.Write([]byte("x")); err == nil || out.Len() != 10 {
		t.Fatalf("wrote past the limit: %q", out.String())
	}
}
