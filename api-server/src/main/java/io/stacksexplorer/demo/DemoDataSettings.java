package io.stacksexplorer.demo;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.stacksexplorer.generate.Preset;

/**
 * {@code demo-data.*}: whether an empty embedded database is filled with the generator's
 * {@link Preset#DEMO demo preset} at start-up ({@code DEMO_DATA}, default true), and from which seed.
 */
@ConfigurationProperties("demo-data")
public class DemoDataSettings {

    private boolean enabled = true;
    private long seed = Preset.DEMO.seed();

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
