package io.stacksexplorer.ingest;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * The event-observer listener ({@code STACKS_CORE_EVENT_HOST} / {@code STACKS_CORE_EVENT_PORT},
 * mapped by {@code Application.startupProperties}). Off unless {@code enabled}: the application
 * switches it on from {@code STACKS_API_MODE}; port 0 picks a free port (tests).
 */
@ConfigurationProperties("stacks.event-observer")
public class EventObserverSettings {

    private boolean enabled;
    private String host = "127.0.0.1";
    private int port = 3700;
    /** Largest body accepted, in bytes (a Nakamoto block with many events can be tens of MB). */
    private int maxBodyBytes = 512 * 1024 * 1024;
    /** Complete deliveries waiting for the ingest thread; beyond that the answer is 503 (retry). */
    private int queueCapacity = 16;
    /** A request (headers and body) must arrive within this many seconds of its first line, else 408. */
    private int requestTimeoutSeconds = 60;
    /** A kept-alive connection with no request for this many seconds is closed. */
    private int idleTimeoutSeconds = 300;
    /**
     * After each delivery, force the embedded database's file to the disk before answering
     * ({@code H2_FSYNC=true}): a 200 then survives a power loss too, not only a crash of the
     * process. PostgreSQL does this at every commit already (its defaults), so it is ignored there.
     */
    private boolean fsyncEachPayload;
    /**
     * {@code STACKS_OBSERVER_DERIVE=after-answer} (PostgreSQL only; its default there): a delivery is
     * answered 200 once its payload is stored and committed, and what it derives is written by a
     * second thread right after, many payloads per transaction (see {@link AfterAnswerDerivation});
     * reads see it a moment later. {@code before-answer} (the default on H2): the payload and
     * everything derived from it are one commit, made before the answer, so a read issued after the
     * 200 sees it. The bean's own default is before-answer; the application maps the environment.
     */
    private boolean deriveAfterAnswer;
    /** After-answer: most bytes of payloads answered and waiting to be derived (the next answer waits beyond). */
    private long deriveBacklogBytes = 64L * 1024 * 1024;
    /**
     * After-answer, while payloads come back to back (a node syncing): how long a derivation
     * transaction waits for more after its first, so that they share its fixed costs. A payload
     * arriving alone (at the chain's tip) is derived at once.
     */
    private long deriveLingerMillis = 20;

    /**
     * The value of {@code STACKS_OBSERVER_DERIVE}: {@code before-answer}, {@code after-answer}, or
     * unset, which means after-answer on PostgreSQL and before-answer on H2. Why after-answer is
     * PostgreSQL's default: a 200 promises the same either way (the payload is stored for good), a
     * node syncing from genesis waits for every answer and gets about 1.5 to 2 times the blocks per
     * second (docs/performance.md), and nobody but the node can tell when its 200 was sent, so reads
     * a few milliseconds later cost no reader anything. On H2 it is refused (see Application).
     */
    public static boolean deriveAfterAnswer(String setting, boolean onPostgres) {
        if (setting == null || setting.isBlank()) {
            return onPostgres;
        }
        if (setting.trim().equalsIgnoreCase("before-answer")) {
            return false;
        }
        if (setting.trim().equalsIgnoreCase("after-answer")) {
            return true;
        }
        throw new IllegalArgumentException("STACKS_OBSERVER_DERIVE must be before-answer or after-answer, not '"
                + setting + "'");
    }

    public boolean isDeriveAfterAnswer() {
        return deriveAfterAnswer;
    }

    public void setDeriveAfterAnswer(boolean deriveAfterAnswer) {
        this.deriveAfterAnswer = deriveAfterAnswer;
    }

    public long getDeriveBacklogBytes() {
        return deriveBacklogBytes;
    }

    public void setDeriveBacklogBytes(long deriveBacklogBytes) {
        this.deriveBacklogBytes = deriveBacklogBytes;
    }

    public long getDeriveLingerMillis() {
        return deriveLingerMillis;
    }

    public void setDeriveLingerMillis(long deriveLingerMillis) {
        this.deriveLingerMillis = deriveLingerMillis;
    }

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

    public int getQueueCapacity() {
        return queueCapacity;
    }

    public void setQueueCapacity(int queueCapacity) {
        this.queueCapacity = queueCapacity;
    }

    public int getRequestTimeoutSeconds() {
        return requestTimeoutSeconds;
    }

    public void setRequestTimeoutSeconds(int requestTimeoutSeconds) {
        this.requestTimeoutSeconds = requestTimeoutSeconds;
    }

    public int getIdleTimeoutSeconds() {
        return idleTimeoutSeconds;
    }

    public void setIdleTimeoutSeconds(int idleTimeoutSeconds) {
        this.idleTimeoutSeconds = idleTimeoutSeconds;
    }

    public boolean isFsyncEachPayload() {
        return fsyncEachPayload;
    }

    public void setFsyncEachPayload(boolean fsyncEachPayload) {
        this.fsyncEachPayload = fsyncEachPayload;
    }
}
