package io.stacksexplorer.web;

import io.micronaut.http.annotation.Controller;
import io.micronaut.json.JsonMapper;
import io.stacksexplorer.query.ChainKey;
import io.stacksexplorer.query.ContractQueries;
import io.stacksexplorer.query.CursorPages;
import io.stacksexplorer.query.KeyedPage;
import io.stacksexplorer.query.Page;
import io.stacksexplorer.query.EventRow;
import io.stacksexplorer.server.api.SmartContractsApi;
import io.stacksexplorer.server.model.ContractDeploymentStatus;
import io.stacksexplorer.server.model.ContractEventPage;
import io.stacksexplorer.server.model.ContractLogPage;
import io.stacksexplorer.server.model.ContractStatus;
import io.stacksexplorer.server.model.ContractStatusLookupEntry;
import io.stacksexplorer.server.model.TransactionEvent;
import io.stacksexplorer.web.KeptAnswers.Kind;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

@Controller
class SmartContractsController implements SmartContractsApi {

    /** The peer's answer to {@code limit=0} on contract logs: its default. */
    private static final int DEFAULT_LOG_LIMIT = 20;

    private final ContractQueries contracts;
    private final CursorPages cursorPages;
    private final RequestParams params;
    private final KeptPages keptPages;
    private final JsonMapper json;
    private final Compression compression;

    SmartContractsController(ContractQueries contracts, CursorPages cursorPages, RequestParams params,
                             KeptPages keptPages, JsonMapper json, Compression compression) {
        this.contracts = contracts;
        this.cursorPages = cursorPages;
        this.params = params;
        this.keptPages = keptPages;
        this.json = json;
        this.compression = compression;
    }

    @Override
    public Map<String, ContractStatusLookupEntry> getSmartContractsStatus(List<String> contractId) {
        Map<String, ContractStatusLookupEntry> answer = new LinkedHashMap<>();
        List<String> ids = params.contractIds(contractId, "contract_id");
        Map<String, ContractQueries.ContractStatusRow> statuses = contracts.statuses(ids);
        for (String id : ids) {
            ContractStatusLookupEntry entry = Optional.ofNullable(statuses.get(id))
                    .map(row -> {
                        ContractStatus status = new ContractStatus(ContractDeploymentStatus.fromValue(row.status()),
                                row.txId(), row.contractId());
                        status.setBlockHeight(row.blockHeight());
                        return new ContractStatusLookupEntry(true).result(status);
                    })
                    .orElseGet(() -> new ContractStatusLookupEntry(false));
            answer.put(id, entry);
        }
        return answer;
    }

    /** A page of up to 50 events: one index range scan, on the event loop like every route (application.yml). */
    @Override
    public ContractEventPage getContractEvents(String contractId, Integer limit, Integer offset, Boolean unanchored,
                                               String cursor) {
        String id = params.contractId(contractId, "contract_id");
        boolean withUnanchored = RequestParams.unanchored(unanchored);
        if (cursor == null) {
            return eventsAtOffset(id, withUnanchored, limit, offset);
        }
        Page<EventRow> page = contracts.logsAfter(id, withUnanchored, limit,
                PageCursors.decode(PageCursors.Kind.CONTRACT_EVENTS, id, PageCursors.withoutOffset(cursor, offset)));
        Rendered rendered = render(id, page);
        return new ContractEventPage(limit, (int) page.offset(), page.total(), rendered.results(), rendered.next());
    }

    /** A page's events as the API gives them, and the cursor to the page after it. */
    private record Rendered(List<TransactionEvent> results, String next) {
    }

    /** A page of events (its envelope; results empty) whose body is spliced from kept rows ({@link PageSlice}). */
    private static final class SplicedPage extends ContractEventPage implements PageSlice.Spliced {
        private final HttpCaching.Rendered rendered;

        private SplicedPage(ContractEventPage envelope, HttpCaching.Rendered rendered) {
            super(envelope.getLimit(), envelope.getOffset(), envelope.getTotal(), envelope.getResults(),
                    envelope.getNextCursor());
            this.rendered = rendered;
        }

        @Override
        public HttpCaching.Rendered rendered() {
            return rendered;
        }
    }

    /**
     * A page by offset: spliced from kept rows when the contract's count and the page's events are kept
     * ({@link KeptPages}: the page at offset k is the events at positions newest - k and below, whatever
     * the contract logged since they were rendered), else one statement.
     */
    private ContractEventPage eventsAtOffset(String id, boolean unanchored, int limit, int offset) {
        KeptPages.Reading kept = keptPages.begin();
        ContractQueries.LogTops tops = kept.count(Kind.LOGS, id, ContractQueries.LogTops.class);
        if (tops != null) {
            PageSlice slice = kept.slice(Kind.LOGS, id, tops.positionsVersion(), tops.newest(unanchored) - offset, limit,
                    PageSlice.class);
            if (slice != null) {
                return spliced(limit, offset, tops.total(), slice);
            }
        }
        ContractQueries.LogsRead read = contracts.readLogs(id, unanchored, limit, offset);
        ContractQueries.LogTops now = read.tops();
        long top = now.newest(unanchored) - offset;
        kept.keepCount(Kind.LOGS, id, now);
        if (!kept.keeps() || top <= 0) {
            Rendered rendered = render(id, read.page());
            return new ContractEventPage(limit, offset, now.total(), rendered.results(), rendered.next());
        }
        // The count was not kept; the window's events may be (another offset before the contract logged).
        PageSlice slice = kept.keptSlice(Kind.LOGS, id, now.positionsVersion(), top, limit, PageSlice.class);
        if (slice == null) {
            Rendered rendered = render(id, read.page());
            slice = PageSlice.of(json, compression, rendered.results(), rendered.next());
            kept.keepSlice(Kind.LOGS, id, now.positionsVersion(), top, limit, slice, slice.weight());
        }
        return spliced(limit, offset, now.total(), slice);
    }

    private ContractEventPage spliced(int limit, int offset, long total, PageSlice slice) {
        ContractEventPage envelope = new ContractEventPage(limit, offset, total, List.of(), slice.next());
        return new SplicedPage(envelope, slice.splice(json, envelope));
    }

    private static Rendered render(String contractId, Page<EventRow> page) {
        String next = page.last() == null ? null
                : PageCursors.encode(PageCursors.Kind.CONTRACT_EVENTS, contractId, page.last());
        return new Rendered(page.results().stream().map(EventMapper::toApi).toList(), next);
    }

    @Override
    public ContractLogPage getSmartContractLogs(String contractId, Integer limit, Integer offset, String cursor) {
        String id = params.contractId(contractId, "contract_id");
        int size = limit == 0 ? DEFAULT_LOG_LIMIT : limit;
        KeyedPage<EventRow, ChainKey> page = cursorPages.contractLogs(id, size, offset, ChainCursors.logEvent(cursor));
        if (cursor != null && page.current() == null) {
            throw ApiProblems.notFound("no log event of " + id + " at or " + offset + " below cursor " + cursor);
        }
        return new ContractLogPage(size, offset, page.total(), ChainCursors.logEvent(page.newer()),
                ChainCursors.logEvent(page.older()), ChainCursors.logEvent(page.current()),
                page.results().stream().map(EventMapper::toApi).toList());
    }
}
