package main

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/fcgi"
	"net/textproto"
	"sort"
	"strconv"
	"strings"
)

// cgiEnvironment is the request as CGI/1.1 gives it to a program (RFC 3875, 4.1): the variables the front server sent
// over FastCGI, with those Go's FastCGI child takes into the request (the method, the URI, the script's name, the
// client's address, the body's length and type, a HTTP_ variable per header) given back from it; as name, value
// pairs. No HTTP_PROXY: a client's "Proxy:" header must never become a program's proxy setting (httpoxy).
func cgiEnvironment(r *http.Request) []string {
	vars := map[string]string{}
	for name, value := range fcgi.ProcessEnv(r) {
		vars[name] = value
	}
	vars["GATEWAY_INTERFACE"] = "CGI/1.1"
	vars["REQUEST_METHOD"] = r.Method
	vars["REQUEST_URI"] = r.RequestURI
	vars["SCRIPT_NAME"] = r.URL.Path
	vars["QUERY_STRING"] = r.URL.RawQuery
	vars["SERVER_PROTOCOL"] = r.Proto
	if host, port, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		vars["REMOTE_ADDR"], vars["REMOTE_PORT"] = host, port
	}
	if r.ContentLength > 0 {
		vars["CONTENT_LENGTH"] = strconv.FormatInt(r.ContentLength, 10)
	}
	if r.TLS != nil {
		vars["HTTPS"] = "on"
	}
	if r.Host != "" {
		vars["HTTP_HOST"] = r.Host
	}
	for name, values := range r.Header {
		if name == "Proxy" {
			continue
		}
		key := "HTTP_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if name == "Content-Type" {
			key = "CONTENT_TYPE"
		}
		vars[key] = strings.Join(values, ", ")
	}
	names := make([]string, 0, len(vars))
	for name := range vars {
		names = append(names, name)
	}
	sort.Strings(names)
	env := make([]string, 0, 2*len(names))
	for _, name := range names {
		env = append(env, name, vars[name])
	}
	return env
}

// cgiResponse is a CGI program's output read: its status, its header fields, its body.
type cgiResponse struct {
	status int
	header http.Header
	body   []byte
}

// readCGI reads a CGI program's output (RFC 3875, 6): header lines, an empty line, the body. A Status field gives
// the status (200 without one); a Content-Length must be the body's. Anything else is the program's failure.
func readCGI(out []byte) (cgiResponse, error) {
	response := cgiResponse{status: http.StatusOK, header: http.Header{}}
	// the header ends at the first empty line, whichever line ends the program uses
	crlf, lf := bytes.Index(out, []byte("\r\n\r\n")), bytes.Index(out, []byte("\n\n"))
	var head, body []byte
	switch {
	case crlf >= 0 && (lf < 0 || crlf < lf):
		head, body = out[:crlf], out[crlf+4:]
	case lf >= 0:
		head, body = out[:lf], out[lf+2:]
	default:
		return response, fmt.Errorf("the program's %d bytes of output hold no end of header", len(out))
	}
	for _, line := range strings.Split(string(head), "\n") {
		line = strings.TrimSuffix(line, "\r")
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return response, fmt.Errorf("the program's header line %q is no field", line)
		}
		value = strings.TrimSpace(value)
		switch textproto.CanonicalMIMEHeaderKey(name) {
		case "Status":
			code, err := strconv.Atoi(strings.SplitN(value, " ", 2)[0])
			if err != nil || code < 100 || code > 599 {
				return response, fmt.Errorf("the program's Status %q is no status", value)
			}
			response.status = code
		case "Content-Length":
			length, err := strconv.Atoi(value)
			if err != nil || length != len(body) {
				return response, fmt.Errorf("the program's Content-Length %q is not its body's %d bytes", value, len(body))
			}
		default:
			response.header.Add(name, value)
		}
	}
	if response.header.Get("Content-Type") == "" {
		return response, errors.New("the program gave no Content-Type")
	}
	response.body = body
	return response, nil
}

// writeCGI answers with a CGI program's output, or says why it cannot (nothing written then).
func writeCGI(w http.ResponseWriter, out []byte) error {
	response, err := readCGI(out)
	if err != nil {
		return err
	}
	for name, values := range response.header {
		w.Header()[name] = values
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(response.body)))
	w.WriteHeader(response.status)
	// a write that fails is the front server gone: nothing more can be said to it
	w.Write(response.body)
	return nil
}
