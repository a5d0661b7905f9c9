package io.stacksexplorer.web;

import io.stacksexplorer.ops.CommitWatch;
import io.stacksexplorer.query.ChangeQueries;
import io.stacksexplorer.query.ChangeQueries.Change;
import io.stacksexplorer.web.KeptAnswers.Dependency;
import io.stacksexplorer.web.KeptAnswers.Kind;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Follows the change log and tells {@link KeptAnswers} what each commit changed, so that an answer
 * is dropped when what it was made from changes and kept otherwise. It reads the log by position on
 * this server's database, as subscriptions do (subscribe.ChangeFeed): on a writer and on a
 * {@code readonly} server on a streaming standby alike, where NOTIFY never arrives.
 *
 * <p>When: {@link CommitWatch} moves its version at each commit of this process (before the writer
 * returns) and at each commit it sees of another (within its watch interval); this thread wakes on
 * the move, reads the log from where it stopped and marks the version {@linkplain #current current}
 * once it has applied everything the log held. The answer cache serves kept answers only while the
 * version is current, so between a commit and its application nothing kept is served: no answer
 * older than a commit its data took part in, on this server, once the commit is seen.
 *
 * <p>What a change reaches ({@link ChangeQueries#reached}): a block moves the tip, and is a reorg when it is
 * not higher than every block seen before; a transaction (mined, left the chain, entered or left the
 * mempool, replaced) reaches its own lookups, the principals of its rows, the contracts it deployed
 * or logged from and the mempool pages of those it concerns. What this thread cannot work out drops
 * everything: its start, a log pruned past the position it stopped at, a change of a kind it does
 * not know, and an anchor block after microblocks whose transactions it did not see (microblock
 * settlement leaves no row per transaction in the log). Kinds no kept answer depends on are not
 * worked out at all ({@link KeptAnswers#changedAll}).
 */
@Singleton
class AnswerInvalidation {

    private static final Logger LOG = LoggerFactory.getLogger(AnswerInvalidation.class);
    private static final long NOT_CURRENT = Long.MIN_VALUE;
    private static final int PAGE = 1_000;
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long RETRY_MILLIS = 500;

    private final CommitWatch commits;
    private final ChangeQueries changes;
    private final ChangeQueries reach;
    private final KeptAnswers kept;
    /** The version whose changes are all applied, or {@link #NOT_CURRENT}. */
    private volatile long applied = NOT_CURRENT;
    private volatile boolean closed;
    private volatile Thread thread;

    // Confined to the thread.
    /** The last change applied; -1 before the first read of the log. */
    private long position = -1;
    /** The highest block seen; -1 when the chain had none at the start. */
    private long highest = -1;
    /** Transactions of microblocks not settled yet by an anchor block; null when not known. */
    private Set<String> unsettled;

    AnswerInvalidation(CommitWatch commits, ChangeQueries changes, ChangeQueries reach, KeptAnswers kept) {
        this.commits = commits;
        this.changes = changes;
        this.reach = reach;
        this.kept = kept;
    }

    /** Whether every change up to {@code version} (from {@link CommitWatch#version}) has been applied. */
    boolean current(long version) {
        if (thread == null) {
            start();
        }
        return version != CommitWatch.UNKNOWN && applied == version;
    }

    private synchronized void start() {
        if (thread != null || closed) {
            return;
        }
        Thread t = new Thread(this::run, "answer-invalidation");
        t.setDaemon(true);
        commits.onChange(() -> LockSupport.unpark(t));
        thread = t;
        t.start();
    }

    private void run() {
        while (!closed) {
            long version = commits.version();
            if (version == applied) {
                LockSupport.parkNanos(this, IDLE_NANOS);
                continue;
            }
            if (version == CommitWatch.UNKNOWN) {
                // Not watching (H2, switched off, connection lost): start over once it watches again.
                applied = NOT_CURRENT;
                position = -1;
                LockSupport.parkNanos(this, IDLE_NANOS);
                continue;
            }
            try {
                follow();
                applied = version;
            } catch (RuntimeException e) {
                applied = NOT_CURRENT;
                position = -1;
                LOG.debug("answer invalidation: {}; no kept answer is served until it reads the change log again",
                        e.getMessage());
                pause();
            }
        }
    }

    /**
     * Applies every change logged after {@link #position}: the thread's step, run after each move of
     * the version. Package-private so that a test can choose which changes one page holds (by what it
     * commits between two calls) on an instance whose thread it never starts.
     */
    void follow() {
        if (position < 0) {
            position = changes.head();
            // Read after the position: a block committed between counts as seen, so when it is read
            // it is taken for a reorg (dropping more than needed, never less).
            highest = reach.tipHeight();
            unsettled = reach.microblocksSinceLastBlock() ? null : new HashSet<>();
            kept.changedEverything();
            return;
        }
        while (true) {
            List<Change> page = changes.after(position, PAGE);
            if (page.isEmpty()) {
                return;
            }
            if (page.get(0).position() != position + 1) {
                // The log was pruned past the last change read: what happened between is unknown.
                kept.changedEverything();
            }
            apply(page);
            position = page.get(page.size() - 1).position();
            if (page.size() < PAGE) {
                return;
            }
        }
    }

    private void apply(List<Change> page) {
        Set<Dependency> changed = new HashSet<>();
        changed.add(Dependency.of(Kind.ANY));
        Set<String> txIds = new LinkedHashSet<>();
        List<String> blocks = new ArrayList<>();
        boolean everything = false;
        for (Change change : page) {
            switch (change.kind()) {
                case "block" -> {
                    blocks.add(change.indexBlockHash());
                    if (unsettled == null) {
                        kept.changedEverything();
                        unsettled = new HashSet<>();
                    }
                    if (!unsettled.isEmpty()) {
                        // Settling a microblock stream renumbers the lists its rows are in (write.Positions).
                        changed.add(Dependency.of(Kind.POSITIONS));
                    }
                    txIds.addAll(unsettled);
                    unsettled.clear();
                }
                case "microblock" -> {
                    changed.add(Dependency.of(Kind.TIP));
                    // Unanchored rows are numbered among the served ones, and a stream can replace another.
                    changed.add(Dependency.of(Kind.POSITIONS));
                    List<String> ids = changes.microblockTxs(change.microblock().hash()).txIds();
                    txIds.addAll(ids);
                    if (unsettled != null) {
                        unsettled.addAll(ids);
                    }
                }
                case "tx", "mempool" -> txIds.add(change.txId());
                // A rebuild (write.ChangeLog.KIND_REBUILD) wrote every derived row again.
                case "rebuild" -> everything = true;
                // A kind this build does not know (a newer writer's): whatever it changed, nothing kept is trusted.
                default -> everything = true;
            }
        }
        if (!blocks.isEmpty()) {
            changed.add(Dependency.of(Kind.TIP));
            // Also when everything goes: the highest block seen must move, or a later block replacing
            // one of these would not be taken for a reorg.
            if (reorg(blocks)) {
                changed.add(Dependency.of(Kind.REORG));
                changed.add(Dependency.of(Kind.POSITIONS));
            }
        }
        if (everything) {
            kept.changedEverything();
            return;
        }
        if (!txIds.isEmpty()) {
            reached(txIds, changed);
        }
        kept.changed(changed);
    }

    /** Whether a block is not above all seen before (one the chain already had a block at). */
    private boolean reorg(List<String> blocks) {
        Map<String, Long> heights = reach.heights(blocks);
        boolean reorg = false;
        for (String block : blocks) {
            Long height = heights.get(block);
            if (height == null || height <= highest) {
                reorg = true;
            } else {
                highest = height;
            }
        }
        return reorg;
    }

    private void reached(Set<String> txIds, Set<Dependency> changed) {
        if (kept.anyKept(Kind.TX)) {
            txIds.forEach(id -> changed.add(new Dependency(Kind.TX, id)));
        } else {
            kept.changedAll(Kind.TX);
        }
        ChangeQueries.Wanted wanted = new ChangeQueries.Wanted(kept.anyKept(Kind.PRINCIPAL), kept.anyKept(Kind.MEMPOOL),
                kept.anyKept(Kind.CONTRACT), kept.anyKept(Kind.LOGS));
        ChangeQueries.Reached reached = reach.reached(txIds, wanted);
        add(changed, Kind.PRINCIPAL, wanted.principals(), reached.principals());
        add(changed, Kind.MEMPOOL, wanted.pending() && !reached.pendingUnknown(), reached.pendingPrincipals());
        add(changed, Kind.CONTRACT, wanted.contracts(), reached.contracts());
        add(changed, Kind.LOGS, wanted.logs(), reached.loggingContracts());
    }

    private void add(Set<Dependency> changed, Kind kind, boolean workedOut, Set<String> ids) {
        if (!workedOut) {
            kept.changedAll(kind);
            return;
        }
        ids.forEach(id -> changed.add(new Dependency(kind, id)));
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    @PreDestroy
    void close() throws InterruptedException {
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            t.join(2_000);
        }
    }
}
