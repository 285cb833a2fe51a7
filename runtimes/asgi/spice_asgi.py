# The asgi probes: one ASGI application (the ASGI 3 specification) returning the page, as bytes built once when a
# worker imports the module, run by two ASGI servers: uvicorn (asgi-uvicorn) and granian (asgi-granian), each behind
# the front server's HTTP proxy. Generated into runtimes/target/asgi/ from the canonical page (org.spice.page.Generate).
PAGE = @PAGE_LITERAL@
HEADERS = [(b'content-type', b'@PAGE_CONTENT_TYPE@'), (b'content-length', str(len(PAGE)).encode())]
# Each server is reached by the front server at its own probe's path only; the application answers either.
PATHS = frozenset(('/spice/asgi-uvicorn/spice', '/spice/asgi-granian/spice'))


async def application(scope, receive, send):
    if scope['type'] == 'lifespan':
        await lifespan(receive, send)
        return
    if scope['type'] != 'http':
        return
    method = scope['method']
    if method != 'GET' and method != 'HEAD':
        await empty(send, 405, [(b'allow', b'GET, HEAD')])
    elif scope['path'] not in PATHS:
        await empty(send, 404, [])
    else:
        await send({'type': 'http.response.start', 'status': 200, 'headers': HEADERS})
        # HEAD: the same headers, Content-Length the page's, and no body
        await send({'type': 'http.response.body', 'body': PAGE if method == 'GET' else b''})


async def empty(send, status, headers):
    await send({'type': 'http.response.start', 'status': status, 'headers': headers + [(b'content-length', b'0')]})
    await send({'type': 'http.response.body', 'body': b''})


async def lifespan(receive, send):
    """Nothing to set up or tear down: each phase is acknowledged, so that a server's lifespan 'auto' stays quiet."""
    while True:
        message = await receive()
        if message['type'] == 'lifespan.startup':
            await send({'type': 'lifespan.startup.complete'})
        elif message['type'] == 'lifespan.shutdown':
            await send({'type': 'lifespan.shutdown.complete'})
            return
