package io.stacksexplorer.write;

import java.util.Locale;

/**
 * The tables the write path reads or writes ({@link WriteStatement}), one constant per table of the
 * migrations it touches; the name in SQL is the constant's in lower case.
 */
enum Table {
    BLOCKS, TXS, TX_EVENTS, PRINCIPAL_TXS, PRINCIPAL_STATS, CONTRACT_LOG_STATS, SMART_CONTRACTS,
    MEMPOOL_TXS, MEMPOOL_PRINCIPALS, MEMPOOL_PRINCIPAL_STATS, CHAIN_STATE, NODE_EVENTS,
    CHANGE_LOG, CHANGE_LOG_HEAD, DERIVE_CURSOR, HELD_TXS;

    /** The table's name as the SQL spells it. */
    String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
