package org.spice.cgi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.page.CanonicalPage;

/** Runs the CGI binary as a server would and checks every byte it writes. */
@Tag("page")
class CgiProgramTest {

    private static final Path MODULE = Paths.get(System.getProperty("spice.cgi.module", ".")).toAbsolutePath();
    private static final Path BUILT = MODULE.resolve("target/spice");

    private static byte[] expectedOutput() {
        CanonicalPage page = CanonicalPage.built();
        String head = "Content-Type: " + CanonicalPage.CONTENT_TYPE + "\r\nContent-Length: " + page.bytes() + "\r\n\r\n";
        return (head + page.fixed()).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void writesTheCgiHeaderAndTheCanonicalPage() throws Exception {
        assertArrayEquals(expectedOutput(), run(BUILT, new byte[0]));
    }

    @Test
    void ignoresItsInput() throws Exception {
        assertArrayEquals(expectedOutput(), run(BUILT, "a=1&b=2\n".repeat(1000).getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void staticBuildWritesTheSameBytesWithoutADynamicLoader(@TempDir Path out) throws Exception {
        Process make = new ProcessBuilder("make", "--no-print-directory", "STATIC=1", "OUT=" + out,
                "GENERATED=" + MODULE.resolve("target/generated"))
                .directory(MODULE.toFile()).redirectErrorStream(true).start();
        String log = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, make.waitFor(), "make STATIC=1 failed:\n" + log);
        Path binary = out.resolve("spice");
        assertFalse(hasInterpreter(binary), "a static binary asks for no dynamic loader");
        assertTrue(hasInterpreter(BUILT), "the default build is dynamically linked");
        assertArrayEquals(expectedOutput(), run(binary, new byte[0]));
    }

    /** True if the ELF file has a PT_INTERP program header, i.e. the kernel must start a dynamic loader first. */
    private static boolean hasInterpreter(Path elf) throws IOException {
        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(elf)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x7f454c46, file.order(ByteOrder.BIG_ENDIAN).getInt(0), "an ELF file");
        file.order(ByteOrder.LITTLE_ENDIAN);
        long programHeaders = file.getLong(0x20);
        int entrySize = Short.toUnsignedInt(file.getShort(0x36));
        int entries = Short.toUnsignedInt(file.getShort(0x38));
        for (int i = 0; i < entries; i++) {
            if (file.getInt((int) programHeaders + i * entrySize) == 3) {
                return true;
            }
        }
        return false;
    }

    /** Runs the program with an empty environment, as little as a server gives it, and returns its stdout. */
    private static byte[] run(Path program, byte[] stdin) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(program.toString());
        builder.environment().clear();
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(stdin);
        } catch (IOException programDidNotRead) {
            // a closed pipe is fine: the program is not meant to read its input
        }
        byte[] output = process.getInputStream().readAllBytes();
        assertEquals(0, process.waitFor(), "exit status");
        return output;
    }
}
