package io.stacksexplorer.web;

import io.micronaut.http.annotation.Controller;
import io.stacksexplorer.query.ContractQueries;
import io.stacksexplorer.query.Page;
import io.stacksexplorer.query.EventRow;
import io.stacksexplorer.server.api.SmartContractsApi;
import io.stacksexplorer.server.model.ContractDeploymentStatus;
import io.stacksexplorer.server.model.ContractEventPage;
import io.stacksexplorer.server.model.ContractStatus;
import io.stacksexplorer.server.model.ContractStatusLookupEntry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

@Controller
class SmartContractsController implements SmartContractsApi {

    private final ContractQueries contracts;
    private final RequestParams params;

    SmartContractsController(ContractQueries contracts, RequestParams params) {
        this.contracts = contracts;
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
}
