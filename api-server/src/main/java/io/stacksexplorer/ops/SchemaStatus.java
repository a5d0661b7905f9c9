package io.stacksexplorer.ops;

import io.micronaut.context.annotation.Value;
import io.micronaut.core.util.SupplierUtil;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.config.StorageSettings;
import jakarta.inject.Singleton;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Whether the database's schema is as new as this server's migrations, read with Flyway's
 * {@code info} (a SELECT on its history table; nothing is created or locked, so it works on a
 * read-only standby). A reader that starts before the writer has migrated answers 503 until the
 * schema arrives; once current, the answer is kept (the writer never migrates backwards) and the
 * check costs nothing per request.
 *
 * <p>A process that has migrated the database itself ({@link MigratedHere}) knows the answer without
 * asking: the schema is at this server's version. Asking anyway cost the first request of a newly
 * migrated server a second configuration and scan of every migration, 0.2-0.4 CPU seconds on the
 * demo's first start (docs/performance.md).
 */
@Singleton
public class SchemaStatus {

    public static final String NOT_MIGRATED_DETAIL =
            "the database schema is missing or older than this server expects; waiting for the writer to migrate it";

    /** How often an outdated schema is looked at again; requests in between get the last answer. */
    private static final long RECHECK_NANOS = 1_000_000_000L;

    private static final Logger LOG = LoggerFactory.getLogger(SchemaStatus.class);

    private final Supplier<Flyway> flyway;
    private final DatabaseCircuit circuit;
    private final MigratedHere migratedHere;
    private volatile boolean current;
    private volatile String problem = NOT_MIGRATED_DETAIL;
    private volatile long checkedAt = System.nanoTime() - RECHECK_NANOS;

    SchemaStatus(DataSource dataSource, DatabaseCircuit circuit, MigratedHere migratedHere,
                 @Value("${flyway.datasources.default.locations:" + StorageSettings.H2_MIGRATIONS + "}") String[] locations,
                 @Value("${flyway.datasources.default.schemas:}") String schemas) {
        // Configured on the first check only: a process that migrates never needs it.
        this.flyway = SupplierUtil.memoized(() -> {
            var config = Flyway.configure()
                    .dataSource(DelegatingDataSource.unwrapDataSource(dataSource))
                    .locations(locations);
            if (!schemas.isBlank()) {
                config.schemas(schemas.split(","));
            }
            return config.load();
        });
        this.circuit = circuit;
        this.migratedHere = migratedHere;
    }

    /** Empty when the schema is current; otherwise why the API cannot answer yet. */
    public Optional<String> problem() {
        if (current) {
            return Optional.empty();
        }
        if (migratedHere.migrated()) {
            current = true;
            LOG.info("database schema migrated by this process: serving");
            return Optional.empty();
        }
        long now = System.nanoTime();
        if (now - checkedAt >= RECHECK_NANOS) {
            synchronized (this) {
                if (!current && now - checkedAt >= RECHECK_NANOS) {
                    check();
                    checkedAt = System.nanoTime();
                }
            }
        }
        return current ? Optional.empty() : Optional.of(problem);
    }

    private void check() {
        try {
            MigrationInfoService info = flyway.get().info();
            MigrationInfo applied = info.current();
            MigrationInfo[] pending = info.pending();
            if (applied != null && pending.length == 0) {
                current = true;
                LOG.info("database schema at version {}: serving", applied.getVersion());
                return;
            }
            String expected = Arrays.stream(info.all()).reduce((a, b) -> b)
                    .map(m -> String.valueOf(m.getVersion())).orElse("?");
            problem = applied == null
                    ? "the database schema is not there yet (this server needs version " + expected
                    + "); waiting for the writer to migrate it"
                    : "the database schema is at version " + applied.getVersion() + ", this server needs "
                    + expected + "; waiting for the writer to migrate it";
        } catch (RuntimeException e) {
            problem = Unavailable.detailFor(e);
            if (problem.equals(Unavailable.UNREACHABLE)) {
                circuit.unreachable();
            }
            LOG.debug("schema check failed", e);
        }
    }
}
