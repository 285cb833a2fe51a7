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
#include "ap_config.h"

#include "spice_page.h"

static const char spice_page[] = SPICE_PAGE;

static int spice_handler(request_rec *r)
{
    if (r->handler == NULL || strcmp(r->handler, "spice-probe") != 0) {
        return DECLINED;
    }
    r->allowed |= AP_METHOD_BIT << M_GET;
    if (r->method_number != M_GET) {    /* HEAD is a GET with header_only set */
        return HTTP_METHOD_NOT_ALLOWED;
    }
    ap_set_content_type(r, "text/html");
    ap_set_content_length(r, SPICE_PAGE_BYTES);
    if (!r->header_only) {
        ap_rwrite(spice_page, SPICE_PAGE_BYTES, r);
    }
    return OK;
}

static void spice_register_hooks(apr_pool_t *p)
{
    (void)p;
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
