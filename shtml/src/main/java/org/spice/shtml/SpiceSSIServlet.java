package org.spice.shtml;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.Charset;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.catalina.ssi.SSIMediator;
import org.apache.catalina.ssi.SSIProcessor;
import org.apache.catalina.ssi.SSIServlet;
import org.apache.catalina.ssi.SSIServletExternalResolver;

/**
 * Tomcat's SSI servlet with DATE_LOCAL, DATE_GMT and LAST_MODIFIED working again.
 *
 * <p>Since Tomcat 11.0.23 / 10.1.56 the servlet resolver treats every request attribute whose name
 * starts with {@code org.apache.catalina.} as reserved. The SSI mediator keeps its date variables in
 * exactly such attributes ({@code org.apache.catalina.ssi.SSIMediator.DATE_LOCAL}), so
 * {@code <!--#echo var="DATE_LOCAL" -->} prints {@code (none)}. This servlet uses a resolver that
 * lets the mediator's own names through and still reserves every other container name.
 *
 * <p>Processing is otherwise Tomcat's: same init parameters, same processor, exec stays off unless
 * {@code allowExec} is set (SPICE never sets it).
 */
public class SpiceSSIServlet extends SSIServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void processSSI(HttpServletRequest req, HttpServletResponse res, URL resource) throws IOException {
        SSIProcessor processor = new SSIProcessor(
                new MediatorDatesResolver(getServletContext(), req, res, isVirtualWebappRelative, debug, inputEncoding),
                debug, allowExec);
        URLConnection resourceInfo = resource.openConnection();
        String encoding = resourceInfo.getContentEncoding() != null ? resourceInfo.getContentEncoding() : inputEncoding;
        InputStream in = resourceInfo.getInputStream();
        try (BufferedReader reader = new BufferedReader(encoding == null
                ? new InputStreamReader(in, Charset.defaultCharset()) : new InputStreamReader(in, encoding))) {
            PrintWriter writer;
            StringWriter buffer = null;
            if (buffered) {
                buffer = new StringWriter();
                writer = new PrintWriter(buffer);
            } else {
                writer = res.getWriter();
            }
            long lastModified = processor.process(reader, resourceInfo.getLastModified(), writer);
            if (lastModified > 0) {
                res.setDateHeader("last-modified", lastModified);
            }
            if (buffer != null) {
                writer.flush();
                res.getWriter().write(buffer.toString());
            }
        }
    }

    /** The servlet resolver, minus the reservation of the mediator's own variable names. */
    static final class MediatorDatesResolver extends SSIServletExternalResolver {

        private static final String MEDIATOR_PREFIX = SSIMediator.class.getName() + ".";

        MediatorDatesResolver(ServletContext context, HttpServletRequest req, HttpServletResponse res,
                boolean isVirtualWebappRelative, int debug, String inputEncoding) {
            super(context, req, res, isVirtualWebappRelative, debug, inputEncoding);
        }

        @Override
        protected boolean isNameReserved(String name) {
            return !name.startsWith(MEDIATOR_PREFIX) && super.isNameReserved(name);
        }
    }
}
