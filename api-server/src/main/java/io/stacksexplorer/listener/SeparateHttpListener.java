package io.stacksexplorer.listener;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A small HTTP/1.1 server on an address of its own, entirely apart from the public API server: a
 * different socket, so it can never be reached through the public port whatever that port's routing
 * does, and no browser policy (CORS) applies to it. The event observer and the Prometheus metrics
 * each run one.
 *
 * <p>Netty reads requests without blocking on one event-loop thread: a client that stalls in its
 * headers or body holds only its own connection, which is answered 408 and closed once the request
 * has taken longer than {@code requestTimeoutSeconds}; a body over {@code maxBodyBytes} is answered
 * 413; a kept-alive connection idle between requests for {@code idleTimeoutSeconds} is closed. A
 * connection reads its next request only after its previous one was answered, so answers on one
 * connection keep its order and a client has one body in memory at a time; the handler may
 * therefore answer later, from another thread. An answer goes out as one write on a socket without
 * Nagle's delay (the JDK server this replaced answered a kept-alive connection about 44 ms late).
 */
public final class SeparateHttpListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SeparateHttpListener.class);

    /** Bounds on what one client can hold. */
    public record Limits(int maxBodyBytes, int requestTimeoutSeconds, int idleTimeoutSeconds) {
    }

    /** Answers complete requests; called on the listener's event-loop thread, which it must not hold long. */
    @FunctionalInterface
    public interface Handler {
        void handle(Request request);
    }

    /** One complete request, and the only way to answer it. */
    public static final class Request {

        private final ChannelHandlerContext ctx;
        private final String method;
        private final String path;
        private final String body;
        private final boolean keepAlive;

        private Request(ChannelHandlerContext ctx, FullHttpRequest request) {
            this.ctx = ctx;
            this.method = request.method().name();
            this.path = new QueryStringDecoder(request.uri()).path();
            this.body = request.content().toString(StandardCharsets.UTF_8);
            this.keepAlive = HttpUtil.isKeepAlive(request);
        }

        public String method() {
            return method;
        }

        public String path() {
            return path;
        }

        public String body() {
            return body;
        }

        /** Answers; any thread may call this, once. A HEAD request gets the headers only (Netty drops the body). */
        public void answer(HttpResponseStatus status, String contentType, String text) {
            answer(status, contentType, text, Map.of());
        }

        public void answer(HttpResponseStatus status, String contentType, String text, Map<String, String> headers) {
            respond(ctx, keepAlive, status, contentType, text, headers);
        }
    }

    private final String name;
    private final NioEventLoopGroup loop;
    private final Channel server;

    /**
     * Binds {@code host:port} (port 0: a free one) and serves until {@link #close}. {@code name} names
     * the I/O thread ({@code name-io}) and this listener in logs.
     */
    public SeparateHttpListener(String name, String host, int port, Limits limits, Handler handler)
            throws InterruptedException {
        this.name = name;
        this.loop = new NioEventLoopGroup(1, new DefaultThreadFactory(name + "-io"));
        try {
            this.server = new ServerBootstrap()
                    .group(loop)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 64)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline()
                                    .addLast(new IdleStateHandler(limits.idleTimeoutSeconds(), 0, 0))
                                    .addLast(new HttpServerCodec())
                                    .addLast(new RequestDeadline(name, limits.requestTimeoutSeconds()))
                                    .addLast(new HttpServerExpectContinueHandler())
                                    .addLast(new BodyLimit(limits.maxBodyBytes()))
                                    .addLast(new Requests(name, handler));
                        }
                    })
                    .bind(new InetSocketAddress(host, port))
                    .sync()
                    .channel();
        } catch (InterruptedException | RuntimeException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The port actually bound (differs from the configured one when that is 0). */
    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /**
     * Accepts no new connection; open ones still read their next request and can still be answered
     * (so that work in hand can finish and say so before {@link #close}).
     */
    public void stopAccepting() throws InterruptedException {
        server.close().sync();
    }

    /** Stops accepting and closes every connection; an answer not yet written is lost. */
    @Override
    public void close() throws InterruptedException {
        stopAccepting();
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
    }

    /** An error body in the public API's RFC 9457 shape, for whoever reads the answer in a log. */
    public static String problem(int status, String title, String detail) {
        return JsonNodeFactory.instance.objectNode()
                .put("type", "about:blank")
                .put("title", title)
                .put("status", status)
                .put("detail", detail)
                .toString();
    }

    /** Hands each complete request to the handler, with the connection paused until it is answered. */
    private static final class Requests extends SimpleChannelInboundHandler<FullHttpRequest> {

        private final String name;
        private final Handler handler;

        Requests(String name, Handler handler) {
            this.name = name;
            this.handler = handler;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            ctx.channel().config().setAutoRead(false);
            handler.handle(new Request(ctx, request));
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event instanceof IdleStateEvent && ctx.channel().config().isAutoRead()) {
                // Idle between requests (not waiting for its answer): the client reconnects when it needs to.
                ctx.close();
                return;
            }
            super.userEventTriggered(ctx, event);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("{} connection {} failed", name, ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }

    private static void respond(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status,
                                String contentType, String text, Map<String, String> headers) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        headers.forEach(response.headers()::set);
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    f.channel().config().setAutoRead(true);
                    f.channel().read();
                } else {
                    f.channel().close();
                }
            });
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static void respondProblem(ChannelHandlerContext ctx, HttpResponseStatus status, String title,
                                       String detail) {
        respond(ctx, false, status, "application/problem+json", problem(status.code(), title, detail), Map.of());
    }

    /**
     * A request must arrive whole (headers and body) within {@code seconds} of its first line being
     * read; otherwise it is answered 408 and its connection closed. Bounds what a client that stops
     * sending in the middle of a body can hold: its own connection, for that long.
     */
    private static final class RequestDeadline extends ChannelDuplexHandler {

        private final String name;
        private final int seconds;
        private ScheduledFuture<?> deadline;

        RequestDeadline(String name, int seconds) {
            this.name = name;
            this.seconds = seconds;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (msg instanceof HttpRequest && deadline == null) {
                deadline = ctx.executor().schedule(() -> {
                    LOG.warn("{} client {} did not send its request within {} s: closed",
                            name, ctx.channel().remoteAddress(), seconds);
                    respondProblem(ctx, HttpResponseStatus.REQUEST_TIMEOUT, "Request Timeout",
                            "request not received within " + seconds + " s");
                }, seconds, TimeUnit.SECONDS);
            }
            if (msg instanceof LastHttpContent) {
                cancel();
            }
            super.channelRead(ctx, msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            cancel();
            super.channelInactive(ctx);
        }

        private void cancel() {
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
        }
    }

    /** Collects a request's body up to the limit; a larger one is a 413 in the API's error shape. */
    private static final class BodyLimit extends HttpObjectAggregator {

        private final int maxBytes;

        BodyLimit(int maxBytes) {
            super(maxBytes);
            this.maxBytes = maxBytes;
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            respondProblem(ctx, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "Content Too Large",
                    "body larger than " + maxBytes + " bytes");
        }
    }
}
