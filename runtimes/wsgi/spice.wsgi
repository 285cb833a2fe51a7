# The wsgi probe: a WSGI application (PEP 3333) returning the page, as bytes built once when the process loads the
# file (mod_wsgi's daemon process, uWSGI's workers). Generated into runtimes/target/wsgi/ from the canonical page
# (org.spice.page.Generate).
PAGE = @PAGE_LITERAL@
HEADERS = [('Content-Type', '@PAGE_CONTENT_TYPE@'), ('Content-Length', str(len(PAGE)))]


def application(environ, start_response):
    start_response('200 OK', HEADERS)
    return [PAGE]
