package io.stacksexplorer.web;

import io.micronaut.http.HttpRequest;
import org.zalando.problem.ThrowableProblem;
import io.stacksexplorer.web.KeptAnswers.Dependency;
import io.stacksexplorer.web.KeptAnswers.Kind;
import jakarta.inject.Singleton;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What the answer to a request line is made from, read off the line alone (the answer cache runs
 * before routing): the route, and the transactions, principals or contracts it names, in the
 * canonical spelling the routes use ({@link RequestParams}), which is also the change log's and the
 * stores'. Two spellings of one principal are two request lines with the same dependency.
 *
 * <p>The rule per route (the spec's operations; docs/performance.md, "Answers kept while the chain
 * moves"): the status and {@code latest} change with the tip; a block by height or hash only when a
 * reorg changes which block is canonical; a transaction lookup with the state of one of its
 * transactions; contract status with that contract's deployment attempts; a contract's events when it
 * logs; a principal's history when a transaction of it is mined or leaves the chain; its mempool
 * page when one of its pending transactions comes or goes. A line this class does not know (a
 * malformed one is answered 4xx and never kept anyway) depends on {@link Kind#ANY}.
 */
@Singleton
class AnswerDependencies {

    private static final List<Dependency> TIP = List.of(Dependency.of(Kind.TIP));
    private static final List<Dependency> LATEST_BLOCK = List.of(Dependency.of(Kind.TIP), Dependency.of(Kind.REORG));
    private static final List<Dependency> A_BLOCK = List.of(Dependency.of(Kind.REORG));
    private static final List<Dependency> UNKNOWN = List.of(Dependency.of(Kind.ANY));

    private final RequestParams params;

    AnswerDependencies(RequestParams params) {
        this.params = params;
    }

    List<Dependency> of(HttpRequest<?> request) {
        String[] s = request.getPath().split("/", -1);
        // s[0] is the empty text before the leading slash, s[1] "extended".
        try {
            if (s.length == 2 || s.length == 3 && s[2].isEmpty()) {
                return TIP;
            }
            String route = s.length > 3 ? s[2] + "/" + s[3] : "";
            if (s.length == 4 && route.equals("v1/status")) {
                return TIP;
            }
            if (s.length == 5 && route.equals("v2/blocks")) {
                return s[4].equals("latest") ? LATEST_BLOCK : A_BLOCK;
            }
            if (s.length == 5 && route.equals("v1/tx") && s[4].equals("multiple")) {
                return each(Kind.TX, RequestParams.txIds(request.getParameters().getAll("tx_id"), "tx_id",
                        Integer.MAX_VALUE));
            }
            if (s.length == 5 && route.equals("v2/smart-contracts") && s[4].equals("status")) {
                return each(Kind.CONTRACT, params.contractIds(request.getParameters().getAll("contract_id"),
                        "contract_id"));
            }
            if (s.length == 6 && (route.equals("v1/contract") && s[5].equals("events")
                    || route.equals("v2/smart-contracts") && s[5].equals("logs"))) {
                return List.of(new Dependency(Kind.LOGS, params.contractId(decode(s[4]), "contract_id")));
            }
            if (s.length == 6 && s[5].equals("transactions")
                    && (route.equals("v2/addresses") || route.equals("v3/principals"))) {
                return List.of(new Dependency(Kind.PRINCIPAL, params.principal(decode(s[4]), "principal")));
            }
            if (s.length == 6 && route.equals("v1/address") && s[5].equals("mempool")
                    || s.length == 7 && route.equals("v3/principals") && s[5].equals("mempool")
                    && s[6].equals("transactions")) {
                return List.of(new Dependency(Kind.MEMPOOL, params.principal(decode(s[4]), "principal")));
            }
        } catch (ThrowableProblem | IllegalArgumentException e) {
            // A malformed line: the route answers it 4xx, which is never kept.
            return UNKNOWN;
        }
        return UNKNOWN;
    }

    private static List<Dependency> each(Kind kind, List<String> ids) {
        List<Dependency> made = new ArrayList<>(ids.size());
        for (String id : ids) {
            made.add(new Dependency(kind, id));
        }
        return made.isEmpty() ? UNKNOWN : made;
    }

    private static String decode(String segment) {
        return segment.indexOf('%') < 0 ? segment : URLDecoder.decode(segment, StandardCharsets.UTF_8);
    }
}
