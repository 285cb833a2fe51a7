// spice-wasm: the CGI probe (cgi-c/spice.c) compiled to WebAssembly (wasm32-wasi), served over FastCGI by
// wazero, for a front server (nginx's fastcgi_pass, httpd's mod_proxy_fcgi) to reach as it reaches fcgiwrap:
//
//	/spice/wasm/spice       a fresh instance per request, from a module compiled once, with CGI's environment
//	                        in and CGI's output out (WAGI's contract): the wasm probe
//	/spice/wasm-kept/spice  one of the instances kept, its exported spice_respond called per request: the
//	                        wasm-kept probe
//
// An instance that traps, exits with a status or runs past --timeout gets a 5xx, and the host goes on; each
// instance's memory is capped at --memory-pages (64 KiB each).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http/fcgi"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// settings: what the command line asks for.
type settings struct {
	listen      string
	command     string
	kept        string
	instances   int
	timeout     time.Duration
	memoryPages uint
}

func parse(args []string) (settings, error) {
	var s settings
	flags := flag.NewFlagSet("spice-wasm", flag.ContinueOnError)
	flags.StringVar(&s.listen, "listen", "", "where FastCGI requests come: unix:PATH, or HOST:PORT")
	flags.StringVar(&s.command, "command", "", "the module run as a command, an instance per request (spice.wasm)")
	flags.StringVar(&s.kept, "kept", "", "the module kept, exporting spice_respond (spice-kept.wasm)")
	flags.IntVar(&s.instances, "instances", 64, "at most this many kept instances, one per request under way")
	flags.DurationVar(&s.timeout, "timeout", 5*time.Second, "an instance still running after this gets a 504")
	flags.UintVar(&s.memoryPages, "memory-pages", 256, "an instance's memory at most, in 64 KiB pages")
	if err := flags.Parse(args); err != nil {
		return s, err
	}
	switch {
	case flags.NArg() > 0:
		return s, fmt.Errorf("unexpected argument %q", flags.Arg(0))
	case s.listen == "":
		return s, errors.New("--listen is required (unix:PATH, or HOST:PORT)")
	case s.command == "" || s.kept == "":
		return s, errors.New("--command and --kept are required (spice.wasm and spice-kept.wasm)")
	case s.instances < 1 || s.instances > 4096:
		return s, errors.New("--instances must be 1 to 4096")
	case s.timeout <= 0:
		return s, errors.New("--timeout must be positive")
	case s.memoryPages < 1 || s.memoryPages > 65536:
		return s, errors.New("--memory-pages must be 1 to 65536")
	}
	return s, nil
}

func listen(address string) (net.Listener, error) {
	path, unix := strings.CutPrefix(address, "unix:")
	if !unix {
		return net.Listen("tcp", address)
	}
	// a socket left by a host that was killed would refuse the bind
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	listener, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	// the front server runs as the same user: owner and group only
	if err := os.Chmod(path, 0o660); err != nil {
		listener.Close()
		return nil, err
	}
	return listener, nil
}

func main() {
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	log.SetPrefix("spice-wasm: ")
	s, err := parse(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	g, err := newGateway(ctx, s)
	if err != nil {
		log.Fatal(err)
	}
	defer g.close(context.Background())
	listener, err := listen(s.listen)
	if err != nil {
		log.Fatalf("cannot listen on %s: %v", s.listen, err)
	}
	// SIGTERM closes the listener (a Unix socket's file goes with it), which ends Serve
	go func() {
		<-ctx.Done()
		listener.Close()
	}()
	log.Printf("serving %s (an instance per request) and %s (%d kept at most) on %s", s.command, s.kept, s.instances,
		s.listen)
	if err := fcgi.Serve(listener, g); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
