/**
 * What the environment tells the server at start-up ({@code PG_*}, {@code H2_*}, {@code STACKS_API_MODE},
 * {@code STACKS_API_METRICS_*}, {@code STACKS_API_CORS_ORIGINS}), turned into Micronaut properties before
 * the context starts; several capabilities read the result, so it lives here rather than in one of them.
 *
 * <p>Every configuration class is named {@code *Settings}. The typed {@code @ConfigurationProperties}
 * beans sit beside the one capability that reads them ({@code ingest.EventObserverSettings},
 * {@code ops.MetricsSettings}, {@code demo.DemoDataSettings}), so that a capability and its knobs move
 * together and this package depends on none of them.
 */
package io.stacksexplorer.config;
