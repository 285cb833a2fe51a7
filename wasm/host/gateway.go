package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// The probes' paths, as every server lays them out (org.spice.page.Probe).
const (
	freshPath = "/spice/wasm/spice"
	keptPath  = "/spice/wasm-kept/spice"
)

// gateway answers FastCGI requests from WebAssembly instances: a new one per request, or a kept one.
type gateway struct {
	settings settings
	runtime  wazero.Runtime
	command  wazero.CompiledModule
	reactor  wazero.CompiledModule
	// kept instances not in use; made as requests need them, up to settings.instances
	idle chan *keptInstance
	made chan struct{}
	// fresh instances under way, up to settings.instances (as fcgiwrap runs at most -c programs at once)
	running chan struct{}
	buffers sync.Pool
}

// keptInstance is one instance of the reactor module, called for one request at a time; its standard output goes
// to the request under way.
type keptInstance struct {
	module  api.Module
	respond api.Function
	out     *switchedWriter
}

// outputLimit: what a program may write for one request, 160 times the default page; past it, the request fails
// rather than the host's memory.
const outputLimit = 1 << 20

// limitedWriter writes to another until its limit, then fails.
type limitedWriter struct {
	to   io.Writer
	left int
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		return 0, fmt.Errorf("the program wrote more than %d bytes", outputLimit)
	}
	w.left -= len(p)
	return w.to.Write(p)
}

// switchedWriter writes to whatever it was last pointed at.
type switchedWriter struct{ to io.Writer }

func (w *switchedWriter) Write(p []byte) (int, error) { return w.to.Write(p) }

func newGateway(ctx context.Context, s settings) (*gateway, error) {
	// compiled ahead of time where wazero can (amd64, arm64), an interpreter elsewhere; execution that runs past its
	// context's deadline is stopped, and memory is capped
	runtime := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(true).
		WithMemoryLimitPages(uint32(s.memoryPages)))
	g := &gateway{settings: s, runtime: runtime, idle: make(chan *keptInstance, s.instances),
		made: make(chan struct{}, s.instances), running: make(chan struct{}, s.instances)}
	g.buffers.New = func() any { return new(bytes.Buffer) }
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, runtime); err != nil {
		runtime.Close(ctx)
		return nil, err
	}
	var err error
	if g.command, err = compile(ctx, runtime, s.command); err == nil {
		g.reactor, err = compile(ctx, runtime, s.kept)
	}
	if err == nil && g.reactor.ExportedFunctions()["spice_respond"] == nil {
		err = fmt.Errorf("%s exports no spice_respond (built with -DSPICE_REACTOR -mexec-model=reactor?)", s.kept)
	}
	if err != nil {
		runtime.Close(ctx)
		return nil, err
	}
	return g, nil
}

func compile(ctx context.Context, runtime wazero.Runtime, path string) (wazero.CompiledModule, error) {
	code, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	compiled, err := runtime.CompileModule(ctx, code)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return compiled, nil
}

func (g *gateway) close(ctx context.Context) { g.runtime.Close(ctx) }

func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "only GET and HEAD", http.StatusMethodNotAllowed)
		return
	}
	out := g.buffers.Get().(*bytes.Buffer)
	out.Reset()
	defer g.buffers.Put(out)
	ctx, cancel := context.WithTimeout(r.Context(), g.settings.timeout)
	defer cancel()
	limited := &limitedWriter{to: out, left: outputLimit}
	var err error
	switch {
	case strings.HasSuffix(r.URL.Path, freshPath):
		err = g.fresh(ctx, cgiEnvironment(r), limited)
	case strings.HasSuffix(r.URL.Path, keptPath):
		err = g.kept(ctx, limited)
	default:
		http.NotFound(w, r)
		return
	}
	if err == nil {
		err = writeCGI(w, out.Bytes())
	}
	if err != nil {
		status := http.StatusInternalServerError
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			status = http.StatusGatewayTimeout
		}
		log.Printf("%s: %v", r.URL.Path, err)
		http.Error(w, http.StatusText(status), status)
	}
}

// fresh runs the command module in an instance of its own: _start, main, the page on its standard output.
func (g *gateway) fresh(ctx context.Context, env []string, out io.Writer) error {
	select {
	case g.running <- struct{}{}:
		defer func() { <-g.running }()
	case <-ctx.Done():
		return ctx.Err()
	}
	config := wazero.NewModuleConfig().WithName("").WithArgs("spice").WithStdout(out).WithStderr(os.Stderr)
	for i := 0; i+1 < len(env); i += 2 {
		config = config.WithEnv(env[i], env[i+1])
	}
	module, err := g.runtime.InstantiateModule(ctx, g.command, config)
	if module != nil {
		module.Close(ctx)
	}
	return exited(err)
}

// exited: a command that returned from main, or called exit(0), succeeded; anything else did not.
func exited(err error) error {
	var exit *sys.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 0 {
		return nil
	}
	return err
}

// kept calls spice_respond in an idle kept instance, or a new one while fewer than --instances were made, or
// waits for one to be free.
func (g *gateway) kept(ctx context.Context, out io.Writer) error {
	instance, err := g.take(ctx)
	if err != nil {
		return err
	}
	instance.out.to = out
	results, err := instance.respond.Call(ctx)
	instance.out.to = io.Discard
	if err == nil && (len(results) != 1 || results[0] != 0) {
		err = fmt.Errorf("spice_respond returned %v", results)
	}
	if err != nil {
		// a trap or a deadline leaves the instance closed, or in a state no one can vouch for: a new one replaces it
		instance.module.Close(context.Background())
		<-g.made
		return err
	}
	g.idle <- instance
	return nil
}

func (g *gateway) take(ctx context.Context) (*keptInstance, error) {
	// an idle instance first: a select over all three would make new ones at random while idle ones wait
	select {
	case instance := <-g.idle:
		return instance, nil
	default:
	}
	select {
	case instance := <-g.idle:
		return instance, nil
	case g.made <- struct{}{}:
		instance, err := g.instantiateKept(ctx)
		if err != nil {
			<-g.made
		}
		return instance, err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *gateway) instantiateKept(ctx context.Context) (*keptInstance, error) {
	out := &switchedWriter{to: io.Discard}
	// a reactor: _initialize sets up its libc once, then its exports are called as often as wanted
	config := wazero.NewModuleConfig().WithName("").WithArgs("spice").WithStdout(out).WithStderr(os.Stderr).
		WithStartFunctions("_initialize")
	// the request's context bounds _initialize; the instance outlives it (wazero watches a context only during a call)
	module, err := g.runtime.InstantiateModule(ctx, g.reactor, config)
	if err != nil {
		return nil, err
	}
	return &keptInstance{module: module, respond: module.ExportedFunction("spice_respond"), out: out}, nil
}
