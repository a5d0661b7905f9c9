package io.stacksexplorer.subscribe;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.sse.Event;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.stacksexplorer.web.ApiProblems;
import jakarta.inject.Named;
import org.zalando.problem.Problem;
import org.zalando.problem.Status;
import reactor.core.Disposable;
import reactor.core.publisher.BufferOverflowStrategy;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;

/**
 * The subscriptions of the WebSocket channel as Server-Sent Events ({@code GET /extended/v1/stream},
 * operation {@code streamNotifications} of the spec). Written by hand rather than implementing the
 * generated {@code SubscriptionsApi}: generated interfaces return plain bodies, and an event stream
 * is a Publisher; SubscriptionRouteTest keeps this route and its parameters equal to the generated
 * interface's.
 */
@Controller
class NotificationStream {

    private final ChangeFeed feed;
    private final SubscriptionSettings settings;
    private final ExecutorService blocking;

    NotificationStream(ChangeFeed feed, SubscriptionSettings settings,
                       @Named(TaskExecutors.BLOCKING) ExecutorService blocking) {
        this.feed = feed;
        this.settings = settings;
        this.blocking = blocking;
    }

    @Get(value = "/extended/v1/stream", produces = MediaType.TEXT_EVENT_STREAM)
    @ExecuteOn(TaskExecutors.BLOCKING)
    HttpResponse<Flux<Event<String>>> streamNotifications(@Nullable @QueryValue("event") List<String> event,
                                                         @Nullable @QueryValue("tx_id") List<String> txId,
                                                         @Nullable @QueryValue("address") List<String> address,
                                                         @Nullable @QueryValue("last_event_id") String lastEventId,
                                                         @Nullable @Header("Last-Event-ID") String lastEventIdHeader) {
        Set<Topic> topics = new LinkedHashSet<>();
        try {
            for (String e : orEmpty(event)) {
                topics.add(Topics.event(e));
            }
            for (String id : orEmpty(txId)) {
                topics.add(Topics.txUpdate(id));
            }
            for (String a : orEmpty(address)) {
                topics.add(Topics.addressTxUpdate(a));
            }
        } catch (Topics.Invalid e) {
            throw ApiProblems.badParameter(e.parameter, e.getMessage());
        }
        if (topics.isEmpty()) {
            throw ApiProblems.badParameter("event", "nothing to follow: give at least one event, tx_id or address");
        }
        if (topics.size() > settings.getMaxSubscriptionsPerConnection()) {
            throw ApiProblems.badParameter("event", "at most " + settings.getMaxSubscriptionsPerConnection()
                    + " subscriptions per stream, got " + topics.size());
        }
        boolean fromHeader = lastEventIdHeader != null && !lastEventIdHeader.isBlank();
        String resumeText = fromHeader ? lastEventIdHeader.trim() : lastEventId;
        Position after = resumeText == null ? null : Position.parse(resumeText);
        if (resumeText != null && after == null) {
            throw ApiProblems.badParameter(fromHeader ? "Last-Event-ID" : "last_event_id",
                    "not a position such as 1042 or 1042:2: '" + resumeText + "'");
        }
        if (after != null) {
            try {
                feed.requireResumable(after);
            } catch (ChangeFeed.Pruned e) {
                throw Problem.builder().withTitle(Status.GONE.getReasonPhrase()).withStatus(Status.GONE)
                        .withDetail("position " + after + " is no longer available: " + e.getMessage()
                                + "; read the current state and open a new stream without a position")
                        .with("parameter", fromHeader ? "Last-Event-ID" : "last_event_id")
                        .with("oldest_position", Long.toString(e.oldest))
                        .build();
            }
        }
        if (feed.connections() >= settings.getMaxConnections()) {
            throw Problem.builder().withTitle(Status.SERVICE_UNAVAILABLE.getReasonPhrase())
                    .withStatus(Status.SERVICE_UNAVAILABLE).withDetail("too many open subscriptions; retry later")
                    .build();
        }
        List<Topic> watched = new ArrayList<>(topics);
        int max = settings.getMaxPendingPerConnection();
        Flux<Event<String>> notifications = Flux.<Event<String>>create(sink -> {
            Subscriber subscriber = new Subscriber(feed, blocking, max) {
                @Override
                protected CompletionStage<?> write(Notification n) {
                    sink.next(Event.of(n.paramsJson()).id(n.position().toString()).name(n.method()));
                    // Counted as taken once emitted; the bounded buffer below holds what the client has not read.
                    return CompletableFuture.completedFuture(null);
                }

                @Override
                protected void closeTooSlow() {
                    sink.complete();
                }
            };
            feed.add(subscriber);
            for (Topic topic : watched) {
                subscriber.subscribe(topic, after, () -> { });
            }
            // Comment lines: EventSource ignores them, proxies see a live connection.
            Disposable keepAlive = Flux.interval(settings.getKeepAliveInterval())
                    .subscribe(tick -> sink.next(Event.of("").comment("keep-alive")));
            sink.onDispose(() -> {
                keepAlive.dispose();
                subscriber.closed();
            });
        }, FluxSink.OverflowStrategy.BUFFER)
                // A client that does not read: once this many events wait, the stream ends (it resumes).
                .onBackpressureBuffer(max, dropped -> { }, BufferOverflowStrategy.ERROR)
                .onErrorComplete();
        return HttpResponse.ok(notifications)
                .header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no");
    }

    private static List<String> orEmpty(List<String> values) {
        return values == null ? List.of() : values;
    }

}
