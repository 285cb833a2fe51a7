package org.spice.bench.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Where requests go: host, port, plain or TLS, and the path prefix of the base URL. The address is
 * resolved once, so no request pays for a name lookup.
 *
 * @param prefix the base URL's path without a trailing slash ("" for none); it prefixes every request path
 */
public record Endpoint(String host, int port, boolean tls, String prefix, InetSocketAddress address) {

    /** Parses {@code http://HOST[:PORT][/PREFIX]} or {@code https://...}. */
    public static Endpoint parse(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: \"" + url + "\"");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException("the URL must look like http[s]://HOST[:PORT][/PREFIX], not \"" + url + "\"");
        }
        boolean tls = scheme.equals("https");
        int port = uri.getPort() < 0 ? (tls ? 443 : 80) : uri.getPort();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String prefix = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        InetAddress resolved;
        try {
            resolved = InetAddress.getByName(uri.getHost());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host \"" + uri.getHost() + "\"");
        }
        return new Endpoint(uri.getHost(), port, tls, prefix, new InetSocketAddress(resolved, port));
    }

    /** The value of the Host header: the port is left out when it is the scheme's default. */
    public String hostHeader() {
        boolean defaultPort = tls ? port == 443 : port == 80;
        String name = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return defaultPort ? name : name + ":" + port;
    }

    /** Null if a TCP connection to this endpoint opens within the timeout, else the reason. */
    public String unreachable(int timeoutMillis) {
        return unreachable(address, timeoutMillis);
    }

    /** Null if a TCP connection to {@code address} opens within the timeout, else the reason. */
    public static String unreachable(InetSocketAddress address, int timeoutMillis) {
        try (Socket socket = new Socket()) {
            socket.connect(address, timeoutMillis);
            return null;
        } catch (IOException e) {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }

    /**
     * Null if every one of {@code endpoints} accepts a TCP connection within the timeout, else the first that does not
     * and why ("ENDPOINT: reason").
     */
    public static String firstUnreachable(List<Endpoint> endpoints, int timeoutMillis) {
        for (Endpoint endpoint : endpoints) {
            String down = endpoint.unreachable(timeoutMillis);
            if (down != null) {
                return endpoint + ": " + down;
            }
        }
        return null;
    }

    /** True when the server runs on this machine, so its CPU can be read from /proc and it can be pinned. */
    public boolean isLocal() {
        InetAddress address = this.address.getAddress();
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            return true;
        }
        try {
            return java.net.NetworkInterface.getByInetAddress(address) != null;
        } catch (java.net.SocketException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return (tls ? "https://" : "http://") + hostHeader() + prefix;
    }
}
