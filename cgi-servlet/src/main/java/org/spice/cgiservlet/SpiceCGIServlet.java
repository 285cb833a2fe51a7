package org.spice.cgiservlet;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The CGI probe on Tomcat: a CGI/1.1 gateway (RFC 3875) for the programs under one directory of the web
 * application, which waits for each program's exit.
 *
 * <p>Why not Tomcat's CGIServlet: after copying the program's output it asks {@code Process.exitValue()}
 * and, when the child has not been reaped yet (almost always, a few microseconds after its last write),
 * sleeps 500 ms before asking again; a CGI request on stock Tomcat costs half a second of latency that
 * has nothing to do with CGI. The class is final in Tomcat 11, so its runner cannot be replaced. This
 * servlet does what that one does for the probe — the program under {@code cgiPathPrefix} named by the
 * first path segment, the CGI environment with the request's headers allowed by the same pattern
 * (no {@code HTTP_PROXY}: httpoxy), stderr logged from a thread, the CGI header read, the body copied —
 * and then waits with {@code waitFor()}. The stock servlet stays measurable as the {@code cgi-stock}
 * probe; a test fails the day Tomcat stops sleeping, and then this class can go.
 *
 * <p>Only GET and HEAD run the program (HEAD through GET, as HttpServlet does); the program never gets
 * the request body.
 */
public class SpiceCGIServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(SpiceCGIServlet.class.getName());
    /** The request headers passed on as HTTP_* variables: Tomcat's default for CGIServlet. */
    private static final Pattern PASSED_HEADERS =
            Pattern.compile("ACCEPT[-0-9A-Z]*|CACHE-CONTROL|COOKIE|HOST|IF-[-0-9A-Z]*|REFERER|USER-AGENT");
    private static final Pattern PROGRAM_NAME = Pattern.compile("[A-Za-z0-9][-_.A-Za-z0-9]*");

    /** The programs' directory inside the web application, as Tomcat's init-param names it. */
    private String cgiPathPrefix = "WEB-INF/cgi";

    @Override
    public void init() throws ServletException {
        String prefix = getInitParameter("cgiPathPrefix");
        if (prefix != null) {
            cgiPathPrefix = prefix;
        }
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String pathInfo = req.getPathInfo() == null ? "" : req.getPathInfo();
        int end = pathInfo.indexOf('/', 1);
        String name = end < 0 ? pathInfo.substring(Math.min(1, pathInfo.length())) : pathInfo.substring(1, end);
        String realDir = getServletContext().getRealPath("/" + cgiPathPrefix);
        File program = realDir == null || !PROGRAM_NAME.matcher(name).matches() ? null : new File(realDir, name);
        if (program == null || !program.isFile() || !program.canExecute()) {
            res.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        String scriptName = req.getContextPath() + req.getServletPath() + "/" + name;
        String extraPath = end < 0 ? "" : pathInfo.substring(end);
        run(program, environment(req, scriptName, extraPath), res);
    }

    /** The CGI/1.1 meta-variables (RFC 3875 section 4.1) for this request. */
    private List<String> environment(HttpServletRequest req, String scriptName, String pathInfo) {
        List<String> env = new ArrayList<>();
        env.add("GATEWAY_INTERFACE=CGI/1.1");
        env.add("SERVER_SOFTWARE=" + getServletContext().getServerInfo().replaceAll("/.*", ""));
        env.add("SERVER_NAME=" + req.getServerName());
        env.add("SERVER_PORT=" + req.getServerPort());
        env.add("SERVER_PROTOCOL=" + req.getProtocol());
        env.add("REQUEST_METHOD=" + req.getMethod());
        env.add("SCRIPT_NAME=" + scriptName);
        env.add("PATH_INFO=" + pathInfo);
        if (!pathInfo.isEmpty()) {
            String translated = getServletContext().getRealPath(pathInfo);
            env.add("PATH_TRANSLATED=" + (translated == null ? "" : translated));
        }
        env.add("QUERY_STRING=" + (req.getQueryString() == null ? "" : req.getQueryString()));
        env.add("REMOTE_ADDR=" + req.getRemoteAddr());
        env.add("REMOTE_HOST=" + req.getRemoteAddr());
        env.add("AUTH_TYPE=" + (req.getAuthType() == null ? "" : req.getAuthType()));
        env.add("REMOTE_USER=" + (req.getRemoteUser() == null ? "" : req.getRemoteUser()));
        env.add("CONTENT_TYPE=");
        env.add("CONTENT_LENGTH=");
        for (String header : Collections.list(req.getHeaderNames())) {
            String upper = header.toUpperCase(Locale.ROOT);
            if (PASSED_HEADERS.matcher(upper).matches()) {
                env.add("HTTP_" + upper.replace('-', '_') + "=" + req.getHeader(header));
            }
        }
        return env;
    }

    /** Runs the program: its header into the response, its body after it, then its exit. */
    private void run(File program, List<String> env, HttpServletResponse res) throws IOException {
        Process process = Runtime.getRuntime().exec(new String[] {program.getPath()}, env.toArray(new String[0]),
                program.getParentFile());
        Thread stderr = new Thread(() -> logLines(process.getErrorStream()), "cgi-stderr");
        stderr.setDaemon(true);
        stderr.start();
        try {
            process.getOutputStream().close();
            InputStream output = process.getInputStream();
            boolean body = header(output, res);
            byte[] buffer = new byte[8192];
            OutputStream out = body ? res.getOutputStream() : OutputStream.nullOutputStream();
            for (int n; (n = output.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
            }
            process.waitFor();
            stderr.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the CGI program ran", e);
        } finally {
            process.destroy();
        }
    }

    /**
     * Reads the CGI header, byte by byte so that not one byte of the body is taken; false if the
     * response became an error page (no body from the program then).
     */
    private static boolean header(InputStream in, HttpServletResponse res) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0; c = in.read()) {
            if (c != '\n') {
                if (c != '\r') {
                    line.append((char) c);
                }
                continue;
            }
            if (line.isEmpty()) {
                return true;
            }
            String text = line.toString();
            line.setLength(0);
            int colon = text.indexOf(':');
            if (text.startsWith("HTTP")) {
                int space = text.indexOf(' ');
                if (!status(space > 0 ? text.substring(space + 1) : "", res)) {
                    return false;
                }
            } else if (colon > 0) {
                String name = text.substring(0, colon).trim();
                String value = text.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("status")) {
                    if (!status(value, res)) {
                        return false;
                    }
                } else {
                    res.addHeader(name, value);
                }
            } else {
                LOG.info(() -> "CGI header line without a colon ignored: " + text);
            }
        }
        return true;
    }

    /** Sets the status from "NNN reason"; an error status is sent as the container's error page. */
    private static boolean status(String value, HttpServletResponse res) throws IOException {
        int code;
        try {
            code = Integer.parseInt(value.length() >= 3 ? value.substring(0, 3) : value);
        } catch (NumberFormatException e) {
            code = HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
        }
        if (code >= HttpServletResponse.SC_BAD_REQUEST) {
            res.sendError(code);
            return false;
        }
        res.setStatus(code);
        return true;
    }

    private static void logLines(InputStream errors) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(errors, StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                LOG.warning("CGI program stderr: " + line);
            }
        } catch (IOException e) {
            LOG.log(Level.FINE, "CGI program stderr closed", e);
        }
    }
}
