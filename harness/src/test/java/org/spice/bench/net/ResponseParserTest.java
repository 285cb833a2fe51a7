package org.spice.bench.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The one response parser: the table of cases below is its specification (the verdict a correct client
 * reaches), and it must reach the same verdict however the bytes are cut: whole, one byte at a time, and
 * at random places.
 */
@Tag("unit")
class ResponseParserTest {

    private static final int SIZE = 100;
    private static final String BODY = "x".repeat(SIZE);

    /** One response as the server sends it before closing, and what a correct client makes of it. */
    private record Case(String name, byte[] bytes, ErrorClass expected) {
    }

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        add(cases, "content-length", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + BODY, null);
        add(cases, "http/1.0 close", "HTTP/1.0 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n" + BODY, null);
        add(cases, "http/1.0 keep-alive", "HTTP/1.0 200 OK\r\nconnection: Keep-Alive\r\ncontent-length:100 \r\n\r\n" + BODY, null);
        add(cases, "bare LF", "HTTP/1.1 200 OK\nContent-Length: 100\n\n" + BODY, null);
        add(cases, "close-delimited", "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n" + BODY, null);
        add(cases, "chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "28;ext=1\r\n" + BODY.substring(0, 40) + "\r\n3C\r\n" + BODY.substring(40) + "\r\n0\r\nX-Trailer: 1\r\n\r\n", null);
        add(cases, "chunked bare LF", "HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n"
                + "64\n" + BODY + "\n0\n\n", null);
        add(cases, "extra after body", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + BODY + "junk", ErrorClass.LONG_BODY);
        add(cases, "extra after chunks", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n" + BODY + "\r\n0\r\n\r\nHTTP",
                ErrorClass.LONG_BODY);
        add(cases, "declared long", "HTTP/1.1 200 OK\r\nContent-Length: 101\r\n\r\n" + BODY + "y", ErrorClass.LONG_BODY);
        add(cases, "declared short", "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n" + BODY.substring(1), ErrorClass.SHORT_BODY);
        add(cases, "truncated", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + BODY.substring(50), ErrorClass.SHORT_BODY);
        add(cases, "truncated chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n" + BODY.substring(1),
                ErrorClass.SHORT_BODY);
        add(cases, "no last chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n" + BODY + "\r\n",
                ErrorClass.SHORT_BODY);
        add(cases, "chunk without CRLF", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n63\r\n" + BODY + "\r\n0\r\n\r\n",
                ErrorClass.PROTOCOL);
        add(cases, "chunk size garbage", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n" + BODY, ErrorClass.PROTOCOL);
        add(cases, "chunk size huge", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\n", ErrorClass.PROTOCOL);
        add(cases, "404", "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found", ErrorClass.STATUS);
        add(cases, "404 then more", "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot foundXX", ErrorClass.STATUS);
        add(cases, "204", "HTTP/1.1 204 No Content\r\n\r\n", ErrorClass.STATUS);
        add(cases, "not http", "SSH-2.0-OpenSSH\r\n\r\n", ErrorClass.PROTOCOL);
        add(cases, "bad length", "HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n" + BODY, ErrorClass.PROTOCOL);
        add(cases, "head cut", "HTTP/1.1 200 OK\r\nContent-Le", ErrorClass.CLOSED_EARLY);
        add(cases, "nothing", "", ErrorClass.CLOSED_EARLY);
        add(cases, "head too large", "HTTP/1.1 200 OK\r\nX: " + "a".repeat(ResponseParser.MAX_HEAD_BYTES) + "\r\n\r\n",
                ErrorClass.PROTOCOL);
        add(cases, "head fills buffer exactly", head(ResponseParser.MAX_HEAD_BYTES) + BODY, null);
        return cases;
    }

    /** A 200 head of exactly {@code size} bytes with Content-Length 100. */
    private static String head(int size) {
        String start = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nX: ";
        return start + "a".repeat(size - start.length() - 4) + "\r\n\r\n";
    }

    private static void add(List<Case> cases, String name, String text, ErrorClass expected) {
        cases.add(new Case(name, text.getBytes(StandardCharsets.ISO_8859_1), expected));
    }

    @Test
    void theWholeResponseGetsTheExpectedVerdict() {
        for (Case c : cases()) {
            Verdict v = parse(c.bytes(), new int[] {c.bytes().length});
            // the exchanges' rule: bytes after a correct response make it a long body
            assertEquals(c.expected(), v.outcome() == null && v.extra() > 0 ? ErrorClass.LONG_BODY : v.outcome(), c.name());
        }
    }

    @Test
    void byteByByteAndRandomCutsGiveTheWholeVerdict() {
        Random random = new Random(42);
        for (Case c : cases()) {
            Verdict expected = parse(c.bytes(), new int[] {c.bytes().length});
            assertEquals(expected, parse(c.bytes(), new int[] {c.bytes().length}), c.name() + " whole");
            int[] single = new int[c.bytes().length];
            java.util.Arrays.fill(single, 1);
            assertEquals(expected, parse(c.bytes(), single), c.name() + " byte by byte");
            for (int round = 0; round < 50; round++) {
                assertEquals(expected, parse(c.bytes(), randomCuts(random, c.bytes().length)), c.name() + " round " + round);
            }
        }
    }

    @Test
    void theResponseEndsAtItsLastByteNotAtTheClose() {
        ResponseParser parser = new ResponseParser();
        parser.reset(SIZE);
        byte[] head = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        assertFalse(parser.feed(head, 0, head.length));
        assertTrue(parser.headComplete());
        byte[] body = BODY.getBytes(StandardCharsets.US_ASCII);
        assertFalse(parser.feed(body, 0, SIZE - 1));
        assertTrue(parser.feed(body, SIZE - 1, 1));
        assertNull(parser.outcome());
        assertTrue(parser.reusable());
        assertEquals(0, parser.extra());
    }

    @Test
    void verifyReadsTheHeadAndTheDechunkedBody() {
        ResponseParser parser = new ResponseParser();
        parser.reset(SIZE);
        parser.capture();
        byte[] bytes = ("HTTP/1.1 200\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n28\r\n"
                + BODY.substring(0, 40) + "\r\n3C\r\n" + BODY.substring(40) + "\r\n0\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        assertTrue(parser.feed(bytes, 0, bytes.length));
        assertNull(parser.outcome());
        assertEquals("HTTP/1.1 200", parser.statusLine());   // no reason phrase, as Tomcat sends it
        assertEquals(ResponseParser.Framing.CHUNKED, parser.framing());
        assertEquals("Content-Type", parser.fields().get(0)[0]);
        assertEquals("text/html", parser.fields().get(0)[1]);
        assertEquals(BODY, new String(parser.body(), StandardCharsets.US_ASCII));
    }

    @Test
    void theResponseToAHeadEndsWithItsHead() {
        ResponseParser parser = new ResponseParser();
        parser.reset(SIZE, true);
        byte[] head = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        assertTrue(parser.feed(head, 0, head.length));
        assertNull(parser.outcome());
        assertEquals(0, parser.bodyBytes());
    }

    @Test
    void aCloseBeforeAnyByteIsToldApartFromACutHead() {
        ResponseParser parser = new ResponseParser();
        parser.reset(SIZE);
        parser.eof();
        assertTrue(parser.gotNothing());
        parser.reset(SIZE);
        parser.feed(new byte[] {'H'}, 0, 1);
        parser.eof();
        assertFalse(parser.gotNothing());
        assertEquals(ErrorClass.CLOSED_EARLY, parser.outcome());
    }

    /** What the parser and the reader are compared on. */
    private record Verdict(ErrorClass outcome, int status, long headerBytes, long bodyBytes, boolean reusable, long extra) {
    }

    private static Verdict parse(byte[] bytes, int[] cuts) {
        ResponseParser parser = new ResponseParser();
        parser.reset(SIZE);
        int off = 0;
        for (int len : cuts) {
            parser.feed(bytes, off, len);
            off += len;
        }
        assertEquals(bytes.length, off);
        parser.eof();
        assertTrue(parser.ended());
        return verdict(parser.outcome(), parser.status(), parser.headerBytes(), parser.bodyBytes(), parser.reusable(),
                parser.extra());
    }

    /**
     * Only what a client acts on: after a protocol error or an early close the client looks at nothing
     * else, so those fields are not compared there.
     */
    private static Verdict verdict(ErrorClass outcome, int status, long head, long body, boolean reusable, long extra) {
        if (outcome == ErrorClass.PROTOCOL || outcome == ErrorClass.CLOSED_EARLY) {
            return new Verdict(outcome, 0, 0, 0, false, 0);
        }
        return new Verdict(outcome, status, head, body, reusable, extra);
    }

    private static int[] randomCuts(Random random, int length) {
        List<Integer> cuts = new ArrayList<>();
        int left = length;
        while (left > 0) {
            int n = 1 + random.nextInt(Math.min(left, 1 + random.nextInt(64)));
            cuts.add(n);
            left -= n;
        }
        return cuts.stream().mapToInt(Integer::intValue).toArray();
    }
}
