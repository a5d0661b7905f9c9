package io.stacksexplorer.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parts of a contract's ABI (as the node reports it for a deployment) that name contract-call
 * arguments: each function's access, argument names and Clarity types, rendered in Clarity syntax.
 */
final class ContractAbi {

    /** One function: {@code signature} like {@code (define-public (transfer (amount uint)))}. */
    record Function(String name, String signature, List<String> argNames, List<String> argTypes) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, Function> functions;

    private ContractAbi(Map<String, Function> functions) {
        this.functions = functions;
    }

    /** Parses ABI JSON; an unreadable ABI is treated as unknown rather than failing the answer. */
    static Optional<ContractAbi> parse(String abiJson) {
        if (abiJson == null || abiJson.isBlank()) {
            return Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(abiJson);
            Map<String, Function> functions = new java.util.HashMap<>();
            for (JsonNode fn : root.path("functions")) {
                String name = fn.path("name").asText();
                List<String> names = new ArrayList<>();
                List<String> types = new ArrayList<>();
                StringBuilder args = new StringBuilder();
                for (JsonNode arg : fn.path("args")) {
                    String type = typeText(arg.path("type"));
                    names.add(arg.path("name").asText());
                    types.add(type);
                    args.append(" (").append(arg.path("name").asText()).append(' ').append(type).append(')');
                }
                String access = switch (fn.path("access").asText()) {
                    case "read_only" -> "define-read-only";
                    case "private" -> "define-private";
                    default -> "define-public";
                };
                // The peer writes the name, a space and the arguments joined by spaces, so a function
                // without arguments reads "(define-public (claim ))"; clients compare these strings.
                String signature = "(" + access + " (" + name + (args.length() == 0 ? " " : args) + "))";
                functions.put(name, new Function(name, signature, names, types));
            }
            return Optional.of(new ContractAbi(functions));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    Optional<Function> function(String name) {
        return Optional.ofNullable(functions.get(name));
    }

    /** Clarity type syntax of an ABI type, e.g. {@code {"buffer":{"length":34}}} → {@code (buff 34)}. */
    static String typeText(JsonNode type) {
        if (type.isTextual()) {
            return switch (type.asText()) {
                case "uint128" -> "uint";
                case "int128" -> "int";
                case "trait_reference" -> "trait_reference";
                default -> type.asText();
            };
        }
        Iterator<Map.Entry<String, JsonNode>> fields = type.fields();
        if (!fields.hasNext()) {
            throw new IllegalArgumentException("empty ABI type");
        }
        Map.Entry<String, JsonNode> entry = fields.next();
        JsonNode body = entry.getValue();
        return switch (entry.getKey()) {
            case "buffer" -> "(buff " + body.path("length").asLong() + ")";
            case "string-ascii" -> "(string-ascii " + body.path("length").asLong() + ")";
            case "string-utf8" -> "(string-utf8 " + body.path("length").asLong() + ")";
            case "optional" -> "(optional " + typeText(body) + ")";
            case "response" -> "(response " + typeText(body.path("ok")) + " " + typeText(body.path("error")) + ")";
            case "list" -> "(list " + body.path("length").asLong() + " " + typeText(body.path("type")) + ")";
            case "tuple" -> {
                StringBuilder sb = new StringBuilder("(tuple");
                for (JsonNode field : body) {
                    sb.append(" (").append(field.path("name").asText()).append(' ')
                            .append(typeText(field.path("type"))).append(')');
                }
                yield sb.append(')').toString();
            }
            default -> throw new IllegalArgumentException("unknown ABI type " + entry.getKey());
        };
    }
}
