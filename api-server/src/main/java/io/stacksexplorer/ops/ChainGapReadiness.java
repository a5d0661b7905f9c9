package io.stacksexplorer.ops;

import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.endpoint.health.HealthEndpoint;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import io.micronaut.scheduling.TaskExecutors;
import io.stacksexplorer.query.BlocksWaiting;
import io.stacksexplorer.query.HeldTransactions;
import io.stacksexplorer.query.StatusQueries;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Readiness DOWN while the database lacks a block the node delivered: a block waits for a parent
 * that is not stored (see {@code ChainWriter.writeBlock}), so what is served stops below the hole
 * and would stay there silently. Cleared as soon as the missing parent arrives (re-delivered, or a
 * replay of the node's event log; docs/operations.md: Recovering from a gap). When the database cannot be read
 * this indicator says nothing: {@link DatabaseReadiness} reports that. One indexed count per probe
 * (node_events' deferred_parent index), read-only, so a reader on a standby reports its writer's gap.
 */
@Singleton
@Readiness
@Requires(beans = HealthEndpoint.class)
class ChainGapReadiness extends BlockingHealthIndicator {

    private final StatusQueries statusQueries;

    ChainGapReadiness(StatusQueries status, @Named(TaskExecutors.BLOCKING) ExecutorService blocking) {
        super(blocking);
        this.statusQueries = status;
    }

    @Override
    HealthResult check() {
        Map<String, Object> details = new LinkedHashMap<>();
        HealthStatus status = HealthStatus.UP;
        try {
            BlocksWaiting waiting = statusQueries.blocksWaitingForParent();
            details.put("blocksWaitingForParent", waiting.count());
            // Reported, not DOWN: a stream can arrive before its block for a moment; one that stays
            // shows in the metric stacks_ingest_microblocks_waiting_for_anchor.
            details.put("microblocksWaitingForAnchor", waiting.microblocksWaitingForAnchor());
            if (waiting.count() > 0) {
                status = HealthStatus.DOWN;
                details.put("problem", waiting.count() + " delivered block(s) wait for parent " + waiting.firstParent()
                        + ", which this database does not hold: served data stops below it."
                        + " Re-deliver the missing blocks or replay the node's event log (docs/operations.md: Recovering from a gap)");
            }
            // Reported, not DOWN: the chain is whole and served; these transactions wait for an upgrade.
            HeldTransactions held = statusQueries.heldTransactions();
            details.put("heldTransactions", held.count());
            if (held.count() > 0) {
                details.put("held", held.count() + " transaction(s) this build cannot read are held, not served; the"
                        + " lowest: " + held.firstTxId() + " in block " + held.firstHeight() + " (" + held.firstReason()
                        + "). Upgrade, then run `rebuild` (docs/operations.md: Held transactions)");
            }
        } catch (RuntimeException e) {
            details.put("blocksWaitingForParent", "unknown: " + Unavailable.detailFor(e));
        }
        return HealthResult.builder("chainGap", status).details(details).build();
    }
}
