/*
 * The SPICE CGI probe: the least a CGI program can do to answer the canonical page.
 *
 * The CGI header and the page are one precomputed buffer, written with one write(2) (the loop only
 * matters if the pipe takes less at once). It reads neither its input nor its environment: every
 * microsecond it spends is the cost of CGI itself, process creation included. The same source, built for
 * wasm32-wasi, is the wasm and wasm-kept probes (wasm/).
 */
#include <errno.h>
#include <unistd.h>

#include "spice_page.h"

static const char response[] =
    "Content-Type: " SPICE_CONTENT_TYPE "\r\n"
    "Content-Length: " SPICE_PAGE_BYTES_TEXT "\r\n"
    "\r\n"
    SPICE_PAGE;

_Static_assert(sizeof(SPICE_PAGE) - 1 == SPICE_PAGE_BYTES, "the generated page has the size it declares");

/*
 * The response, on standard output. As a CGI program, main writes it once and the process ends. Built for
 * WebAssembly as a reactor (-DSPICE_REACTOR: wasm/Makefile), the same function is exported, and a host that keeps
 * one instance calls it for each request: the one program served both ways, a process or an instance at a time.
 */
#ifdef SPICE_REACTOR
__attribute__((export_name("spice_respond")))
#endif
int spice_respond(void)
{
    const char *next = response;
    size_t left = sizeof(response) - 1;

    while (left > 0) {
        ssize_t written = write(STDOUT_FILENO, next, left);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }
        next += written;
        left -= (size_t)written;
    }
    return 0;
}

#ifndef SPICE_REACTOR
int main(void)
{
    return spice_respond();
}
#endif
