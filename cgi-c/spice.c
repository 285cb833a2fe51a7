/*
 * The SPICE CGI probe: the least a CGI program can do to answer the canonical page.
 *
 * The CGI header and the page are one precomputed buffer, written with one write(2) (the loop only
 * matters if the pipe takes less at once). It reads neither its input nor its environment: every
 * microsecond it spends is the cost of CGI itself, process creation included.
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

int main(void)
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
