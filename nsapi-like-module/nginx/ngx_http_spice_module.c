/*
 * ngx_http_spice_module: the SPICE module probe for nginx, in the server's native C API.
 *
 * One location handler, set by the "spice_probe" directive, that answers the canonical page from a
 * buffer compiled into the module: no file, no process, no parsing. What it costs over the static file
 * is what nginx's content-phase dispatch costs. The nginx counterpart of mod_spice.c.
 *
 *   load_module modules/ngx_http_spice_module.so;
 *   location = /spice/module {
 *       spice_probe;
 *   }
 */
#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "spice_page.h"

static char *ngx_http_spice_probe(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);

static ngx_command_t ngx_http_spice_commands[] = {
    { ngx_string("spice_probe"),
      NGX_HTTP_LOC_CONF | NGX_CONF_NOARGS,
      ngx_http_spice_probe,
      0,
      0,
      NULL },
    ngx_null_command
};

static ngx_http_module_t ngx_http_spice_module_ctx = {
    NULL,                   /* preconfiguration */
    NULL,                   /* postconfiguration */
    NULL,                   /* create main configuration */
    NULL,                   /* init main configuration */
    NULL,                   /* create server configuration */
    NULL,                   /* merge server configuration */
    NULL,                   /* create location configuration */
    NULL                    /* merge location configuration */
};

ngx_module_t ngx_http_spice_module = {
    NGX_MODULE_V1,
    &ngx_http_spice_module_ctx,
    ngx_http_spice_commands,
    NGX_HTTP_MODULE,
    NULL,                   /* init master */
    NULL,                   /* init module */
    NULL,                   /* init process */
    NULL,                   /* init thread */
    NULL,                   /* exit thread */
    NULL,                   /* exit process */
    NULL,                   /* exit master */
    NGX_MODULE_V1_PADDING
};

static u_char spice_page[] = SPICE_PAGE;
static u_char spice_content_type[] = SPICE_CONTENT_TYPE;

static ngx_int_t ngx_http_spice_handler(ngx_http_request_t *r)
{
    ngx_int_t    rc;
    ngx_buf_t   *b;
    ngx_chain_t  out;

    if (!(r->method & (NGX_HTTP_GET | NGX_HTTP_HEAD))) {
        return NGX_HTTP_NOT_ALLOWED;
    }
    rc = ngx_http_discard_request_body(r);
    if (rc != NGX_OK) {
        return rc;
    }

    r->headers_out.status = NGX_HTTP_OK;
    r->headers_out.content_length_n = SPICE_PAGE_BYTES;
    r->headers_out.content_type.data = spice_content_type;
    r->headers_out.content_type.len = sizeof(spice_content_type) - 1;
    /* content_type_len is the type without its parameters ("text/html"), as nginx's filters match it. */
    r->headers_out.content_type_len = ngx_strlchr(spice_content_type,
        spice_content_type + sizeof(spice_content_type) - 1, ';') - spice_content_type;

    rc = ngx_http_send_header(r);
    if (rc == NGX_ERROR || rc > NGX_OK || r->header_only) {
        return rc;
    }

    b = ngx_calloc_buf(r->pool);
    if (b == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }
    /* The page itself, not a copy: nginx sends read-only memory as it is. */
    b->pos = spice_page;
    b->last = spice_page + SPICE_PAGE_BYTES;
    b->memory = 1;
    b->last_buf = (r == r->main);
    b->last_in_chain = 1;

    out.buf = b;
    out.next = NULL;
    return ngx_http_output_filter(r, &out);
}

static char *ngx_http_spice_probe(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_core_loc_conf_t  *clcf;

    (void) cmd;
    (void) conf;
    clcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_core_module);
    clcf->handler = ngx_http_spice_handler;
    return NGX_CONF_OK;
}
