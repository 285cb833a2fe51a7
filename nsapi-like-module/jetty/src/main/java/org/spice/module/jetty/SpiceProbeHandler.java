package org.spice.module.jetty;

import java.nio.ByteBuffer;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.spice.page.CanonicalPage;

/**
 * The module probe for Jetty: a core Handler, Jetty's native in-process API with no servlet layer,
 * that answers the canonical page to every request it is given. Mount it where the page belongs,
 * e.g. in a ContextHandler at {@code /spice/module} with {@code allowNullPathInContext=true}.
 *
 * <p>It never blocks, so Jetty may run it on the selector thread.
 */
public class SpiceProbeHandler extends Handler.Abstract.NonBlocking {

    private static final byte[] PAGE = CanonicalPage.built().fixedBytes();
    private static final HttpField CONTENT_TYPE = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, CanonicalPage.CONTENT_TYPE);
    private static final HttpField CONTENT_LENGTH = new PreEncodedHttpField(HttpHeader.CONTENT_LENGTH,
            Integer.toString(PAGE.length));

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        boolean head = HttpMethod.HEAD.is(method);
        if (!head && !HttpMethod.GET.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
            return true;
        }
        response.setStatus(HttpStatus.OK_200);
        response.getHeaders().put(CONTENT_TYPE);
        response.getHeaders().put(CONTENT_LENGTH);
        // A fresh view per request: the buffer's position is consumed by the write.
        response.write(true, head ? null : ByteBuffer.wrap(PAGE), callback);
        return true;
    }
}
