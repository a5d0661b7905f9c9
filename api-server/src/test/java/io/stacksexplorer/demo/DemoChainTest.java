package io.stacksexplorer.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.PostCondition;
import io.stacksexplorer.codec.tx.SpendingCondition;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionEncoder;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.TxOutcome;
import java.math.BigInteger;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The demo chain is deterministic, decodable, consistent and covers everything the API can show. */
class DemoChainTest {

    private static final Pattern HASH32 = Pattern.compile("0x[0-9a-f]{64}");
    private static final String ZERO_HASH = "0x" + "00".repeat(32);

    private static DemoChain chain;
    /** Every mined transaction decoded, by tx id. */
    private static final Map<String, StacksTransaction> decoded = new HashMap<>();

    @BeforeAll
    static void generate() {
        long started = System.nanoTime();
        chain = DemoChain.generate(DemoChain.DEFAULT_SEED);
        System.out.printf("demo chain generated in %d ms: %s%n", (System.nanoTime() - started) / 1_000_000,
                chain.summary().describe());
        for (NewBlock block : chain.blocks()) {
            for (NewTransaction tx : block.transactions()) {
                decoded.put(tx.txId(), StacksTransaction.decodeHex(tx.rawTx()));
            }
        }
    }

    private static List<NewTransaction> allTxs() {
        return chain.blocks().stream().flatMap(b -> b.transactions().stream()).toList();
    }

    @Test
    void sameSeedGivesTheSameChainAndAnotherSeedAnother() {
        DemoChain again = DemoChain.generate(DemoChain.DEFAULT_SEED);
        assertEquals(chain.blocks(), again.blocks());
        assertEquals(chain.mempool(), again.mempool());
        assertEquals(chain.summary(), again.summary());

        DemoChain other = DemoChain.generate(7);
        assertNotEquals(chain.blocks().get(0).blockHash(), other.blocks().get(0).blockHash());
        assertNotEquals(chain.blocks().get(1).transactions().get(0).rawTx(),
                other.blocks().get(1).transactions().get(0).rawTx());
    }

    @Test
    void everyRawTransactionDecodesReEncodesAndMatchesItsId() {
        Set<String> ids = new HashSet<>();
        for (NewTransaction tx : allTxs()) {
            byte[] raw = Hex.decode(tx.rawTx());
            StacksTransaction decodedTx = decoded.get(tx.txId());
            // A Bitcoin-originated operation's transaction is built by the ingest (unsigned) and keeps the
            // node's txid; every other one is the hash of its bytes.
            boolean built = decodedTx.origin() instanceof io.stacksexplorer.codec.tx.SpendingCondition.SingleSig s
                    && s.isUnsigned();
            if (!built) {
                assertEquals(Sha512_256.txId(raw), tx.txId());
            }
            assertArrayEquals(raw, TransactionEncoder.encode(decodedTx));
            assertTrue(decodedTx.isMainnet());
            assertEquals(1L, decodedTx.chainId());
            assertTrue(decodedTx.senderAddress().toString().startsWith("S"));
            assertTrue(ids.add(tx.txId()), "duplicate tx id " + tx.txId());
            // Clarity hex fields are valid values that re-serialize to themselves.
            assertClarity(tx.rawResult());
            for (NewEvent event : tx.events()) {
                if (event instanceof NewEvent.ContractLog log) {
                    assertEquals("print", log.topic());
                    assertClarity(log.valueHex());
                } else if (event instanceof NewEvent.NonFungibleAsset nft) {
                    assertClarity(nft.valueHex());
                }
            }
        }
        for (NewMempoolTransaction pending : chain.mempool()) {
            byte[] raw = Hex.decode(pending.rawTx());
            assertArrayEquals(raw, TransactionEncoder.encode(StacksTransaction.decode(raw)));
            assertTrue(ids.add(Sha512_256.txId(raw)), "pending tx also mined or duplicated");
        }
    }

    @Test
    void blocksAreTheCanonicalChainFromHeightOneWithTheGenesisInsideBlockOne() {
        List<NewBlock> blocks = chain.blocks();
        assertEquals(chain.generated().blocks(), blocks.size(), "the generator's count of canonical blocks");
        assertEquals(chain.generated().tipIndexBlockHash(), blocks.get(blocks.size() - 1).indexBlockHash());
        NewBlock first = blocks.get(0);
        assertEquals(1, first.height());
        NewTransaction genesis = first.transactions().get(0);
        assertEquals(1, genesis.txIndex(), "tx_index + 1, as the peer serves it");
        assertTrue(genesis.events().stream().allMatch(e -> e instanceof NewEvent.StxAsset stx
                && stx.action() == NewEvent.AssetAction.MINT), "block 0's transaction, with the initial balances");
        Set<String> hashes = new HashSet<>();
        for (int i = 0; i < blocks.size(); i++) {
            NewBlock block = blocks.get(i);
            assertEquals(i + 1, block.height());
            assertTrue(HASH32.matcher(block.indexBlockHash()).matches(), block.indexBlockHash());
            assertTrue(hashes.add(block.indexBlockHash()));
            if (i > 0) {
                NewBlock parent = blocks.get(i - 1);
                assertEquals(parent.indexBlockHash(), block.parentIndexBlockHash());
                assertEquals(parent.blockHash(), block.parentBlockHash());
                assertTrue(block.blockTime() >= parent.blockTime());
            }
        }
        long txs = blocks.stream().mapToLong(b -> b.transactions().size()).sum();
        assertEquals(chain.generated().servedTransactions(), txs,
                "the generator's count of canonical transactions and Bitcoin operations");
        assertTrue(chain.generated().reorgs() > 0, "forked siblings were left out");
        assertTrue(chain.generated().blocksByEra().get("2") > 10 && chain.generated().blocksByEra().get("3") > 100,
                "both eras: " + chain.generated().blocksByEra());
    }

    @Test
    void coversEveryTransactionTypeOutcomeAndEventKind() {
        Set<String> types = new TreeSet<>();
        Set<Integer> payloadIds = new TreeSet<>();
        Set<String> outcomes = new TreeSet<>();
        Set<String> eventKinds = new TreeSet<>();
        Set<String> failedDeployKinds = new TreeSet<>();
        Set<String> conditionKinds = new TreeSet<>();
        Set<String> conditionPrincipals = new TreeSet<>();
        Set<String> conditionModes = new TreeSet<>();
        Set<Integer> logValueTypes = new TreeSet<>();
        int sponsored = 0;
        int failedCallsWithErr = 0;
        int stackStxLocks = 0;
        for (NewTransaction tx : allTxs()) {
            StacksTransaction t = decoded.get(tx.txId());
            types.add(t.payload().txType());
            payloadIds.add(t.payload().typeId());
            outcomes.add(tx.status().apiName());
            tx.events().forEach(e -> eventKinds.add(e.eventType() + assetAction(e)));
            if (t.isSponsored()) {
                sponsored++;
                assertEquals(BigInteger.ZERO, t.origin().fee());
                assertTrue(t.fee().signum() > 0);
            }
            for (PostCondition condition : t.postConditions()) {
                conditionKinds.add(condition.type());
                conditionPrincipals.add(condition.principal().typeId());
            }
            conditionModes.add(t.postConditionMode().apiName());
            if (tx.status() != TxOutcome.SUCCESS) {
                assertTrue(tx.events().isEmpty(), "failed transactions commit no events");
                if (t.payload() instanceof TransactionPayload.SmartContract) {
                    failedDeployKinds.add(tx.status().apiName());
                    assertNull(tx.contractAbi());
                }
                if (tx.status() == TxOutcome.ABORT_BY_RESPONSE
                        && t.payload() instanceof TransactionPayload.ContractCall) {
                    ClarityValue result = ClarityValue.decodeHex(tx.rawResult());
                    assertTrue(result instanceof ClarityValue.ResponseErr err && err.value() instanceof ClarityValue.UInt,
                            "failed calls return (err u...)");
                    failedCallsWithErr++;
                }
            } else if (t.payload() instanceof TransactionPayload.SmartContract) {
                assertNotNull(tx.contractAbi());
            }
            if (t.payload() instanceof TransactionPayload.ContractCall call
                    && call.contract().toString().equals("SP000000000000000000002Q6VF78.pox")) {
                assertEquals("stack-stx", call.functionName());
                assertTrue(tx.events().stream().anyMatch(e -> e instanceof NewEvent.StxLock));
                stackStxLocks++;
            }
            if (tx.status() == TxOutcome.PROBLEMATIC_SKIPPED) {
                // Not run (epoch 4.0): the node reports it with no cost and (err none).
                assertEquals(0, tx.cost().runtime());
                assertEquals("0x0809", tx.rawResult());
            } else if (!(t.payload() instanceof TransactionPayload.TokenTransfer || t.payload() instanceof
                    TransactionPayload.Coinbase || t.payload() instanceof TransactionPayload.TenureChange
                    || t.payload() instanceof TransactionPayload.PoisonMicroblock)) {
                assertTrue(tx.cost().runtime() > 0, "contract transactions have an execution cost");
            }
            for (NewEvent event : tx.events()) {
                if (event instanceof NewEvent.ContractLog log) {
                    collectTypes(ClarityValue.decodeHex(log.valueHex()), logValueTypes);
                }
            }
        }
        assertEquals(Set.of("coinbase", "contract_call", "poison_microblock", "smart_contract", "tenure_change",
                "token_transfer"), types);
        // Both eras' coinbases (0x04 and Nakamoto's 0x08); one paying an alternative recipient (0x05)
        // is rare (4 %) and the demo's few dozen coinbases need not have one.
        assertTrue(payloadIds.containsAll(List.of(0x00, 0x01, 0x02, 0x03, 0x04, 0x06, 0x07, 0x08)), payloadIds.toString());
        assertEquals(Set.of("success", "abort_by_response", "abort_by_post_condition", "problematic_skipped"), outcomes);
        assertEquals(Set.of("smart_contract_log", "stx_asset/transfer", "stx_asset/mint", "stx_asset/burn",
                "fungible_token_asset/transfer", "fungible_token_asset/mint", "fungible_token_asset/burn",
                "non_fungible_token_asset/transfer", "non_fungible_token_asset/mint", "non_fungible_token_asset/burn",
                "stx_lock"), eventKinds);
        assertEquals(Set.of("abort_by_response", "abort_by_post_condition"), failedDeployKinds);
        assertEquals(Set.of("stx", "fungible", "non_fungible", "staking", "pox"), conditionKinds);
        assertEquals(Set.of("principal_origin", "principal_standard", "principal_contract"), conditionPrincipals);
        assertEquals(Set.of("allow", "deny", "originator"), conditionModes);
        assertTrue(logValueTypes.containsAll(List.of(ClarityValue.TYPE_INT, ClarityValue.TYPE_UINT,
                ClarityValue.TYPE_BUFFER, ClarityValue.TYPE_STANDARD_PRINCIPAL, ClarityValue.TYPE_CONTRACT_PRINCIPAL,
                ClarityValue.TYPE_RESPONSE_OK, ClarityValue.TYPE_NONE, ClarityValue.TYPE_SOME, ClarityValue.TYPE_LIST,
                ClarityValue.TYPE_TUPLE, ClarityValue.TYPE_STRING_ASCII, ClarityValue.TYPE_STRING_UTF8)),
                logValueTypes.toString());
        assertTrue(sponsored >= 1);
        assertTrue(failedCallsWithErr >= 10);
        assertTrue(stackStxLocks >= 3);
    }

    @Test
    void theFailedDeploymentExampleNeverSucceeded() {
        Map<String, List<String>> outcomesByContract = new HashMap<>();
        for (NewTransaction tx : allTxs()) {
            decoded.get(tx.txId()).smartContractId().ifPresent(id ->
                    outcomesByContract.computeIfAbsent(id.toString(), k -> new java.util.ArrayList<>())
                            .add(tx.status().apiName()));
        }
        List<String> outcomes = outcomesByContract.get(chain.summary().failedDeploymentContractId());
        assertFalse(outcomes.isEmpty());
        assertFalse(outcomes.contains("success"), outcomes.toString());
    }

    @Test
    void hotAddressesAreBusyAndTheTotalIsThePresetSize() {
        DemoChain.Summary summary = chain.summary();
        assertEquals(3_000 + chain.generated().burnchainOperations().values().stream().mapToLong(Long::longValue).sum(),
                summary.txCount(), "the demo preset's size and its Bitcoin operations");
        assertTrue(chain.generated().servedTransactions() > 3_000, "the demo has Bitcoin operations");
        assertEquals(3, summary.hotAddresses().size());
        Map<String, Integer> counted = new HashMap<>();
        for (NewTransaction tx : allTxs()) {
            StacksTransaction t = decoded.get(tx.txId());
            Set<String> parties = new HashSet<>();
            parties.add(t.senderAddress().toString());
            if (t.payload() instanceof TransactionPayload.TokenTransfer transfer) {
                parties.add(transfer.recipientAddress());
            }
            for (NewEvent event : tx.events()) {
                if (event instanceof NewEvent.StxAsset stx) {
                    parties.add(stx.sender());
                    parties.add(stx.recipient());
                } else if (event instanceof NewEvent.FungibleAsset ft) {
                    parties.add(ft.sender());
                    parties.add(ft.recipient());
                }
            }
            parties.forEach(p -> counted.merge(p, 1, Integer::sum));
        }
        assertEquals(chain.generated().hotAddress(), summary.hotAddresses().get(0));
        assertTrue(counted.get(summary.hotAddresses().get(0)) > 500, "the generator's hot address");
        for (String hot : summary.hotAddresses()) {
            // Busy: the third (the labs account, the DEX's deployer) is in 48 of the 3,000 since epochs 3.3-4.0 came.
            assertTrue(summary.hotAddressTxCounts().get(hot) > 40, hot + " has " + summary.hotAddressTxCounts());
            assertTrue(StacksAddress.parse(hot).isMainnet());
        }
    }

    @Test
    void mempoolHoldsWhatIsStillPendingAtTheEnd() {
        List<NewMempoolTransaction> mempool = chain.mempool();
        assertEquals(chain.generated().mempoolPendingAtEnd(), mempool.size());
        Set<String> types = new TreeSet<>();
        Set<String> senders = new HashSet<>();
        boolean sponsored = false;
        for (NewMempoolTransaction pending : mempool) {
            StacksTransaction t = StacksTransaction.decodeHex(pending.rawTx());
            types.add(t.payload().txType());
            senders.add(t.senderAddress().toString());
            if (t.payload() instanceof TransactionPayload.TokenTransfer transfer) {
                senders.add(transfer.recipientAddress());
            }
            sponsored |= t.isSponsored();
        }
        assertTrue(types.containsAll(Set.of("token_transfer", "contract_call")), types.toString());
        assertEquals(Sha512_256.txId(Hex.decode(mempool.get(0).rawTx())), chain.summary().pendingTxId());
    }

    @Test
    void summaryExamplesPointAtMatchingTransactions() {
        DemoChain.Summary summary = chain.summary();
        Map<String, NewTransaction> byId = new HashMap<>();
        allTxs().forEach(tx -> byId.put(tx.txId(), tx));
        assertEquals(chain.blocks().size(), summary.blockCount());
        assertEquals(allTxs().size(), summary.txCount());
        assertEquals(summary.txCount(), summary.txCountByType().values().stream().mapToInt(Integer::intValue).sum());
        summary.exampleTxIdByType().forEach((type, id) -> {
            assertEquals(type, decoded.get(id).payload().txType());
            assertEquals(TxOutcome.SUCCESS, byId.get(id).status());
        });
        assertEquals(6, summary.exampleTxIdByType().size());
        assertTrue(byId.get(summary.sponsoredTxId()) != null && decoded.get(summary.sponsoredTxId()).isSponsored());
        assertTrue(byId.get(summary.microblockTxId()).inMicroblock());
        assertEquals(TxOutcome.ABORT_BY_RESPONSE, byId.get(summary.failedContractCallTxId()).status());
        assertEquals(TxOutcome.ABORT_BY_POST_CONDITION, byId.get(summary.abortByPostConditionTxId()).status());
        assertTrue(byId.get(summary.stxLockTxId()).events().get(0) instanceof NewEvent.StxLock);
        long logs = allTxs().stream().flatMap(tx -> tx.events().stream())
                .filter(e -> e instanceof NewEvent.ContractLog log && log.contractId().equals(summary.contractIdWithLogs()))
                .count();
        assertTrue(logs > 100, "logs of " + summary.contractIdWithLogs() + ": " + logs);
        assertTrue(summary.ftAssetId().endsWith(".demo-token::demo-token"));
        assertTrue(summary.nftAssetId().endsWith(".demo-nft::demo-nft"));
        assertTrue(summary.microblockTxCount() > 0);
        assertFalse(summary.describe().isBlank());
    }

    // ------------------------------------------------------------------------------------------

    private static String assetAction(NewEvent event) {
        if (event instanceof NewEvent.StxAsset e) {
            return "/" + e.action().apiName();
        } else if (event instanceof NewEvent.FungibleAsset e) {
            return "/" + e.action().apiName();
        } else if (event instanceof NewEvent.NonFungibleAsset e) {
            return "/" + e.action().apiName();
        }
        return "";
    }

    private static void checkNonce(Map<String, Long> nextNonce, String address, SpendingCondition condition) {
        long expected = nextNonce.getOrDefault(address, 0L);
        assertEquals(expected, condition.nonce().longValueExact(), "nonce of " + address);
        nextNonce.put(address, expected + 1);
    }

    private static void assertClarity(String hex) {
        ClarityValue value = ClarityValue.decodeHex(hex);
        assertEquals(hex, value.serializeHex());
    }

    private static void collectTypes(ClarityValue value, Set<Integer> types) {
        types.add(value.typeId());
        if (value instanceof ClarityValue.Tuple tuple) {
            tuple.entries().forEach(e -> collectTypes(e.value(), types));
        } else if (value instanceof ClarityValue.ListValue list) {
            list.items().forEach(item -> collectTypes(item, types));
        } else if (value instanceof ClarityValue.OptionalSome some) {
            collectTypes(some.value(), types);
        } else if (value instanceof ClarityValue.ResponseOk ok) {
            collectTypes(ok.value(), types);
        } else if (value instanceof ClarityValue.ResponseErr err) {
            collectTypes(err.value(), types);
        }
    }
}
