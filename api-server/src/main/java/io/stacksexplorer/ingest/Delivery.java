package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewMicroblocks;
import io.stacksexplorer.write.RawPayload;

import java.util.List;

/**
 * A delivery read and checked, ready to be written: what {@link #prepare} makes of a payload
 * without touching the database, so that a replay can prepare the next payloads on another
 * thread while the writer stores the previous ones.
 *
 * @param content what the path's payload parses to ({@link NodePayloads.Block},
 *                {@link NewMicroblocks}, mempool transactions, {@link NodePayloads.Drop}), or null
 *                for a payload that is only kept
 */
public record Delivery(RawPayload raw, Object content) {

    /** The block of a {@code /new_block} delivery, or null. */
    public NewBlock block() {
        return content instanceof NodePayloads.Block parsed ? parsed.block() : null;
    }

    /** The transactions of a {@code /new_mempool_tx} delivery, or an empty list. */
    @SuppressWarnings("unchecked")
    public List<NewMempoolTransaction> mempoolTransactions() {
        return content instanceof List<?> txs ? (List<NewMempoolTransaction>) txs : List.of();
    }

    /** The ids a {@code /drop_mempool_tx} delivery drops, or an empty list. */
    public List<String> droppedTxIds() {
        return content instanceof NodePayloads.Drop drop ? drop.txIds() : List.of();
    }

    /** Paths the node posts that the seven endpoints derive something from. */
    static final List<String> DERIVED_PATHS =
            List.of("/new_block", "/new_burn_block", "/new_mempool_tx", "/drop_mempool_tx", "/new_microblocks");

    /**
     * Parses and checks one delivery (JSON, transaction bytes and ids, Clarity values, the payload
     * hash). Pure: no database access, safe on any thread.
     *
     * @throws MalformedPayloadException when the payload cannot be understood
     */
    public static Delivery prepare(String path, String body, long receivedAt) {
        return prepare(RawPayload.received(path, body, receivedAt));
    }

    static Delivery prepare(RawPayload raw) {
        String path = raw.path();
        if (!DERIVED_PATHS.contains(path)) {
            return new Delivery(raw, null);
        }
        JsonNode body = NodePayloads.parse(raw.body());
        Object content = switch (path) {
            case "/new_block" -> NodePayloads.block(body);
            case "/new_microblocks" -> NodePayloads.microblocks(body, raw.receivedAt());
            case "/new_mempool_tx" -> NodePayloads.mempool(body, raw.receivedAt());
            case "/drop_mempool_tx" -> NodePayloads.drop(body);
            default -> {
                // /new_burn_block: the seven endpoints take burn data from the blocks themselves.
                if (!body.isObject()) {
                    throw new MalformedPayloadException(path + ": expected a JSON object");
                }
                yield null;
            }
        };
        return new Delivery(raw, content);
    }
}
