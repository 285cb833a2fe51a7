// The node probe: a Node.js program that is its own HTTP server (node:http), answering the page from a Buffer built
// once, when the program starts. Generated into runtimes/target/node/ from the canonical page
// (org.spice.page.Generate). It listens on the Unix socket SPICE_NODE_SOCKET names, for the front server's HTTP proxy
// (httpd's mod_proxy_http, nginx's proxy_pass): what it costs over the static file is the proxy's hop and Node's
// request handling.
import http from 'node:http';

const PAGE = Buffer.from(@PAGE_LITERAL@, 'latin1');
const HEADERS = { 'Content-Type': '@PAGE_CONTENT_TYPE@', 'Content-Length': PAGE.length };
const PATH = '/spice/node/spice';

const socket = process.env.SPICE_NODE_SOCKET;
if (!socket) {
    console.error('spice.mjs: SPICE_NODE_SOCKET names no socket to listen on');
    process.exit(2);
}

const server = http.createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { Allow: 'GET, HEAD' });
        response.end();
        return;
    }
    const query = request.url.indexOf('?');
    if ((query < 0 ? request.url : request.url.slice(0, query)) !== PATH) {
        response.writeHead(404);
        response.end();
        return;
    }
    response.writeHead(200, HEADERS);
    // node:http sends no body to a HEAD request, whatever end is given
    response.end(PAGE);
});
// slow clients are the front server's to wait for: these bound what one could hold here
server.headersTimeout = 10000;
server.requestTimeout = 10000;
server.listen(socket, () => console.log(`spice.mjs: serving ${PATH} on ${socket}, ${PAGE.length} bytes`));
