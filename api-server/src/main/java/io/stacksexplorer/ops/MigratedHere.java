package io.stacksexplorer.ops;

import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.flyway.FlywayConfigurationProperties;
import io.micronaut.flyway.event.MigrationFinishedEvent;
import jakarta.inject.Singleton;

/**
 * Whether this process has migrated the default database itself (Micronaut Flyway's event after a
 * successful {@code migrate}), so that {@link SchemaStatus} need not ask Flyway again. A bean of its
 * own, without dependencies: the event is published while the data source is being created, when
 * {@link SchemaStatus} (which needs the data source) cannot be.
 *
 * <p>A first start that copied the demo database built by this very jar
 * ({@code io.stacksexplorer.demo.DemoDatabase}) does not run Flyway at all: that file was migrated by
 * this jar's migrations when the build made it, so its schema is current by construction
 * ({@code demo-data.copied-from-this-jar}).
 */
@Singleton
class MigratedHere implements ApplicationEventListener<MigrationFinishedEvent> {

    private volatile boolean migrated;

    MigratedHere(@Value("${demo-data.copied-from-this-jar:false}") boolean copiedFromThisJar) {
        this.migrated = copiedFromThisJar;
    }

    @Override
    public void onApplicationEvent(MigrationFinishedEvent event) {
        if (event.getSource() instanceof FlywayConfigurationProperties done && "default".equals(done.getNameQualifier())) {
            migrated = true;
        }
    }

    boolean migrated() {
        return migrated;
    }
}
