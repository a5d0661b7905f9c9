package io.stacksexplorer.ingest;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
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
import io.netty.handler.codec.http.HttpMethod;
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
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The stacks-node event observer: its own HTTP server on its own address, entirely apart from the
 * public API server (a different listener, not a route of it), so it can never be reached through
 * the public port and no browser policy (CORS) applies to it.
 *
 * <p>Two parts, so that no client can hold the node's deliveries:
 * <ul>
 *   <li>Netty reads requests without blocking on one event-loop thread: a client that stalls in
 *   its headers or body holds only its own connection, which is closed with 408 once the request
 *   has taken longer than {@code request-timeout}; an idle kept-alive connection is closed after
 *   {@code idle-timeout}. The answer goes out as one write on a socket without Nagle's delay (the
 *   JDK server this replaces answered a kept-alive connection about 44 ms late).</li>
 *   <li>Complete requests are ingested by one thread, strictly in the order they arrived, from a
 *   bounded queue ({@code queue-capacity}); when it is full the answer is 503 and the node retries.
 *   A connection reads its next request only after its previous one was answered.</li>
 * </ul>
 *
 * <p>Answers: 200 once stored and committed (or when already stored, or for a path nothing is
 * derived from); 400 with the reason for a payload that cannot be understood (nothing written);
 * 413 for a body over {@code max-body-bytes}; 503 when the database is unavailable, so that the
 * node retries. Errors have the public API's RFC 9457 shape.
 */
@Context
@Requires(property = "stacks.event-observer.enabled", value = "true")
public class EventObserverListener {

    private static final Logger LOG = LoggerFactory.getLogger(EventObserverListener.class);

    private final EventIngestor ingestor;
    private final EventObserverSettings settings;
    private final NioEventLoopGroup loop;
    private final ThreadPoolExecutor worker;
    private final Channel server;

    public EventObserverListener(EventIngestor ingestor, EventObserverSettings settings) throws InterruptedException {
        this.ingestor = ingestor;
        this.settings = settings;
        this.loop = new NioEventLoopGroup(1, new DefaultThreadFactory("event-observer-io"));
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(settings.getQueueCapacity()), r -> {
                    Thread t = new Thread(r, "event-observer");
                    t.setDaemon(false);
                    return t;
                });
        this.server = new ServerBootstrap()
                .group(loop)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 64)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(new IdleStateHandler(settings.getIdleTimeoutSeconds(), 0, 0))
                                .addLast(new HttpServerCodec())
                                .addLast(new RequestDeadline(settings.getRequestTimeoutSeconds()))
                                .addLast(new HttpServerExpectContinueHandler())
                                .addLast(new BodyLimit(settings.getMaxBodyBytes()))
                                .addLast(new Deliveries());
                    }
                })
                .bind(new InetSocketAddress(settings.getHost(), settings.getPort()))
                .sync()
                .channel();
        LOG.info("event observer listening on {}:{}", settings.getHost(), port());
    }

    /** The port actually bound (differs from the configured one when that is 0). */
    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Hands complete requests to the ingest thread and writes its answers. */
    private final class Deliveries extends SimpleChannelInboundHandler<FullHttpRequest> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            String path = new QueryStringDecoder(request.uri()).path();
            if (!HttpMethod.POST.equals(request.method())) {
                // A liveness probe or a mistaken GET: nothing to ingest.
                respond(ctx, keepAlive, HttpResponseStatus.OK, ok());
                return;
            }
            String body = request.content().toString(StandardCharsets.UTF_8);
            // This connection's next request is read once this one is answered: answers on one
            // connection keep its order, and a client can have one body in memory at a time.
            ctx.channel().config().setAutoRead(false);
            try {
                worker.execute(() -> {
                    Answer answer = ingest(path, body);
                    respond(ctx, keepAlive, answer.status(), answer.json());
                });
            } catch (RejectedExecutionException e) {
                LOG.warn("observer queue full ({} deliveries waiting): {} answered 503", settings.getQueueCapacity(), path);
                respond(ctx, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE,
                        problem(503, "Service Unavailable", "too many deliveries waiting; retry"));
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event instanceof IdleStateEvent && ctx.channel().config().isAutoRead()) {
                // Idle between requests (not waiting for its answer): the node reconnects when it needs to.
                ctx.close();
                return;
            }
            super.userEventTriggered(ctx, event);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("observer connection {} failed", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }

    private record Answer(HttpResponseStatus status, String json) {
    }

    /** Runs on the ingest thread: one delivery, committed before it is answered 200. */
    private Answer ingest(String path, String body) {
        try {
            ingestor.ingest(path, body, System.currentTimeMillis() / 1000);
            if (settings.isFsyncEachPayload()) {
                ingestor.forceToDisk();
            }
            return new Answer(HttpResponseStatus.OK, ok());
        } catch (MalformedPayloadException e) {
            LOG.warn("rejected {} ({} bytes): {}", path, body.length(), e.getMessage());
            return new Answer(HttpResponseStatus.BAD_REQUEST, problem(400, "Bad Request", e.getMessage()));
        } catch (RuntimeException e) {
            LOG.error("could not store {}; the node will retry", path, e);
            return new Answer(HttpResponseStatus.SERVICE_UNAVAILABLE,
                    problem(503, "Service Unavailable", "storage unavailable; retry"));
        }
    }

    private static void respond(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, String json) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(json, StandardCharsets.UTF_8));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, status.code() < 400 ? "application/json" : "application/problem+json")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        if (status.code() == 503) {
            response.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
        }
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

    private static String ok() {
        return "{\"result\":\"ok\"}";
    }

    /** Errors in the same RFC 9457 shape as the public API's, for operators reading node logs. */
    static String problem(int status, String title, String detail) {
        return NodePayloads.JSON.createObjectNode()
                .put("type", "about:blank")
                .put("title", title)
                .put("status", status)
                .put("detail", detail)
                .toString();
    }

    /**
     * A request must arrive whole (headers and body) within {@code seconds} of its first line being
     * read; otherwise it is answered 408 and its connection closed. Bounds what a client that stops
     * sending in the middle of a body can hold: its own connection, for that long.
     */
    private static final class RequestDeadline extends ChannelDuplexHandler {

        private final int seconds;
        private ScheduledFuture<?> deadline;

        RequestDeadline(int seconds) {
            this.seconds = seconds;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (msg instanceof HttpRequest && deadline == null) {
                deadline = ctx.executor().schedule(() -> {
                    LOG.warn("observer client {} did not send its request within {} s: closed",
                            ctx.channel().remoteAddress(), seconds);
                    respond(ctx, false, HttpResponseStatus.REQUEST_TIMEOUT,
                            problem(408, "Request Timeout", "request not received within " + seconds + " s"));
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
            respond(ctx, false, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                    problem(413, "Content Too Large", "body larger than " + maxBytes + " bytes"));
        }
    }

    @PreDestroy
    void stop() throws InterruptedException {
        server.close().sync();
        worker.shutdown();
        if (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
            // A delivery still being written: its transaction rolls back, the node was not answered
            // and sends it again.
            worker.shutdownNow();
        }
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
    }
}
