package io.stacksexplorer.web;

import io.micronaut.http.annotation.Controller;
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

    SmartContractsController(ContractQueries contracts, CursorPages cursorPages, RequestParams params) {
        this.contracts = contracts;
        this.cursorPages = cursorPages;
        this.params = params;
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
        Page<EventRow> page = cursor == null
                ? contracts.logs(id, withUnanchored, limit, offset)
                : contracts.logsAfter(id, withUnanchored, limit, PageCursors.decode(PageCursors.Kind.CONTRACT_EVENTS,
                        id, PageCursors.withoutOffset(cursor, offset)));
        String next = page.last() == null ? null
                : PageCursors.encode(PageCursors.Kind.CONTRACT_EVENTS, id, page.last());
        return new ContractEventPage(limit, (int) page.offset(), page.total(),
                page.results().stream().map(EventMapper::toApi).toList(), next);
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
