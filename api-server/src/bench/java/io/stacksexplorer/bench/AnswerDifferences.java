package io.stacksexplorer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The differences between an answer of the baseline build (055817d) and of this build that were made
 * on purpose since, and nothing else. {@link #unexplained} undoes them in this build's answer and then
 * requires the same status and the same JSON as the baseline's, value for value and in the same field order:
 * <ul>
 *   <li>{@code next_cursor} at the top of the address-transaction and contract-event pages (issue 8:
 *       walks by cursor); any string or null is accepted, it is opaque;</li>
 *   <li>{@code "sender": ""} on mints and {@code "recipient": ""} on burns, where the baseline left the
 *       field out (the peer's shape, which clients read unconditionally);</li>
 *   <li>{@code *_time_iso} is {@code ""} when its {@code *_time} is 0 or -1 (unknown), where the baseline
 *       rendered 1970-01-01T00:00:00.000Z;</li>
 *   <li>{@code tenure_height} on a block (issue 21: the peer's block carries it since Nakamoto), where the
 *       baseline had no such field;</li>
 *   <li>the ETag: a SHA-256 of the body in a baseline from before issue 11, a 128-bit MurmurHash3 of the
 *       body now; each build's tag must have its own shape, and both are present or both absent. A later
 *       baseline (12d5522, say) hashes as this build does: its tag may differ only where its body does.</li>
 * </ul>
 */
final class AnswerDifferences {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern OLD_TAG = Pattern.compile("\"[0-9a-f]{64}\"");
    private static final Pattern NEW_TAG = Pattern.compile("\"[0-9a-f]{32}\"");

    private AnswerDifferences() {
    }

    /**
     * Null when {@code current} is {@code baseline} with only the deliberate changes; otherwise what
     * differs. Both are answers as {@code "<status> <etag>\n<body>"}.
     */
    static String unexplained(String baseline, String current) throws IOException {
        if (baseline.equals(current)) {
            return null; // a baseline that already has the deliberate changes (-Dbench.baseline=a recent commit)
        }
        String[] a = baseline.split("\n", 2);
        String[] b = current.split("\n", 2);
        String[] headA = a[0].split(" ", 2);
        String[] headB = b[0].split(" ", 2);
        if (!headA[0].equals(headB[0])) {
            return "status " + headA[0] + " vs " + headB[0];
        }
        String tagA = headA.length > 1 ? headA[1] : "";
        String tagB = headB.length > 1 ? headB[1] : "";
        String bodyA = a.length > 1 ? a[1] : "";
        String bodyB = b.length > 1 ? b[1] : "";
        // Two tags differ for a reason when the baseline hashed with SHA-256 (before issue 11), or when both
        // builds hash as this one does and the bodies differ (a hash of another body). A tag on one side
        // only matches neither pattern pair, so it is never explained.
        boolean hashChanged = OLD_TAG.matcher(tagA).matches() && NEW_TAG.matcher(tagB).matches();
        boolean bothHashed = NEW_TAG.matcher(tagA).matches() && NEW_TAG.matcher(tagB).matches();
        boolean tagExplained = hashChanged || (bothHashed && !bodyA.equals(bodyB));
        if (!tagA.equals(tagB) && !tagExplained) {
            return "ETag " + tagA + " vs " + tagB;
        }
        if (bodyA.equals(bodyB)) {
            return null;
        }
        JsonNode old = JSON.readTree(bodyA);
        JsonNode now = JSON.readTree(bodyB);
        if (now instanceof ObjectNode page && page.has("next_cursor") && !old.has("next_cursor") && old.has("results")
                && (page.get("next_cursor").isTextual() || page.get("next_cursor").isNull())) {
            page.remove("next_cursor");
        }
        downgrade(old, now);
        // Serialized alike, so that field order counts too and number spellings cannot differ by parsing.
        return JSON.writeValueAsString(old).equals(JSON.writeValueAsString(now)) ? null
                : "body: " + firstDifference(old, now, "$");
    }

    /**
     * Undoes the deliberate event-party and unknown-time changes in {@code now}, where {@code old} (the
     * same place in the baseline's answer) shows the baseline's rendering; field order is kept.
     */
    private static void downgrade(JsonNode old, JsonNode now) {
        if (old instanceof ObjectNode was && now instanceof ObjectNode is) {
            String action = is.path("asset_event_type").asText();
            if (is.has("tenure_height") && !was.has("tenure_height") && is.has("height") && is.has("hash")) {
                is.remove("tenure_height");
            }
            if (action.equals("mint") && is.path("sender").asText("-").isEmpty() && !was.has("sender")) {
                is.remove("sender");
            }
            if (action.equals("burn") && is.path("recipient").asText("-").isEmpty() && !was.has("recipient")) {
                is.remove("recipient");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = is.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String name = field.getKey();
                JsonNode time = is.get(name.substring(0, Math.max(0, name.length() - "_iso".length())));
                if (name.endsWith("_time_iso") && field.getValue().asText("-").isEmpty() && time != null
                        && time.isNumber() && time.asLong() <= 0 && was.path(name).isTextual()) {
                    field.setValue(was.get(name));
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = is.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (was.has(field.getKey())) {
                    downgrade(was.get(field.getKey()), field.getValue());
                }
            }
        } else if (old.isArray() && now.isArray() && old.size() == now.size()) {
            for (int i = 0; i < old.size(); i++) {
                downgrade(old.get(i), now.get(i));
            }
        }
    }

    private static String firstDifference(JsonNode a, JsonNode b, String path) {
        if (a.isObject() && b.isObject()) {
            for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if (!b.has(name)) {
                    return path + "." + name + " only in the baseline";
                }
                if (!a.get(name).equals(b.get(name))) {
                    return firstDifference(a.get(name), b.get(name), path + "." + name);
                }
            }
            for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if (!a.has(name)) {
                    return path + "." + name + " only in this build";
                }
            }
        }
        if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                if (!a.get(i).equals(b.get(i))) {
                    return firstDifference(a.get(i), b.get(i), path + "[" + i + "]");
                }
            }
        }
        String left = a.toString();
        String right = b.toString();
        return path + ": " + left.substring(0, Math.min(80, left.length())) + " vs "
                + right.substring(0, Math.min(80, right.length()));
    }
}
