package io.stacksexplorer.conformance.consumer;

import au.com.dius.pact.consumer.dsl.DslPart;
import au.com.dius.pact.consumer.dsl.PactDslJsonBody;
import au.com.dius.pact.consumer.dsl.PactDslResponse;
import au.com.dius.pact.consumer.dsl.PactDslRequestWithPath;
import au.com.dius.pact.core.model.matchingrules.NullMatcher;
import au.com.dius.pact.core.model.matchingrules.NumberTypeMatcher;

/**
 * What the client relies on in each answer, as Pact bodies: type and format matchers wherever the
 * value is data, literal values only where the spec fixes them (e.g. {@code canonical: true},
 * {@code tx_status: pending}, paging echoes, empty lists). Examples are taken from spec/openapi.yaml
 * so that every pact stays valid against it.
 */
final class Bodies {

    static final String HASH = "^0x[0-9a-f]{64}$";
    static final String HEX = "^0x([0-9a-f]{2})*$";
    static final String MICROBLOCK_HASH = "^0x([0-9a-f]{64})?$";
    static final String ISO_TIME = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";
    static final String DECIMAL = "^[0-9]+$";
    static final String ADDRESS = "^S[0-9A-Z]{20,40}$";
    static final String PRINCIPAL = "^S[0-9A-Z]{20,40}(\\.[a-zA-Z][a-zA-Z0-9_-]{0,39})?$";
    static final String CONTRACT_ID = "^S[0-9A-Z]{20,40}\\.[a-zA-Z][a-zA-Z0-9_-]{0,39}$";
    static final String TX_TYPE = "^(token_transfer|smart_contract|contract_call|poison_microblock|coinbase|tenure_change)$";
    static final String MINED_STATUS = "^(success|abort_by_response|abort_by_post_condition)$";
    static final String EVENT_TYPE = "^(smart_contract_log|stx_asset|fungible_token_asset|non_fungible_token_asset|stx_lock)$";
    static final String ANCHOR_MODE = "^(on_chain_only|off_chain_only|any)$";
    static final String PC_MODE = "^(allow|deny|originator)$";
    static final String JSON = "^application/json(;.*)?$";
    static final String PROBLEM_JSON = "^application/problem\\+json(;.*)?$";

    /** Ids that no chain has: hashes of no transaction or block anyone will ever make. */
    static final String MISSING_TX_1 = "0x3333333333333333333333333333333333333333333333333333333333333333";
    static final String MISSING_TX_2 = "0x4444444444444444444444444444444444444444444444444444444444444444";
    /** A valid mainnet address (c32check) with no history: hash160 00…00c0ffee01. */
    static final String UNUSED_ADDRESS = "SP0000000000000000C1ZZE04D0SPTC";
    /** The same address with its last checksum character changed. */
    static final String BAD_CHECKSUM_ADDRESS = "SP0000000000000000C1ZZE04D0SPTD";
    /** A well-formed contract id nobody deployed (on the boot address). */
    static final String MISSING_CONTRACT = "SP000000000000000000002Q6VF78.no-such-contract";

    // Examples from spec/openapi.yaml
    static final String EX_BLOCK_HASH = "0x10d0eb312bf0242a27de8351dcfe0c4c38a1158155f668fff31b32c911db402b";
    static final String EX_INDEX_BLOCK_HASH = "0x4f6dc8e302792fe2e3c5b66ae29db7d6170baa0e2120fb8f7b3c3956bbc3901c";
    static final String EX_PARENT_HASH = "0xcf56723b8d25ed49ab905efd43b8402bc266cb2d22dc1baf008a53c6c292ef8b";
    static final String EX_PARENT_INDEX_HASH = "0x4b7233bedf7e4a30b424a207f2be0a1156a3404783d191b631c569db0ea92812";
    static final String EX_BURN_HASH = "0x000000000000000000085a3613d572402ccf393478e3b4be3c1674e20146b6c8";
    static final String EX_MINER_TXID = "0xe0a7d24bd5f3012a7473362ee48a3462dedcddf64f7490e44a01fbda0614a339";
    static final String EX_TX_ID = "0x99d10f4fe2693440600854788b548ae2ab42dffd5f1104c9f0d33a698eb989f3";
    static final String EX_PENDING_TX_ID = "0x4ad2f9ef1e0d0cbd368a762074ab42bdbf908cd6f614e83f4ebb1ee6a6622f3e";
    static final String EX_SENDER = "SP11ZG8Q2NXHVFN375PP2BNXK3VXZ266QSA7R66WY";
    static final String EX_RECIPIENT = "SP3HXJJMJQ06GNAZ8XWDN1QM48JEDC6PP6W3YZPZJ";
    static final String EX_CONTRACT_ID = "SP1K1A1PMGW2ZJCNF46NWZWHG8TS1D23EGH1KNK60.badges";
    static final String EX_DEPLOY_TX_ID = "0xb874ddbb4a602c22bb5647c7a2f8bfcafbbca7c0c663a175f2270ef3665f33de";
    static final String EX_MEMO = "0x39353939320000000000000000000000000000000000000000000000000000000000";
    static final String EX_TIME_ISO = "2021-01-15T04:50:51.000Z";

    private Bodies() {
    }

    /** A 200 JSON answer with {@code body}. */
    static PactDslResponse ok(PactDslRequestWithPath request, DslPart body) {
        return request.willRespondWith().status(200).matchHeader("Content-Type", JSON, "application/json").body(body);
    }

    /** An RFC 9457 problem answer; {@code parameter} is the offending parameter, or null. */
    static PactDslResponse problem(PactDslRequestWithPath request, int status, String parameter) {
        PactDslJsonBody body = new PactDslJsonBody()
                .stringType("type", "about:blank")
                .stringType("title", status == 400 ? "Bad Request" : "Not Found")
                .integerType("status", status)
                .stringType("detail", status == 400 ? "the parameter is malformed" : "not found");
        if (parameter != null) {
            body.stringValue("parameter", parameter);
        }
        return request.willRespondWith().status(status)
                .matchHeader("Content-Type", PROBLEM_JSON, "application/problem+json")
                .body(body);
    }

    /** Fields of a block (schema Block) into {@code body}; height and hashes given by the caller. */
    static PactDslJsonBody blockFields(PactDslJsonBody body) {
        return body
                .booleanValue("canonical", true)
                .integerType("block_time", 1610686251L)
                .stringMatcher("block_time_iso", ISO_TIME, EX_TIME_ISO)
                .integerType("tenure_height", 47L)
                .stringMatcher("parent_block_hash", HASH, EX_PARENT_HASH)
                .stringMatcher("parent_index_block_hash", HASH, EX_PARENT_INDEX_HASH)
                .integerType("burn_block_time", 1610686251L)
                .stringMatcher("burn_block_time_iso", ISO_TIME, EX_TIME_ISO)
                .stringMatcher("burn_block_hash", HASH, EX_BURN_HASH)
                .integerType("burn_block_height", 666122L)
                .stringMatcher("miner_txid", HASH, EX_MINER_TXID)
                .integerType("tx_count", 6)
                .integerType("execution_cost_read_count", 0L)
                .integerType("execution_cost_read_length", 0L)
                .integerType("execution_cost_runtime", 0L)
                .integerType("execution_cost_write_count", 0L)
                .integerType("execution_cost_write_length", 0L);
    }

    /** A block with every field matched by type or format. */
    static PactDslJsonBody anyBlock() {
        return blockFields(new PactDslJsonBody()
                .integerType("height", 47L)
                .stringMatcher("hash", HASH, EX_BLOCK_HASH)
                .stringMatcher("index_block_hash", HASH, EX_INDEX_BLOCK_HASH));
    }

    /** Properties every transaction has (TransactionCommon) except tx_id, tx_status and tx_type. */
    static PactDslJsonBody commonFields(PactDslJsonBody tx) {
        tx.integerType("nonce", 0L)
                .stringMatcher("fee_rate", DECIMAL, "180")
                .stringMatcher("sender_address", ADDRESS, EX_SENDER)
                .booleanType("sponsored", false)
                .stringMatcher("post_condition_mode", PC_MODE, "deny");
        PactDslJsonBody postCondition = tx.eachLike("post_conditions")
                .stringMatcher("type", "^(stx|fungible|non_fungible)$", "stx")
                .stringMatcher("condition_code", "^(sent_equal_to|sent_greater_than|sent_greater_than_or_equal_to"
                        + "|sent_less_than|sent_less_than_or_equal_to|sent|not_sent|maybe_sent)$", "sent_equal_to");
        postCondition.object("principal")
                .stringMatcher("type_id", "^(principal_origin|principal_standard|principal_contract)$",
                        "principal_origin")
                .closeObject();
        postCondition.closeObject().closeArray();
        return tx.stringMatcher("anchor_mode", ANCHOR_MODE, "any");
    }

    /** Properties of the confirmed shape (ConfirmedTransactionFields) except events. */
    static PactDslJsonBody confirmedFields(PactDslJsonBody tx) {
        return tx
                .stringMatcher("block_hash", HASH, EX_BLOCK_HASH)
                .integerType("block_height", 47L)
                .integerType("block_time", 1610686251L)
                .stringMatcher("block_time_iso", ISO_TIME, EX_TIME_ISO)
                .integerType("burn_block_height", 666122L)
                .integerType("burn_block_time", 1610686251L)
                .stringMatcher("burn_block_time_iso", ISO_TIME, EX_TIME_ISO)
                .integerType("parent_burn_block_time", 1610684474L)
                .stringMatcher("parent_burn_block_time_iso", ISO_TIME, "2021-01-15T04:21:14.000Z")
                .booleanValue("canonical", true)
                .integerType("tx_index", 5)
                .object("tx_result")
                    .stringMatcher("hex", HEX, "0x0703")
                    .stringType("repr", "(ok true)")
                .closeObject().asBody()
                .integerType("event_count", 1)
                .stringMatcher("parent_block_hash", HASH, EX_PARENT_HASH)
                .booleanType("is_unanchored", false)
                .stringMatcher("microblock_hash", MICROBLOCK_HASH, "0x")
                .integerType("microblock_sequence", 2147483647)
                .booleanType("microblock_canonical", true)
                .integerType("execution_cost_read_count", 0L)
                .integerType("execution_cost_read_length", 0L)
                .integerType("execution_cost_runtime", 0L)
                .integerType("execution_cost_write_count", 0L)
                .integerType("execution_cost_write_length", 0L);
    }

    /** The payload of a token transfer. */
    static PactDslJsonBody tokenTransferPayload(PactDslJsonBody tx) {
        return tx.object("token_transfer")
                .stringMatcher("recipient_address", PRINCIPAL, EX_RECIPIENT)
                .stringMatcher("amount", DECIMAL, "6668177599")
                .stringMatcher("memo", HEX, EX_MEMO)
                .closeObject().asBody();
    }

    /** An event as served with a transaction: index, type and tx id; kind-specific data left open. */
    static PactDslJsonBody eventsOf(PactDslJsonBody tx, String txIdExample) {
        return tx.eachLike("events")
                .integerType("event_index", 0)
                .stringMatcher("event_type", EVENT_TYPE, "stx_asset")
                .stringMatcher("tx_id", HASH, txIdExample)
                .closeObject().closeArray().asBody();
    }

    /** Nullable integers (PoX unlock heights): null or an integer. */
    static PactDslJsonBody nullableInteger(PactDslJsonBody body, String name) {
        return body.or(name, null, NullMatcher.INSTANCE, new NumberTypeMatcher(NumberTypeMatcher.NumberType.INTEGER));
    }
}
