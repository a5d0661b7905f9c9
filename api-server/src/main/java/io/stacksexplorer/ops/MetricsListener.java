package io.stacksexplorer.ops;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.stacksexplorer.listener.SeparateHttpListener;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics} in Prometheus text format on a {@link SeparateHttpListener} (default
 * 127.0.0.1:9153, as the peer), entirely apart from the public API server: metrics name routes and
 * internals that the public should not see, and a separate socket cannot be reached through the
 * public port whatever the routing does. Runs in every mode, also in {@code writeonly} (no public
 * server) and during {@code replay}.
 */
@Context
@Requires(property = "stacks.metrics.enabled", value = "true")
public class MetricsListener {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsListener.class);
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /** A scrape is a GET without a body; the timeouts are the observer's defaults. */
    private static final SeparateHttpListener.Limits LIMITS = new SeparateHttpListener.Limits(64 * 1024, 60, 300);

    private final SeparateHttpListener listener;

    public MetricsListener(PrometheusMeterRegistry registry, MetricsSettings settings) throws InterruptedException {
        // The scrape runs on the listener's own I/O thread: only scrapes wait for it, one at a time.
        this.listener = new SeparateHttpListener("metrics", settings.getHost(), settings.getPort(), LIMITS, request -> {
            if (!"/metrics".equals(request.path())) {
                request.answer(HttpResponseStatus.NOT_FOUND, "text/plain; charset=utf-8", "only /metrics here\n");
                return;
            }
            request.answer(HttpResponseStatus.OK, CONTENT_TYPE, registry.scrape());
        });
        LOG.info("metrics on http://{}:{}/metrics", settings.getHost(), port());
    }

    /** The port actually bound (differs from the configured one when that is 0). */
    public int port() {
        return listener.port();
    }

    @PreDestroy
    void stop() throws InterruptedException {
        listener.close();
    }
}
