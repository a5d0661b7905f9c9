package io.stacksexplorer.ingest;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * The event-observer listener ({@code STACKS_CORE_EVENT_HOST} / {@code STACKS_CORE_EVENT_PORT},
 * mapped by {@code Application.startupProperties}). Off unless {@code enabled}: the application
 * switches it on from {@code STACKS_API_MODE}; port 0 picks a free port (tests).
 */
@ConfigurationProperties("stacks.event-observer")
public class EventObserverConfig {

    private boolean enabled;
    private String host = "127.0.0.1";
    private int port = 3700;
    /** Largest body accepted, in bytes (a Nakamoto block with many events can be tens of MB). */
    private int maxBodyBytes = 512 * 1024 * 1024;

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

    public int getMaxBodyBytes() {
        return maxBodyBytes;
    }

    public void setMaxBodyBytes(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }
}
