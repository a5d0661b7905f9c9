package io.stacksexplorer.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the database from the environment, with the peer's variable names so an operator can
 * reuse its env file: PostgreSQL when {@code PG_HOST} is set ({@code PG_PORT}, {@code PG_USER},
 * {@code PG_PASSWORD}, {@code PG_DATABASE}), otherwise embedded H2 in a file under the working
 * directory ({@code H2_FILE}, default {@code ./data/stacks-explorer}; pages compressed when
 * {@code H2_COMPRESS=true}; each delivery forced to the disk when {@code H2_FSYNC=true}), or in
 * memory when {@code H2_IN_MEMORY=true}.
 *
 * <p>H2 runs in its PostgreSQL compatibility mode so that one set of SQL (migrations and queries)
 * serves both databases.
 */
public final class StorageSettings {

    /** Name of the Micronaut environment active when PostgreSQL is used (selects vendor migrations). */
    public static final String POSTGRES_ENV = "postgres";

    /**
     * CACHE_SIZE (KB) is pinned: H2 otherwise scales its page cache with the heap (384 MB at a
     * 6 GB default heap, 16 MB at -Xmx256m), which halved the address route's throughput at
     * -Xmx256m; 64 MB holds the demo chain's working set and fits a 256 MB heap.
     *
     * <p>QUERY_CACHE_SIZE is the number of parsed and planned statements each H2 session keeps
     * (default 8). The seven routes prepare more distinct statements than that between them, so a
     * pooled connection serving a mix of routes parsed and planned most of its statements again on
     * every request: on the 1,000,000-transaction H2 database, the eight benchmark routes requested
     * in turn took 0.6-4.2 ms p50 (contract events 4.2 ms, 0.7 ms when requested alone); with 64 they
     * take 0.2-0.6 ms. Each kept statement is a few kilobytes per pooled connection.
     */
    private static final String H2_OPTIONS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;CACHE_SIZE=65536;QUERY_CACHE_SIZE=64";

    /**
     * H2_COMPRESS=true: the embedded file compresses its pages (LZF), a third of the disk for half
     * the write speed. The 1,000,000-transaction generated log replayed with -Xmx512m: 23.4 GB of
     * file in 468 s without, 7.9 GB in 720 s with; the routes in turn answered at p50 0.26-1.0 ms
     * against 0.22-0.62 ms (the page cache holds pages uncompressed, so hot pages cost the same).
     * Off by default: the embedded database is the zero-set-up choice, where ingest speed matters
     * more than disk. A file written either way opens either way; only new pages follow the setting.
     */
    private static final String H2_COMPRESSED = ";COMPRESS=TRUE";

    /**
     * H2's own write delay (500 ms, spelled out): commits are written to the file by H2's background
     * thread, which also frees the chunks no page lives in any more and rewrites sparse ones. What a
     * 200 from the event observer promises is written before the answer instead
     * (ChainWriter#makeDurable: CHECKPOINT, or CHECKPOINT SYNC with H2_FSYNC=true); any other commit
     * (a replay's batch, the demo chain) may be lost with the last half second when the process is
     * killed, and is written again by running the same replay, which is idempotent.
     *
     * <p>Until 2026-11-27 this was WRITE_DELAY=0 (every commit written at once), which also stops
     * that background thread, so nothing in the file was ever freed: a 100,000-transaction mixed
     * replay left a 4.5-4.8 GB file whose chunks were 15 % live, the 1,000,000-transaction one 61 GB
     * (docs/performance.md). The earlier default lost acknowledged blocks (an H2 file killed 0.5-1.7
     * ms after the observer answered 200 had lost that block on restart, 3 of 3 times); the
     * CHECKPOINT before each answer keeps that fixed (ObserverCrashTest).
     */
    private static final String H2_WRITE_DELAY = ";WRITE_DELAY=500";

    /**
     * The file is closed when the pool closes its last connection, at the end of the application's
     * own shutdown, not by H2's JVM shutdown hook: that hook runs beside Micronaut's and closed the
     * database while the observer was still deriving the payloads it had answered
     * (STACKS_OBSERVER_DERIVE=after-answer, ObserverCrashTest).
     */
    private static final String H2_CLOSED_BY_THE_POOL = ";DB_CLOSE_ON_EXIT=FALSE";

    private static final String DEFAULT_H2_FILE = "./data/stacks-explorer";

    private StorageSettings() {
    }

    /** Migrations of the embedded database: the common ones, and the few H2 spells differently. */
    public static final String H2_MIGRATIONS = "classpath:db/migration/common,classpath:db/migration/h2";

    /** The embedded database's file base name ({@code H2_FILE}), unless PostgreSQL or memory is configured. */
    public static Optional<Path> h2Base(Map<String, String> env) {
        if (usesPostgres(env) || "true".equalsIgnoreCase(env.get("H2_IN_MEMORY"))) {
            return Optional.empty();
        }
        return Optional.of(Path.of(env.getOrDefault("H2_FILE", DEFAULT_H2_FILE)));
    }

    /**
     * A plain connection URL for the H2 file of {@code base} with the options every server opens it with
     * (a file made by the server opens only with the same name case and mode), for tools and tests.
     */
    public static String h2FileUrl(Path base) {
        return "jdbc:h2:file:" + base.toAbsolutePath() + H2_OPTIONS;
    }

    public static boolean usesPostgres(Map<String, String> env) {
        return notBlank(env.get("PG_HOST"));
    }

    /** Micronaut properties for the datasource and Flyway derived from {@code env}. */
    public static Map<String, Object> properties(Map<String, String> env) {
        Map<String, Object> props = new LinkedHashMap<>();
        if (usesPostgres(env)) {
            String url = "jdbc:postgresql://" + env.get("PG_HOST") + ":" + env.getOrDefault("PG_PORT", "5432")
                    + "/" + env.getOrDefault("PG_DATABASE", "stacks_blockchain_api")
                    // Batched INSERTs go as multi-row statements: the write path's rows travel in a
                    // few round trips per block instead of one per row.
                    + "?reWriteBatchedInserts=true";
            props.put("datasources.default.url", url);
            props.put("datasources.default.driver-class-name", "org.postgresql.Driver");
            props.put("datasources.default.username", env.getOrDefault("PG_USER", "postgres"));
            props.put("datasources.default.password", env.getOrDefault("PG_PASSWORD", ""));
            // Fail fast when the server is gone: a new connection gives up after 1 s (the pool's own
            // connection-timeout bounds every caller's wait, see application.yml), and a read on a
            // half-open connection (host gone without a reset) after 60 s instead of never.
            props.put("datasources.default.data-source-properties.connectTimeout", "1");
            props.put("datasources.default.data-source-properties.socketTimeout", "60");
            props.put("datasources.default.data-source-properties.tcpKeepAlive", "true");
            if (notBlank(env.get("PG_SCHEMA"))) {
                props.put("datasources.default.schema", env.get("PG_SCHEMA"));
                props.put("flyway.datasources.default.schemas", env.get("PG_SCHEMA"));
            }
            props.put("flyway.datasources.default.locations",
                    "classpath:db/migration/common,classpath:db/migration/postgresql");
        } else {
            String url = "true".equalsIgnoreCase(env.get("H2_IN_MEMORY"))
                    ? "jdbc:h2:mem:stacks-explorer;DB_CLOSE_DELAY=-1"
                    : "jdbc:h2:file:" + env.getOrDefault("H2_FILE", DEFAULT_H2_FILE) + H2_WRITE_DELAY
                            + H2_CLOSED_BY_THE_POOL
                            + ("true".equalsIgnoreCase(env.get("H2_COMPRESS")) ? H2_COMPRESSED : "");
            props.put("datasources.default.url", url + H2_OPTIONS);
            props.put("datasources.default.driver-class-name", "org.h2.Driver");
            props.put("datasources.default.username", "sa");
            props.put("datasources.default.password", "");
            props.put("flyway.datasources.default.locations", H2_MIGRATIONS);
            if ("true".equalsIgnoreCase(env.get("H2_FSYNC"))) {
                props.put("stacks.event-observer.fsync-each-payload", true);
            }
        }
        return props;
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}
