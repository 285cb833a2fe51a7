package org.spice.module.tomcat;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.tomcat.util.buf.MessageBytes;

/**
 * Every SPICE probe answers GET and HEAD only, over HTTP/1.0 or later: this Valve, first in the Host
 * pipeline, answers 405 to any other method before a context sees it — including contexts that have no web.xml of their own
 * (the static fileset), whose default servlet would serve a POST as a GET. The method is compared in
 * the connector's buffer, so the requests that pass cost no allocation.
 */
public class GetHeadOnlyValve extends ValveBase {

    public GetHeadOnlyValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        // Tomcat answers an HTTP/0.9 request ("GET /path", no version: an empty protocol) with the bare
        // body and has no setting against it; httpd refuses it, Jetty answers 505: refuse it here too.
        if (request.getCoyoteRequest().protocol().isNull() || request.getCoyoteRequest().protocol().equals("")) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST);
            return;
        }
        MessageBytes method = request.getCoyoteRequest().method();
        if (method.equals("GET") || method.equals("HEAD")) {
            getNext().invoke(request, response);
            return;
        }
        response.setHeader("Allow", "GET, HEAD");
        // Closing spares the wait for a request body that may never come: with the connection kept,
        // Tomcat would first read (swallow) the promised body, up to its connection timeout.
        response.setHeader("Connection", "close");
        response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
    }
}
