package io.stacksexplorer.conformance.provider.states;

import java.util.List;
import java.util.Map;

/** Reading provider-state parameters as the pact file carries them (JSON numbers, strings, lists). */
final class StateParams {

    private StateParams() {
    }

    static long number(Map<String, Object> params, String name, long fallback) {
        Object v = params == null ? null : params.get(name);
        if (v == null) {
            return fallback;
        }
        return v instanceof Number n ? n.longValue() : Long.parseLong(v.toString());
    }

    static String text(Map<String, Object> params, String name, String fallback) {
        Object v = params == null ? null : params.get(name);
        return v == null ? fallback : v.toString();
    }

    static List<String> texts(Map<String, Object> params, String name) {
        Object v = params == null ? null : params.get(name);
        if (v instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        throw new IllegalArgumentException("provider state parameter '" + name + "' must be a list, got " + v);
    }
}
