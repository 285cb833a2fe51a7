package org.spice.bench.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for the {@code tls} entries of a mix. Verification is never switched off: the client trusts the
 * JDK's default CAs, or exactly the certificates of {@code --trust-cert}, and checks the host name.
 *
 * <p>By default every connection makes a full handshake, as WebBench's e-commerce clients did: the cost of
 * the handshake is part of what a TLS request costs the server. With {@code resume} the JDK's session
 * cache is shared by all connections of the run and a server may resume sessions.
 */
public final class TlsConfig {

    private final TrustManager[] trustManagers;
    private final boolean resume;
    private final SSLContext shared;

    private TlsConfig(TrustManager[] trustManagers, boolean resume) throws GeneralSecurityException {
        this.trustManagers = trustManagers;
        this.resume = resume;
        this.shared = newContext();
    }

    /**
     * @param trustCert a PEM or DER X.509 file (a PEM file may hold several certificates), or null for the
     *                  JDK's default trust store
     */
    public static TlsConfig create(Path trustCert, boolean resume) throws IOException, GeneralSecurityException {
        TrustManager[] managers = null;
        if (trustCert != null) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            Collection<? extends Certificate> certificates;
            try (InputStream in = Files.newInputStream(trustCert)) {
                certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            if (certificates.isEmpty()) {
                throw new GeneralSecurityException("no X.509 certificate in " + trustCert);
            }
            int i = 0;
            for (Certificate certificate : certificates) {
                store.setCertificateEntry("trusted-" + i++, certificate);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            managers = factory.getTrustManagers();
        }
        return new TlsConfig(managers, resume);
    }

    /** The context every resumed connection shares (verify's HTTP/2 client: one connection for all its streams). */
    public SSLContext context() {
        return shared;
    }

    public boolean resume() {
        return resume;
    }

    /**
     * The client side of the next connection to {@code endpoint}, host name checked. Without resumption it
     * comes from a fresh SSLContext, whose empty session cache cannot offer a session ID or ticket: this is
     * the only way JSSE guarantees a full handshake (invalidating the session does not reliably drop a TLS
     * 1.3 ticket). The caller makes it before starting the clock, so building it is not counted as latency.
     */
    public SSLEngine engineForNextConnection(Endpoint endpoint) throws GeneralSecurityException {
        SSLEngine engine = (resume ? shared : newContext()).createSSLEngine(endpoint.host(), endpoint.port());
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(parameters);
        return engine;
    }

    /** Layers TLS over a connected blocking socket (verify's client) and checks the host name. */
    public SSLSocket wrap(java.net.Socket plain, String host, int port) throws IOException {
        SSLSocketFactory factory = shared.getSocketFactory();
        SSLSocket socket = (SSLSocket) factory.createSocket(plain, host, port, true);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(parameters);
        socket.setUseClientMode(true);
        return socket;
    }

    private SSLContext newContext() throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers, null);
        return context;
    }
}
