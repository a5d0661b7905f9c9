package io.stacksexplorer.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which browser origins may read the public API: {@code STACKS_API_CORS_ORIGINS}, a comma-separated
 * list of origins ({@code https://explorer.example.com,http://localhost:3000}); unset, empty or
 * {@code *}: every origin. The rest of the CORS policy is in application.yml
 * ({@code micronaut.server.cors}).
 *
 * <p>Micronaut compares an origin with the request's {@code Origin} header as text, so each entry is
 * checked here to be what a browser sends (scheme and host, optional port, no path) and written the
 * way browsers write it (lower case, no trailing slash); a typo fails the start instead of silently
 * shutting a site out.
 */
public final class CorsSettings {

    public static final String ORIGINS_VARIABLE = "STACKS_API_CORS_ORIGINS";
    public static final String ALLOWED_ORIGINS = "micronaut.server.cors.configurations.api.allowed-origins";

    private CorsSettings() {
    }

    /** The allow-list as a Micronaut property, or nothing (every origin) when the variable does not restrict. */
    public static Map<String, Object> properties(Map<String, String> env) {
        String value = env.getOrDefault(ORIGINS_VARIABLE, "").trim();
        if (value.isEmpty() || value.equals("*")) {
            return Map.of();
        }
        List<String> origins = new ArrayList<>();
        for (String entry : value.split(",")) {
            if (!entry.isBlank()) {
                origins.add(origin(entry.trim()));
            }
        }
        return Map.of(ALLOWED_ORIGINS, List.copyOf(origins));
    }

    static String origin(String entry) {
        String origin = entry.endsWith("/") ? entry.substring(0, entry.length() - 1) : entry;
        try {
            URI uri = new URI(origin);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && uri.getRawPath().isEmpty() && uri.getRawQuery() == null && uri.getRawFragment() == null
                    && uri.getRawUserInfo() == null) {
                return origin.toLowerCase(Locale.ROOT);
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new IllegalArgumentException(ORIGINS_VARIABLE + ": '" + entry + "' is not an origin; expected"
                + " scheme://host or scheme://host:port (http or https), e.g. https://explorer.example.com");
    }
}
