package org.spice.harness;

/** A bad option or argument: the message names it and says what is expected; the command exits 2. */
public final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
