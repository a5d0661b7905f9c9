package io.stacksexplorer.ops;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.endpoint.health.HealthEndpoint;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Readiness for a load balancer: DOWN while no connection can be had (within the pool's
 * connection-timeout) or while the schema is missing or older than this server's migrations.
 */
@Singleton
@Readiness
@Requires(beans = HealthEndpoint.class)
class DatabaseReadiness extends BlockingHealthIndicator {

    private static final int VALIDATION_TIMEOUT_SECONDS = 2;

    private final DataSource dataSource;
    private final SchemaStatus schema;

    DatabaseReadiness(DataSource dataSource, SchemaStatus schema, @Named(TaskExecutors.BLOCKING) ExecutorService blocking) {
        super(blocking);
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.schema = schema;
    }

    @Override
    HealthResult check() {
        Map<String, Object> details = new LinkedHashMap<>();
        HealthStatus status = HealthStatus.UP;
        try (Connection c = dataSource.getConnection()) {
            // A real round trip: the pool hands out a connection used in the last 500 ms without
            // checking it, and the product name and read-only flag are answered from the driver's
            // memory, so without it a server whose database just went away reported UP.
            if (!c.isValid(VALIDATION_TIMEOUT_SECONDS)) {
                throw new SQLException("connection did not answer within " + VALIDATION_TIMEOUT_SECONDS + " s", "08006");
            }
            details.put("database", c.getMetaData().getDatabaseProductName());
            details.put("readOnly", c.isReadOnly());
        } catch (SQLException | RuntimeException e) {
            status = HealthStatus.DOWN;
            details.put("problem", Unavailable.detailFor(e));
        }
        if (status == HealthStatus.UP) {
            var problem = schema.problem();
            if (problem.isPresent()) {
                status = HealthStatus.DOWN;
                details.put("problem", problem.get());
            }
        }
        return HealthResult.builder("database", status).details(details).build();
    }
}
