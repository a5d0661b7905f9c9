package io.stacksexplorer.query;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A row of {@code principal_txs}: one principal's view of one mined transaction. */
@MappedEntity(value = "principal_txs", namingStrategy = ColumnNames.class)
public record AddressTxRow(
        @Id String principal,
        String txId,
        String indexBlockHash,
        BigDecimal stxSent,
        BigDecimal stxReceived,
        int stxTransfer,
        int stxMint,
        int stxBurn,
        int ftTransfer,
        int ftMint,
        int ftBurn,
        int nftTransfer,
        int nftMint,
        int nftBurn,
        long historyPosition) {

    static final String COLUMNS = """
            p.principal, p.tx_id, p.index_block_hash, p.stx_sent, p.stx_received, p.stx_transfer, p.stx_mint,
            p.stx_burn, p.ft_transfer, p.ft_mint, p.ft_burn, p.nft_transfer, p.nft_mint, p.nft_burn,
            p.history_position""";

    /** The row from {@link #COLUMNS} read at column {@code at} onward (plain-JDBC reads, {@link PlainJdbc}). */
    static AddressTxRow read(ResultSet rs, int at) throws SQLException {
        return new AddressTxRow(rs.getString(at), rs.getString(at + 1), rs.getString(at + 2), rs.getBigDecimal(at + 3),
                rs.getBigDecimal(at + 4), rs.getInt(at + 5), rs.getInt(at + 6), rs.getInt(at + 7), rs.getInt(at + 8),
                rs.getInt(at + 9), rs.getInt(at + 10), rs.getInt(at + 11), rs.getInt(at + 12), rs.getInt(at + 13),
                rs.getLong(at + 14));
    }
}
