package io.stacksexplorer.web;

import io.micronaut.http.annotation.Controller;
import io.micronaut.json.JsonMapper;
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
import io.stacksexplorer.web.KeptAnswers.Kind;

import java.util.List;

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
    private final KeptPages keptPages;
    private final JsonMapper json;
    private final Compression compression;

    AddressesController(AddressQueries addresses, CursorPages cursorPages, TransactionMapper mapper,
                        RequestParams params, KeptPages keptPages, JsonMapper json, Compression compression) {
        this.addresses = addresses;
        this.cursorPages = cursorPages;
        this.mapper = mapper;
        this.params = params;
        this.keptPages = keptPages;
        this.json = json;
        this.compression = compression;
    }

    @Override
    public AddressTransactionPage getAddressTransactions(String address, Integer limit, Integer offset,
                                                         String cursor, Boolean excludeFunctionArgs) {
        String principal = params.principal(address, "address");
        boolean withoutArguments = Boolean.TRUE.equals(excludeFunctionArgs);
        if (cursor == null) {
            return historyAtOffset(principal, limit, offset, withoutArguments);
        }
        AddressQueries.History history = addresses.historyAfter(principal, limit, PageCursors.decode(
                PageCursors.Kind.ADDRESS_TRANSACTIONS, principal, PageCursors.withoutOffset(cursor, offset)));
        Page<AddressQueries.AddressTx> page = history.page();
        List<AddressTransaction> rows = render(history, withoutArguments);
        return envelope(principal, limit, page.offset(), page.total(), rows.isEmpty(), next(principal, page), rows);
    }

    /** An address page (its envelope; results empty) whose body is spliced from kept rows ({@link PageSlice}). */
    private static final class SplicedPage extends AddressTransactionPage implements PageSlice.Spliced {
        private final HttpCaching.Rendered rendered;

        private SplicedPage(AddressTransactionPage envelope, HttpCaching.Rendered rendered) {
            super(envelope.getLimit(), envelope.getOffset(), envelope.getTotal(), envelope.getResults(),
                    envelope.getNextCursor(), envelope.getCursor(), envelope.getPrevCursor());
            this.rendered = rendered;
        }

        @Override
        public HttpCaching.Rendered rendered() {
            return rendered;
        }
    }

    /**
     * A page by offset: spliced from kept rows when the principal's count and the window's rows are
     * kept ({@link KeptPages}: the page at offset k is the records at positions total - k and below,
     * whatever the principal did since they were rendered), else one statement.
     */
    private AddressTransactionPage historyAtOffset(String principal, int limit, int offset, boolean withoutArguments) {
        KeptPages.Reading kept = keptPages.begin();
        // The rows are rendered two ways: one list each.
        String list = withoutArguments ? principal + " without arguments" : principal;
        AddressQueries.HistoryTops tops = kept.count(Kind.PRINCIPAL, principal, AddressQueries.HistoryTops.class);
        if (tops != null) {
            PageSlice rows = kept.slice(Kind.PRINCIPAL, list, tops.positionsVersion(), tops.total() - offset, limit,
                    PageSlice.class);
            if (rows != null) {
                return spliced(principal, limit, offset, tops.total(), rows);
            }
        }
        AddressQueries.History history = addresses.history(principal, limit, offset);
        AddressQueries.HistoryTops now = history.tops();
        long top = now.total() - offset;
        kept.keepCount(Kind.PRINCIPAL, principal, now);
        if (!kept.keeps() || top <= 0) {
            List<AddressTransaction> rows = render(history, withoutArguments);
            return envelope(principal, limit, offset, now.total(), rows.isEmpty(), next(principal, history.page()), rows);
        }
        // The count was not kept; the window's rows may be (another offset before the list grew).
        PageSlice rows = kept.keptSlice(Kind.PRINCIPAL, list, now.positionsVersion(), top, limit, PageSlice.class);
        if (rows == null) {
            rows = PageSlice.of(json, compression, render(history, withoutArguments), next(principal, history.page()));
            kept.keepSlice(Kind.PRINCIPAL, list, now.positionsVersion(), top, limit, rows, rows.weight());
        }
        return spliced(principal, limit, offset, now.total(), rows);
    }

    private AddressTransactionPage spliced(String principal, int limit, long offset, long total, PageSlice rows) {
        AddressTransactionPage envelope = envelope(principal, limit, offset, total, rows.empty(), rows.next(), List.of());
        return new SplicedPage(envelope, rows.splice(json, envelope));
    }

    /** The cursor to the records after the page. */
    private static String next(String principal, Page<AddressQueries.AddressTx> page) {
        return page.last() == null ? null : PageCursors.encode(PageCursors.Kind.ADDRESS_TRANSACTIONS, principal, page.last());
    }

    /**
     * The page at {@code offset} of a history of {@code total} records, with {@code results} (empty for a
     * page spliced from kept rows: {@code empty} says whether it has any).
     */
    private static AddressTransactionPage envelope(String principal, int limit, long offset, long total, boolean empty,
                                                   String next, List<AddressTransaction> results) {
        // Positions are dense (1 = oldest): the first record's is total - offset. A cursor leads below
        // the position it names; the zero id matches no record, so the position alone decides.
        long first = total - offset;
        String current = empty ? null : PageCursors.encode(PageCursors.Kind.ADDRESS_TRANSACTIONS,
                principal, new PagePosition(first + 1, NO_TRANSACTION, 0));
        String previous = empty || offset == 0 ? null
                : PageCursors.encode(PageCursors.Kind.ADDRESS_TRANSACTIONS, principal,
                new PagePosition(Math.min(first + limit, total) + 1, NO_TRANSACTION, 0));
        return new AddressTransactionPage(limit, (int) offset, total, results, next, current, previous);
    }

    private List<AddressTransaction> render(AddressQueries.History history, boolean withoutArguments) {
        Page<AddressQueries.AddressTx> page = history.page();
        TransactionMapper.Batch batch = mapper.batch(page.results().stream().map(r -> r.tx().rawTx()).toList(),
                history.abis());
        return page.results().stream()
                .map(record -> {
                    AddressTxRow a = record.activity();
                    ConfirmedTransaction tx = batch.confirmedInHistory(record.tx());
                    if (withoutArguments && tx.getContractCall() != null) {
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
                .toList();
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
