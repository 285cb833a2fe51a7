/*
 * mod_spice: the SPICE module probe for Apache httpd, in the server's native C API.
 *
 * One content handler, "spice-probe", that answers the canonical page from a buffer compiled into
 * the module: no file, no process, no parsing. What it costs over the static file is what httpd's
 * handler dispatch costs.
 *
 *   LoadModule spice_module modules/mod_spice.so
 *   <Location "/spice/module">
 *       SetHandler spice-probe
 *   </Location>
 */
#include "httpd.h"
#include "http_config.h"
#include "http_protocol.h"
#include "http_request.h"
#include "ap_config.h"

#include "spice_page.h"

static const char spice_page[] = SPICE_PAGE;

static int spice_handler(request_rec *r)
{
    if (r->handler == NULL || strcmp(r->handler, "spice-probe") != 0) {
        return DECLINED;
    }
    if (r->method_number != M_GET) {    /* HEAD is a GET with header_only set */
        return HTTP_METHOD_NOT_ALLOWED;
    }
    ap_set_content_type(r, SPICE_CONTENT_TYPE);
    ap_set_content_length(r, SPICE_PAGE_BYTES);
    if (!r->header_only) {
        ap_rwrite(spice_page, SPICE_PAGE_BYTES, r);
    }
    return OK;
}

/*
 * Every SPICE probe answers GET and HEAD only. httpd.conf refuses the other methods (AllowMethods)
 * before any handler runs, and httpd builds the Allow header of that 405 from r->allowed_methods, which
 * nothing has set by then: name GET (and so HEAD) for the /spice/ URLs as soon as the request is read.
 */
static int spice_allowed_methods(request_rec *r)
{
    if (r->uri != NULL && strncmp(r->uri, "/spice/", 7) == 0) {
        ap_allow_methods(r, REPLACE_ALLOW, "GET", NULL);
    }
    return DECLINED;
}

static void spice_register_hooks(apr_pool_t *p)
{
    (void)p;
    ap_hook_post_read_request(spice_allowed_methods, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_handler(spice_handler, NULL, NULL, APR_HOOK_MIDDLE);
}

AP_DECLARE_MODULE(spice) = {
    STANDARD20_MODULE_STUFF,
    NULL,                   /* per-directory config creator */
    NULL,                   /* dir config merger */
    NULL,                   /* server config creator */
    NULL,                   /* server config merger */
    NULL,                   /* command table */
    spice_register_hooks    /* hook registration */
};
