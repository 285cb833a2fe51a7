/*
 * The SPICE FastCGI probe: the CGI program kept resident, the modern "CGIplus" of the WASD report.
 *
 * Same response as the CGI probe, byte for byte (same generated buffer, one write per request), but
 * the process is started once and answers request after request over FastCGI: what a CGI request
 * costs beyond this is process creation.
 *
 *   spice-fcgi 127.0.0.1:PORT   listen there itself
 *   spice-fcgi                  the FastCGI convention: the listening socket is file descriptor 0
 *                               (spawn-fcgi, or a server's process manager, sets it up)
 *
 * It runs SPICE_FCGI_THREADS threads (default 64), each accepting one connection at a time: a server
 * that keeps its FastCGI connections open (Jetty does) holds one thread per connection.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcgiapp.h>

#include "spice_page.h"

static const char response[] =
    "Content-Type: " SPICE_CONTENT_TYPE "\r\n"
    "Content-Length: " SPICE_PAGE_BYTES_TEXT "\r\n"
    "\r\n"
    SPICE_PAGE;

static int listen_socket;

static void *serve(void *unused)
{
    FCGX_Request request;

    (void)unused;
    if (FCGX_InitRequest(&request, listen_socket, 0) != 0)
        return NULL;
    while (FCGX_Accept_r(&request) == 0) {
        FCGX_PutStr(response, (int)(sizeof(response) - 1), request.out);
        FCGX_Finish_r(&request);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *threads_text = getenv("SPICE_FCGI_THREADS");
    int threads = threads_text != NULL ? atoi(threads_text) : 64;

    if (threads < 1 || threads > 1024) {
        fprintf(stderr, "spice-fcgi: SPICE_FCGI_THREADS must be 1 to 1024\n");
        return 2;
    }
    if (FCGX_Init() != 0) {
        fprintf(stderr, "spice-fcgi: FCGX_Init failed\n");
        return 1;
    }
    /* libfcgi turns SIGTERM into a "shutdown pending" flag that threads blocked in accept never see:
     * the process manager (here, the server scripts) must be able to stop the probe with SIGTERM. */
    signal(SIGTERM, SIG_DFL);
    listen_socket = 0;
    if (argc > 1) {
        errno = 0;
        listen_socket = FCGX_OpenSocket(argv[1], 511);
        if (listen_socket < 0) {
            /* libfcgi returns -1 and leaves bind's or listen's errno: the cause, said */
            fprintf(stderr, "spice-fcgi: cannot listen on %s: %s\n", argv[1], errno ? strerror(errno) : "no reason given");
            return 1;
        }
    }

    pthread_t *pool = calloc((size_t)threads, sizeof(pthread_t));
    if (pool == NULL)
        return 1;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&pool[i], NULL, serve, NULL) != 0) {
            fprintf(stderr, "spice-fcgi: cannot start thread %d\n", i);
            return 1;
        }
    }
    for (int i = 0; i < threads; i++)
        pthread_join(pool[i], NULL);
    free(pool);
    return 0;
}
