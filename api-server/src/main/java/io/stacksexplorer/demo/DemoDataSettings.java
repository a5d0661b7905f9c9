package io.stacksexplorer.demo;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * {@code demo-data.*}: whether an empty embedded database is filled with the {@link DemoChain} at
 * start-up ({@code DEMO_DATA}, default true), and from which seed.
 */
@ConfigurationProperties("demo-data")
public class DemoDataSettings {

    private boolean enabled = true;
    private long seed = DemoChain.DEFAULT_SEED;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public long getSeed() {
        return seed;
    }

    public void setSeed(long seed) {
        this.seed = seed;
    }
}
