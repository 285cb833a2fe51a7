package org.spice.bench.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the event loop: a certificate given with --trust-cert is trusted and the host name is checked;
 * any other certificate fails the handshake. Every connection makes a full handshake unless resumption is
 * asked for. The certificates are made by the JDK's keytool for the test.
 */
@Tag("process")
class TlsTest {

    private static final int SIZE = 6250;
    /** More than two TLS records of plaintext. */
    private static final int BIG = 40_000;

    @TempDir
    static Path dir;
    private static TestServer server;
    private static Endpoint endpoint;

    @BeforeAll
    static void start() throws Exception {
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=spice",
                "-ext", "san=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", "server.p12",
                "-storepass", "changeit", "-keypass", "changeit");
        keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", "server.p12", "-storepass", "changeit",
                "-file", "server.pem");
        keytool("-genkeypair", "-alias", "other", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=other",
                "-ext", "san=dns:other.example", "-validity", "2", "-storetype", "PKCS12", "-keystore", "other.p12",
                "-storepass", "changeit", "-keypass", "changeit");
        keytool("-exportcert", "-alias", "other", "-keystore", "other.p12", "-storepass", "changeit",
                "-file", "other.der");   // DER this time: both encodings must load

        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            store.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, "changeit".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        SSLServerSocket socket = (SSLServerSocket) context.getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        server = new TestServer(socket, (head, s, out) -> {
            int size = TestServer.path(head).equals("/big") ? BIG : SIZE;
            TestServer.respond(out, 200, size, size);
            return true;
        });
        endpoint = Endpoint.parse("https://127.0.0.1:" + server.port());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    @Test
    void trustedCertificateWorksWithAndWithoutResumptionAndKeepAlive() throws Exception {
        for (boolean resume : new boolean[] {false, true}) {
            for (boolean keepAlive : new boolean[] {false, true}) {
                TlsConfig tls = TlsConfig.create(dir.resolve("server.pem"), resume);
                long before = server.connections();
                try (Selector selector = Selector.open()) {
                    Exchange exchange = exchange(tls, selector);
                    for (int i = 0; i < 3; i++) {
                        assertNull(once(selector, exchange, endpoint, keepAlive), "resume=" + resume + " keepAlive=" + keepAlive);
                        assertEquals(SIZE, exchange.bodyBytes());
                    }
                    exchange.close();
                }
                assertEquals(keepAlive ? 1 : 3, server.connections() - before, "keepAlive=" + keepAlive);
            }
        }
    }

    @Test
    void aBodyLargerThanATlsRecordArrivesWhole() throws Exception {
        TlsConfig tls = TlsConfig.create(dir.resolve("server.pem"), false);
        try (Selector selector = Selector.open()) {
            Exchange exchange = exchange(tls, selector);
            Request request = Request.get(endpoint, "/big", false, BIG);
            assertNull(ExchangeTest.run(selector, exchange, request));
            assertEquals(BIG, exchange.bodyBytes());
        }
    }

    @Test
    void untrustedCertificateFailsTheHandshake() throws Exception {
        TlsConfig tls = TlsConfig.create(dir.resolve("other.der"), false);
        try (Selector selector = Selector.open()) {
            assertEquals(ErrorClass.TLS, once(selector, exchange(tls, selector), endpoint, false));
        }
    }

    @Test
    void hostNameIsChecked() throws Exception {
        // the server's certificate is for 127.0.0.1 only; "localhost" resolves there but is not in it
        Endpoint byName = Endpoint.parse("https://localhost:" + server.port());
        TlsConfig tls = TlsConfig.create(dir.resolve("server.pem"), false);
        try (Selector selector = Selector.open()) {
            assertEquals(ErrorClass.TLS, once(selector, exchange(tls, selector), byName, false));
        }
    }

    private static Exchange exchange(TlsConfig tls, Selector selector) {
        return new Exchange(tls, 3000, selector, null, ByteBuffer.allocate(Exchange.BUFFER_BYTES));
    }

    private static ErrorClass once(Selector selector, Exchange exchange, Endpoint to, boolean keepAlive) throws Exception {
        return ExchangeTest.run(selector, exchange, Request.get(to, "/spice/servlet", keepAlive, SIZE));
    }

    private static void keytool(String... args) throws Exception {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        List<String> command = new java.util.ArrayList<>(List.of(keytool));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IOException("keytool failed: " + output);
        }
    }
}
