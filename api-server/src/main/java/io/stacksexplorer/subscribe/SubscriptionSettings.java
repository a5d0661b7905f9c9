package io.stacksexplorer.subscribe;

import io.micronaut.context.annotation.ConfigurationProperties;

import java.time.Duration;

/**
 * Limits and timing of subscriptions ({@code stacks.subscriptions.*}, from the environment as
 * {@code STACKS_SUBSCRIPTIONS_*}); the defaults suit one server with a few thousand clients.
 */
@ConfigurationProperties("stacks.subscriptions")
public class SubscriptionSettings {

    /** How often each server looks for new changes: the floor of the delivery latency. */
    private Duration pollInterval = Duration.ofMillis(50);
    /** Open WebSockets and event streams together; a connection beyond it is refused. */
    private int maxConnections = 5_000;
    private int maxSubscriptionsPerConnection = 100;
    /**
     * Notifications written to a connection and not yet taken by its client. A client that lets
     * more pile up is too slow to follow the chain and is disconnected (it can resume), so one
     * stalled client can never grow the heap without bound.
     */
    private int maxPendingPerConnection = 2_000;
    /** WebSocket ping and event-stream keep-alive comment interval. */
    private Duration keepAliveInterval = Duration.ofSeconds(15);

    public Duration getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    public int getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    public int getMaxSubscriptionsPerConnection() {
        return maxSubscriptionsPerConnection;
    }

    public void setMaxSubscriptionsPerConnection(int maxSubscriptionsPerConnection) {
        this.maxSubscriptionsPerConnection = maxSubscriptionsPerConnection;
    }

    public int getMaxPendingPerConnection() {
        return maxPendingPerConnection;
    }

    public void setMaxPendingPerConnection(int maxPendingPerConnection) {
        this.maxPendingPerConnection = maxPendingPerConnection;
    }

    public Duration getKeepAliveInterval() {
        return keepAliveInterval;
    }

    public void setKeepAliveInterval(Duration keepAliveInterval) {
        this.keepAliveInterval = keepAliveInterval;
    }
}
