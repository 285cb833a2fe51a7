package org.spice.shtml;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.Charset;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
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
 * {@code allowExec} is set (SPICE never sets it); with {@code buffered} the page is written at once.
 */
public class SpiceSSIServlet extends SSIServlet {

    private static final long serialVersionUID = 1L;

    /**
     * SPICE's defaults where the deployment names none: the page's own charset (the probes' one
     * Content-Type, CanonicalPage.CONTENT_TYPE), and the page written at once.
     */
    @Override
    public void init() throws ServletException {
        super.init();
        if (getServletConfig().getInitParameter("outputEncoding") == null) {
            outputEncoding = "US-ASCII";
        }
        if (getServletConfig().getInitParameter("buffered") == null) {
            buffered = true;
        }
    }

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
            PageBuffer buffer = buffered ? new PageBuffer() : null;
            PrintWriter writer = buffered ? buffer : res.getWriter();
            long lastModified = processor.process(reader, resourceInfo.getLastModified(), writer);
            if (lastModified > 0) {
                res.setDateHeader("last-modified", lastModified);
            }
            if (buffer != null) {
                byte[] page = buffer.text().getBytes(res.getCharacterEncoding());
                res.setContentLength(page.length);
                res.getOutputStream().write(page);
            }
        }
    }

    /**
     * Where the processor writes with {@code buffered}: it writes the page a character at a time, and a
     * PrintWriter over a StringWriter takes two locks per character (PrintWriter's and StringBuffer's);
     * on Jetty, a response writer per character made SHTML four times dearer than on Tomcat. One thread
     * writes here, so no lock is needed; the page then goes out in one write, with its Content-Length.
     */
    static final class PageBuffer extends PrintWriter {

        private final StringBuilder text = new StringBuilder(8192);

        PageBuffer() {
            super(Writer.nullWriter());
        }

        String text() {
            return text.toString();
        }

        @Override
        public void write(int c) {
            text.append((char) c);
        }

        @Override
        public void write(char[] buf, int off, int len) {
            text.append(buf, off, len);
        }

        @Override
        public void write(String s, int off, int len) {
            text.append(s, off, off + len);
        }

        @Override
        public void flush() {
            // nothing is held anywhere else
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
