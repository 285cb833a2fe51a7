package spice.measure;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;

/**
 * SPICE's closed loop at its barest on Netty's native epoll transport (JNI system calls, not the JDK's SocketChannel):
 * CLIENTS connections, each an HTTP/1.0 GET answered and closed by the server, then the next; a response counts if
 * the server sent BYTES in all. Prints the rate over SECONDS after WARM_UP seconds. Not the engine: no timeouts, no
 * parser, no latency; what a JVM client on a native transport reaches beside wrk.
 *
 * <p>Arguments: PORT PATH CLIENTS SECONDS WARM_UP LOOPS BYTES (127.0.0.1 only).
 */
public final class NettyEpollClient {

    private static final AtomicLong ANSWERED = new AtomicLong();
    private static volatile boolean measuring;
    private static volatile boolean stopping;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String path = args[1];
        int clients = Integer.parseInt(args[2]);
        int seconds = Integer.parseInt(args[3]);
        int warmUp = Integer.parseInt(args[4]);
        int loops = Integer.parseInt(args[5]);
        long bytes = Long.parseLong(args[6]);
        ByteBuf request = Unpooled.unreleasableBuffer(Unpooled.directBuffer().writeBytes(("GET " + path
                + " HTTP/1.0\r\nHost: 127.0.0.1:" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, EpollIoHandler.newFactory());
        Bootstrap bootstrap = new Bootstrap().group(group).channel(EpollSocketChannel.class)
                .remoteAddress(new InetSocketAddress("127.0.0.1", port));
        bootstrap.handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel channel) {
                channel.pipeline().addLast(new Exchange(request, bytes, bootstrap));
            }
        });
        for (int i = 0; i < clients; i++) {
            connect(bootstrap);
        }
        Thread.sleep(warmUp * 1000L);
        measuring = true;
        long from = System.nanoTime();
        long before = ANSWERED.get();
        Thread.sleep(seconds * 1000L);
        long answered = ANSWERED.get() - before;
        double elapsed = (System.nanoTime() - from) / 1e9;
        stopping = true;
        System.out.printf("netty-epoll loops=%d clients=%d: %.0f req/s%n", loops, clients, answered / elapsed);
        group.shutdownGracefully().sync();
    }

    private static void connect(Bootstrap bootstrap) {
        bootstrap.connect().addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess() && !stopping) {
                connect(bootstrap);
            }
        });
    }

    /** One connection's request and response; the server's close ends it, and the client's next begins. */
    private static final class Exchange extends ChannelInboundHandlerAdapter {
        private final ByteBuf request;
        private final long expected;
        private final Bootstrap bootstrap;
        private long read;

        Exchange(ByteBuf request, long expected, Bootstrap bootstrap) {
            this.request = request;
            this.expected = expected;
            this.bootstrap = bootstrap;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(request.duplicate());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            read += buf.readableBytes();
            buf.release();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (measuring && read == expected) {
                ANSWERED.incrementAndGet();
            }
            if (!stopping) {
                connect(bootstrap);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
