package org.spice.bench.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class JspCompileScaleTest {

    @Test
    void hotspotsOwnThresholdsWithoutAnOption() {
        assertEquals(1, JspCompileScale.fromArguments(List.of("java", "-Xmx1g", "-jar", "server.jar")));
    }

    @Test
    void theCommandOfSpicesJavaServers() throws Exception {
        List<String> options = Files.readAllLines(Path.of("../conf/java/jvm.options")).stream()
                .map(l -> l.replaceAll("#.*", "").strip()).filter(l -> !l.isEmpty()).toList();
        assertEquals(0.05, JspCompileScale.fromArguments(options), 1e-12);
    }

    @Test
    void theGlobalFlagMultipliesTheCommand() {
        assertEquals(0.5 * 0.1, JspCompileScale.fromArguments(List.of("-XX:CompileThresholdScaling=0.5",
                "-XX:CompileCommand=CompileThresholdScaling,org/apache/jsp/*.*,0.1")), 1e-12);
        assertEquals(2, JspCompileScale.fromArguments(List.of("-XX:CompileThresholdScaling=2")), 1e-12);
    }

    @Test
    void theLastMatchingCommandCountsAndOthersDoNot() {
        assertEquals(0.2, JspCompileScale.fromArguments(List.of(
                "-XX:CompileCommand=CompileThresholdScaling,org.apache.jsp.*::_jspService,0.05",
                "-XX:CompileCommand=option,org.apache.jsp.*::*,double,CompileThresholdScaling,0.2",
                "-XX:CompileCommand=CompileThresholdScaling,org.spice.*::*,0.01",
                "-XX:CompileCommand=CompileThresholdScaling,org.apache.jsp.*::_jspInit,0.01",
                "-XX:CompileCommand=quiet")), 1e-12);
    }

    @Test
    void patternsAsHotspotWritesThem() {
        assertTrue(JspCompileScale.matchesPage("org.apache.jsp.*::_jspService"));
        assertTrue(JspCompileScale.matchesPage("org/apache/jsp/*._jspService"));
        assertTrue(JspCompileScale.matchesPage("*.*"));
        assertTrue(JspCompileScale.matchesPage("*spice00_jsp::_jsp*"));
        assertTrue(JspCompileScale.matchesPage("org.apache.jsp.jsp.spice00_jsp::_jspService(Ljakarta/servlet/http/HttpServletRequest;)V"));
        assertFalse(JspCompileScale.matchesPage("org.apache.jasper.*::*"));
        assertFalse(JspCompileScale.matchesPage("org.apache.jsp.*::_jspInit"));
    }

    @Test
    void aBadNumberLeavesTheScaleAsItWas() {
        assertEquals(1, JspCompileScale.fromArguments(List.of(
                "-XX:CompileCommand=CompileThresholdScaling,org.apache.jsp.*::_jspService,fast")));
    }
}
