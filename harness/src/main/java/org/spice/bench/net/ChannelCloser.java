package org.spice.bench.net;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Closes an event loop's channels once its selector has dropped them. Why: closing a channel that is
 * still registered makes the JDK look up SO_LINGER and shut the socket down for writing before the real
 * close, which the selector performs later anyway: two system calls per connection on a path that has
 * about fifteen. A channel whose key is cancelled is deregistered by the next select, and closing it
 * after that is a plain close(2).
 */
public final class ChannelCloser {

    private final List<SocketChannel> pending = new ArrayList<>();

    /** Cancels {@code key} (may be null) and closes {@code channel} as soon as it is deregistered. */
    public void close(SocketChannel channel, SelectionKey key) {
        if (key == null) {
            closeQuietly(channel);
            return;
        }
        key.cancel();
        pending.add(channel);
    }

    /** Called after each select: closes the channels that select has deregistered. */
    public void closeDeregistered() {
        if (pending.isEmpty()) {
            return;
        }
        int kept = 0;
        for (int i = 0; i < pending.size(); i++) {
            SocketChannel channel = pending.get(i);
            if (channel.isRegistered()) {
                pending.set(kept++, channel);   // cancelled during this select's callbacks: the next one drops it
            } else {
                closeQuietly(channel);
            }
        }
        pending.subList(kept, pending.size()).clear();
    }

    /** Closes everything left, registered or not: the loop is over. */
    public void closeAll() {
        pending.forEach(ChannelCloser::closeQuietly);
        pending.clear();
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing is best effort; the connection is gone either way
        }
    }
}
