package org.spice.module.tomcat;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.spice.page.CanonicalPage;

/**
 * The module probe for Tomcat: a Valve, Tomcat's native in-process extension point, that answers
 * the canonical page at one path before any servlet, filter or session machinery runs.
 *
 * <p>Configure it in a Host (or Engine) pipeline:
 * {@code <Valve className="org.spice.module.tomcat.SpiceProbeValve" path="/spice/module"/>}.
 * Every other request passes on down the pipeline untouched.
 */
public class SpiceProbeValve extends ValveBase {

    private static final byte[] PAGE = CanonicalPage.built().fixedBytes();

    private String path = "/spice/module";

    public SpiceProbeValve() {
        super(true);
    }

    /** The request path the probe answers; the default is the SPICE URL layout's. */
    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        // Every request of the Host passes here, so the path is compared in the connector's buffer, as
        // Tomcat's HealthCheckValve does: getDecodedRequestURI() would build a String per request.
        if (!request.getDecodedRequestURIMB().equals(path)) {
            getNext().invoke(request, response);
            return;
        }
        String method = request.getMethod();
        boolean head = "HEAD".equals(method);
        if (!head && !"GET".equals(method)) {
            response.setHeader("Allow", "GET, HEAD");
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        response.setContentType(CanonicalPage.CONTENT_TYPE);
        response.setContentLength(PAGE.length);
        if (!head) {
            response.getOutputStream().write(PAGE);
        }
    }
}
