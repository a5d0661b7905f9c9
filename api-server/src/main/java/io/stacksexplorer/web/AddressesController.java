package io.stacksexplorer.web;

import io.micronaut.http.annotation.Controller;
import io.stacksexplorer.query.AddressQueries;
import io.stacksexplorer.query.AddressTxRow;
import io.stacksexplorer.query.ChainKey;
import io.stacksexplorer.query.CursorPages;
import io.stacksexplorer.query.KeyedPage;
import io.stacksexplorer.query.MempoolKey;
import io.stacksexplorer.query.MempoolTxRow;
import io.stacksexplorer.query.Page;
import io.stacksexplorer.query.PagePosition;
import io.stacksexplorer.server.api.AddressesApi;
import io.stacksexplorer.server.model.AddressEventCounts;
import io.stacksexplorer.server.model.AddressTransaction;
import io.stacksexplorer.server.model.AddressTransactionPage;
import io.stacksexplorer.server.model.AssetEventCounts;
import io.stacksexplorer.server.model.ConfirmedTransaction;
import io.stacksexplorer.server.model.ContractCallPayload;
import io.stacksexplorer.server.model.MempoolTransactionPage;
import io.stacksexplorer.server.model.PageCursorLinks;
import io.stacksexplorer.server.model.PrincipalMempoolTransactionPage;
import io.stacksexplorer.server.model.PrincipalTransactionPage;

/**
 * An address's history (pages of up to 50 rows) and its mempool list, by offset and by the peer's v3
 * cursors, on the event loop like every route (application.yml).
 */
@Controller
class AddressesController implements AddressesApi {

    private static final String NO_TRANSACTION = "0x" + "00".repeat(32);

    private final AddressQueries addresses;
    private final CursorPages cursorPages;
    private final TransactionMapper mapper;
    private final RequestParams params;

    AddressesController(AddressQueries addresses, CursorPages cursorPages, TransactionMapper mapper,
                        RequestParams params) {
        this.addresses = addresses;
        this.cursorPages = cursorPages;
        this.mapper = mapper;
        this.params = params;
    }

    @Override
    public AddressTransactionPage getAddressTransactions(String address, Integer limit, Integer offset,
                                                         String cursor, Boolean excludeFunctionArgs) {
        String principal = params.principal(address, "address");
        AddressQueries.History history = cursor == null
                ? addresses.history(principal, limit, offset)
                : addresses.historyAfter(principal, limit, PageCursors.decode(PageCursors.Kind.ADDRESS_TRANSACTIONS,
                        principal, PageCursors.withoutOffset(cursor, offset)));
        Page<AddressQueries.AddressTx> page = history.page();
        String next = page.last() == null ? null
                : PageCursors.encode(PageCursors.Kind.ADDRESS_TRANSACTIONS, principal, page.last());
        // Positions are dense (1 = oldest): the first record's is total - offset. A cursor leads below
        // the position it names; the zero id matches no record, so the position alone decides.
        long first = page.total() - page.offset();
        String current = page.results().isEmpty() ? null : PageCursors.encode(PageCursors.Kind.ADDRESS_TRANSACTIONS,
                principal, new PagePosition(first + 1, NO_TRANSACTION, 0));
        String previous = page.results().isEmpty() || page.offset() == 0 ? null
                : PageCursors.encode(PageCursors.Kind.ADDRESS_TRANSACTIONS, principal,
                new PagePosition(Math.min(first + limit, page.total()) + 1, NO_TRANSACTION, 0));
        TransactionMapper.Batch batch = mapper.batch(page.results().stream().map(r -> r.tx().rawTx()).toList(),
                history.abis());
        return new AddressTransactionPage(limit, (int) page.offset(), page.total(), page.results().stream()
                .map(record -> {
                    AddressTxRow a = record.activity();
                    ConfirmedTransaction tx = batch.confirmedInHistory(record.tx());
                    if (Boolean.TRUE.equals(excludeFunctionArgs) && tx.getContractCall() != null) {
                        // A copy without the arguments: the payload itself is shared (SignedPart).
                        ContractCallPayload call = tx.getContractCall();
                        tx.setContractCall(new ContractCallPayload(call.getContractId(), call.getFunctionName(),
                                call.getFunctionSignature()));
                    }
                    return new AddressTransaction(tx,
                            a.stxSent().toPlainString(), a.stxReceived().toPlainString(),
                            new AddressEventCounts(
                                    new AssetEventCounts(a.stxTransfer(), a.stxMint(), a.stxBurn()),
                                    new AssetEventCounts(a.ftTransfer(), a.ftMint(), a.ftBurn()),
                                    new AssetEventCounts(a.nftTransfer(), a.nftMint(), a.nftBurn())));
                })
                .toList(), next, current, previous);
    }

    @Override
    public MempoolTransactionPage getAddressMempoolTransactions(String address, Integer limit, Integer offset,
                                                                Boolean unanchored) {
        Page<MempoolTxRow> page = addresses.mempool(params.principal(address, "address"), limit, offset);
        TransactionMapper.Batch batch = mapper.batch(page.results().stream().map(MempoolTxRow::rawTx).toList());
        return new MempoolTransactionPage(limit, offset, page.total(),
                page.results().stream().map(batch::pendingInList).toList());
    }

    @Override
    public PrincipalTransactionPage getPrincipalTransactions(String principal, Integer limit, String cursor) {
        String id = params.principal(principal, "principal");
        KeyedPage<AddressQueries.AddressTx, ChainKey> page = cursorPages.principalTransactions(id, limit,
                ChainCursors.transaction(cursor));
        return new PrincipalTransactionPage(page.total(), limit,
                new PageCursorLinks(ChainCursors.transaction(page.older()), ChainCursors.transaction(page.newer()),
                        ChainCursors.transaction(page.current())),
                page.results().stream().map(r -> SummaryMapper.principalTransaction(id, r)).toList());
    }

    @Override
    public PrincipalMempoolTransactionPage getPrincipalMempoolTransactions(String principal, Integer limit,
                                                                           String cursor) {
        KeyedPage<CursorPages.PendingSummary, MempoolKey> page = cursorPages.principalMempool(
                params.principal(principal, "principal"), limit, ChainCursors.mempool(cursor));
        return new PrincipalMempoolTransactionPage(page.total(), limit,
                new PageCursorLinks(ChainCursors.mempool(page.older()), ChainCursors.mempool(page.newer()),
                        ChainCursors.mempool(page.current())),
                page.results().stream().map(SummaryMapper::pending).toList());
    }
}
