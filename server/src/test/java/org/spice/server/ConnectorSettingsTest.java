package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;

/** The embedded server and conf/tomcat must not drift: every Connector of server.xml has the embedded settings. */
class ConnectorSettingsTest {

    /** Chosen at each start (tomcat-vt starts with it true), the same on both connectors; the embedded server's is off. */
    private static final String VIRTUAL = "useVirtualThreads";

    /** What differs by design between the two connectors, or is written as a placeholder in server.xml. */
    private static final Set<String> PER_CONNECTOR = Set.of("protocol", "address", "port", "SSLEnabled", "scheme", "secure",
            VIRTUAL);

    @Test
    void everyConnectorOfServerXmlHasTheEmbeddedSettings() throws Exception {
        Path serverXml = Path.of(System.getProperty("user.dir")).getParent().resolve("conf/tomcat/conf/server.xml");
        NodeList connectors = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(serverXml.toFile())
                .getElementsByTagName("Connector");
        assertEquals(2, connectors.getLength(), "HTTP and HTTPS");
        for (int i = 0; i < connectors.getLength(); i++) {
            NamedNodeMap attributes = ((Element) connectors.item(i)).getAttributes();
            Map<String, String> settings = new TreeMap<>();
            for (int a = 0; a < attributes.getLength(); a++) {
                String name = attributes.item(a).getNodeName();
                if (!PER_CONNECTOR.contains(name)) {
                    settings.put(name, attributes.item(a).getNodeValue());
                }
            }
            assertEquals(new TreeMap<>(EmbeddedTomcat.CONNECTOR_SETTINGS), settings,
                    "Connector " + (i + 1) + " of " + serverXml + " against EmbeddedTomcat.CONNECTOR_SETTINGS");
            assertEquals("${spice.virtualThreads}", ((Element) connectors.item(i)).getAttribute(VIRTUAL),
                    "Connector " + (i + 1) + ": its threads virtual or not as the start says (--threads)");
            NodeList upgrades = ((Element) connectors.item(i)).getElementsByTagName("UpgradeProtocol");
            assertEquals(1, upgrades.getLength(), "Connector " + (i + 1) + ": HTTP/2, as the embedded server's");
            assertEquals(EmbeddedTomcat.UPGRADE_PROTOCOL, ((Element) upgrades.item(0)).getAttribute("className"),
                    "Connector " + (i + 1) + "'s UpgradeProtocol");
        }
    }
}
