package io.stacksexplorer.ingest;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.stacksexplorer.listener.SeparateHttpListener;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static io.stacksexplorer.listener.SeparateHttpListener.problem;

/**
 * The stacks-node event observer: a {@link SeparateHttpListener} on its own address (never a route of
 * the public API port), which reads requests without letting a slow client hold anyone else's
 * (limits: {@code max-body-bytes}, {@code request-timeout-seconds}, {@code idle-timeout-seconds}).
 *
 * <p>Complete requests are ingested by one thread, strictly in the order they arrived, from a bounded
 * queue ({@code queue-capacity}); when it is full the answer is 503 and the node retries. A
 * connection reads its next request only after its previous one was answered, so no client can hold
 * the node's deliveries.
 *
 * <p>Answers: 200 once stored and committed (or when already stored, or for a path nothing is
 * derived from). With {@code STACKS_OBSERVER_DERIVE=before-answer} (H2's default) what the payload
 * derives is in the same commit; with {@code after-answer} (PostgreSQL's default) it is written right
 * after the answer by {@link AfterAnswerDerivation}, and the commit before the answer holds the
 * payload alone; 400 with the reason for a payload that cannot be understood (nothing written);
 * 413 for a body over {@code max-body-bytes}; 503 when the database is unavailable, so that the
 * node retries. Errors have the public API's RFC 9457 shape.
 */
@Context
@Requires(property = "stacks.event-observer.enabled", value = "true")
public class EventObserverListener {

    private static final Logger LOG = LoggerFactory.getLogger(EventObserverListener.class);

    private final EventIngestor ingestor;
    private final EventObserverSettings settings;
    private final ThreadPoolExecutor worker;
    private final SeparateHttpListener listener;
    /** The deriving thread with {@code STACKS_OBSERVER_DERIVE=after-answer}, else null. */
    private final AfterAnswerDerivation derivation;

    public EventObserverListener(EventIngestor ingestor, EventObserverSettings settings) throws InterruptedException {
        this.ingestor = ingestor;
        this.settings = settings;
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(settings.getQueueCapacity()), r -> {
                    Thread t = new Thread(r, "event-observer");
                    t.setDaemon(false);
                    return t;
                });
        // Before listening, in either mode: what an earlier process stored and did not derive
        // (answered before its derivation, or a replay stopped between storing a batch and
        // deriving it) is derived first.
        long left = ingestor.deriveBacklog(AfterAnswerDerivation.MAX_PER_TRANSACTION);
        if (left > 0) {
            LOG.info("derived {} payloads stored but not derived before the last stop", left);
        }
        this.derivation = settings.isDeriveAfterAnswer()
                ? new AfterAnswerDerivation(ingestor, settings.getDeriveBacklogBytes(),
                        settings.getDeriveLingerMillis()) : null;
        this.listener = new SeparateHttpListener("event-observer", settings.getHost(), settings.getPort(),
                new SeparateHttpListener.Limits(settings.getMaxBodyBytes(), settings.getRequestTimeoutSeconds(),
                        settings.getIdleTimeoutSeconds()),
                this::deliver);
        LOG.info("event observer listening on {}:{}", settings.getHost(), port());
    }

    /**
     * Payloads answered and not derived yet ({@code STACKS_OBSERVER_DERIVE=after-answer}); always 0
     * when each payload is derived before its answer.
     */
    public int payloadsNotDerived() {
        return derivation == null ? 0 : derivation.notDerived();
    }

    /** The port actually bound (differs from the configured one when that is 0). */
    public int port() {
        return listener.port();
    }

    /** On the listener's I/O thread: queues a delivery for the ingest thread, which answers it. */
    private void deliver(SeparateHttpListener.Request request) {
        if (!"POST".equals(request.method())) {
            // A liveness probe or a mistaken GET: nothing to ingest.
            answer(request, new Answer(HttpResponseStatus.OK, ok()));
            return;
        }
        try {
            worker.execute(() -> answer(request, ingest(request.path(), request.body())));
        } catch (RejectedExecutionException e) {
            LOG.warn("observer queue full ({} deliveries waiting): {} answered 503", settings.getQueueCapacity(),
                    request.path());
            answer(request, new Answer(HttpResponseStatus.SERVICE_UNAVAILABLE,
                    problem(503, "Service Unavailable", "too many deliveries waiting; retry")));
        }
    }

    private record Answer(HttpResponseStatus status, String json) {
    }

    /** Runs on the ingest thread: one delivery, committed before it is answered 200. */
    private Answer ingest(String path, String body) {
        try {
            // Rounded to the nearest second, as the peer takes a mempool receipt_time and a microblock's
            // block_time from its clock (Math.round), not floored.
            long receivedAt = Math.round(System.currentTimeMillis() / 1000.0);
            if (derivation != null) {
                Delivery stored = ingestor.accept(path, body, receivedAt, settings.isFsyncEachPayload());
                if (stored != null) {
                    derivation.add(stored);
                }
                return new Answer(HttpResponseStatus.OK, ok());
            }
            ingestor.ingest(path, body, receivedAt);
            ingestor.makeDurable(settings.isFsyncEachPayload());
            return new Answer(HttpResponseStatus.OK, ok());
        } catch (InterruptedException e) {
            // Stopping: the payload is stored and will be derived at the next start; the node, told
            // 503, delivers it again and is answered 200 as for any payload stored before.
            Thread.currentThread().interrupt();
            return new Answer(HttpResponseStatus.SERVICE_UNAVAILABLE,
                    problem(503, "Service Unavailable", "stopping; retry"));
        } catch (MalformedPayloadException e) {
            LOG.warn("rejected {} ({} bytes): {}", path, body.length(), e.getMessage());
            return new Answer(HttpResponseStatus.BAD_REQUEST, problem(400, "Bad Request", e.getMessage()));
        } catch (RuntimeException e) {
            LOG.error("could not store {}; the node will retry", path, e);
            return new Answer(HttpResponseStatus.SERVICE_UNAVAILABLE,
                    problem(503, "Service Unavailable", "storage unavailable; retry"));
        }
    }

    private static void answer(SeparateHttpListener.Request request, Answer answer) {
        int code = answer.status().code();
        request.answer(answer.status(), code < 400 ? "application/json" : "application/problem+json", answer.json(),
                code == 503 ? Map.of("Retry-After", "1") : Map.of());
    }

    private static String ok() {
        return "{\"result\":\"ok\"}";
    }

    @PreDestroy
    void stop() throws InterruptedException {
        listener.stopAccepting();
        worker.shutdown();
        if (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
            // A delivery still being written: its transaction rolls back, the node was not answered
            // and sends it again.
            worker.shutdownNow();
        }
        if (derivation != null) {
            derivation.stop(30);
        }
        listener.close();
    }
}
