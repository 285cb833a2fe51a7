package org.spice.commands.shell;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A port number within the bounds a command takes. */
abstract class Ports implements ITypeConverter<Integer> {

    private final int min;
    private final int max;

    Ports(int min, int max) {
        this.min = min;
        this.max = max;
    }

    @Override
    public Integer convert(String text) {
        try {
            int port = Integer.parseInt(text.trim());
            if (port >= min && port <= max) {
                return port;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new TypeConversionException("takes a port number from " + min + " to " + max + ", not \"" + text + "\"");
    }

    /** A server's port: 1024-63000 (its companions' ports are its own + up to 2,360). */
    static final class ServerPort extends Ports {
        ServerPort() {
            super(1024, 63000);
        }
    }

    /** Any port. */
    static final class AnyPort extends Ports {
        AnyPort() {
            super(1, 65535);
        }
    }

    /** The metrics agent's first port: it uses the two after it. */
    static final class AgentPort extends Ports {
        AgentPort() {
            super(1, 65533);
        }
    }

    /** JMeter's RMI registry port: its objects listen on the next one. */
    static final class RmiPort extends Ports {
        RmiPort() {
            super(1024, 65534);
        }
    }
}
