package io.stacksexplorer.ops;

import java.util.function.Predicate;
import java.util.function.Supplier;

/** Polls until a condition holds; fails with the last value after a generous limit (not a timing assertion). */
final class Wait {

    private Wait() {
    }

    static <T> T until(Supplier<T> probe, Predicate<T> done, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        T last = probe.get();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within " + seconds + " s; last: " + last);
            }
            Thread.sleep(200);
            last = probe.get();
        }
        return last;
    }
}
