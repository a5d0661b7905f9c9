package io.stacksexplorer.ingest;

/** Running totals of what ingestion derived (new rows only: repeated deliveries count nothing). */
public final class IngestStats {

    long payloads;
    long blocks;
    long transactions;
    long events;
    long mempool;
    long microblockTransactions;

    /**
     * Mempool transactions this process left out of their {@code /new_mempool_tx} batch because it cannot
     * read them (the rest of each batch is kept; a rebuild with a build that reads them adds them).
     */
    public static long unreadableMempoolTransactions() {
        return NodeTransactions.unreadableMempoolTransactions();
    }

    public long payloads() {
        return payloads;
    }

    public long blocks() {
        return blocks;
    }

    /** Transactions in new anchored blocks plus unanchored microblock transactions. */
    public long transactions() {
        return transactions;
    }

    public long events() {
        return events;
    }

    public long mempool() {
        return mempool;
    }

    public long microblockTransactions() {
        return microblockTransactions;
    }

    synchronized IngestStats snapshot() {
        IngestStats copy = new IngestStats();
        copy.payloads = payloads;
        copy.blocks = blocks;
        copy.transactions = transactions;
        copy.events = events;
        copy.mempool = mempool;
        copy.microblockTransactions = microblockTransactions;
        return copy;
    }

    public IngestStats minus(IngestStats before) {
        IngestStats d = new IngestStats();
        d.payloads = payloads - before.payloads;
        d.blocks = blocks - before.blocks;
        d.transactions = transactions - before.transactions;
        d.events = events - before.events;
        d.mempool = mempool - before.mempool;
        d.microblockTransactions = microblockTransactions - before.microblockTransactions;
        return d;
    }

    @Override
    public String toString() {
        return blocks + " blocks, " + transactions + " transactions, " + events + " events, " + mempool + " mempool";
    }
}
