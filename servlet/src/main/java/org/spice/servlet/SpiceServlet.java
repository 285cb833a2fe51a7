package org.spice.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.spice.page.CanonicalPage;

/**
 * The servlet probe: the least a servlet can do to return the canonical page, a write of a byte
 * array computed once, with its Content-Length so the container need not buffer or chunk it.
 */
public class SpiceServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private static final byte[] PAGE = CanonicalPage.built().fixedBytes();

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        writeHead(response);
        response.getOutputStream().write(PAGE);
    }

    /** HEAD: the same head, no body, and no detour through doGet's output. */
    @Override
    protected void doHead(HttpServletRequest request, HttpServletResponse response) {
        writeHead(response);
    }

    private static void writeHead(HttpServletResponse response) {
        response.setContentType(CanonicalPage.CONTENT_TYPE);
        response.setContentLength(PAGE.length);
    }
}
