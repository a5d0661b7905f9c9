package io.stacksexplorer.ops;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * {@code stacks.metrics.*}: the Prometheus listener, mapped from {@code STACKS_API_METRICS_ENABLED},
 * {@code STACKS_API_METRICS_HOST}, {@code STACKS_API_METRICS_PORT} by the application; port 0
 * picks a free port (tests).
 */
@ConfigurationProperties("stacks.metrics")
public class MetricsSettings {

    private boolean enabled;
    private String host = "127.0.0.1";
    private int port = 9153;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        this.port = port;
    }
}
