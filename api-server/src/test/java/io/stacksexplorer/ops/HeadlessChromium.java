package io.stacksexplorer.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Debian's {@code chromium}, headless, driven over the DevTools protocol with the JDK's own
 * WebSocket client: navigate, read the rendered text, collect console errors, uncaught exceptions
 * and failed loads, take a screenshot. Background networking is off so that the browser contacts
 * nothing but the page's server.
 */
final class HeadlessChromium implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DEVTOOLS = Pattern.compile("DevTools listening on (ws://\\S+)");

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    /** Console errors, uncaught exceptions and failed loads, as text. */
    final List<String> errors = Collections.synchronizedList(new ArrayList<>());

    static Optional<Path> executable() {
        return Stream.of("/usr/bin/chromium", "/usr/bin/chromium-browser").map(Path::of).filter(Files::isExecutable).findFirst();
    }

    HeadlessChromium(Path executable) throws Exception {
        profile = Files.createTempDirectory("chromium-profile");
        process = new ProcessBuilder(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--user-data-dir=" + profile, "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0", "--remote-allow-origins=*", "--window-size=1400,1000", "about:blank")
                .redirectErrorStream(true).start();
        String browserUrl = awaitDevTools();
        int port = URI.create(browserUrl).getPort();
        HttpClient http = HttpClient.newHttpClient();
        JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                .build(), HttpResponse.BodyHandlers.ofString()).body());
        String pageUrl = null;
        for (JsonNode t : targets) {
            if ("page".equals(t.path("type").asText())) {
                pageUrl = t.path("webSocketDebuggerUrl").asText();
                break;
            }
        }
        if (pageUrl == null) {
            throw new IllegalStateException("no page target: " + targets);
        }
        socket = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create(pageUrl), new Listener()).get(10, TimeUnit.SECONDS);
        call("Runtime.enable", JSON.createObjectNode());
        call("Log.enable", JSON.createObjectNode());
        call("Page.enable", JSON.createObjectNode());
        call("Emulation.setDeviceMetricsOverride", JSON.createObjectNode().put("width", 1400).put("height", 1000)
                .put("deviceScaleFactor", 1).put("mobile", false));
    }

    private String awaitDevTools() throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = DEVTOOLS.matcher(line);
            if (m.find()) {
                // Keep draining the browser's output so it never blocks on a full pipe.
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "chromium-output");
                drain.setDaemon(true);
                drain.start();
                return m.group(1);
            }
        }
        throw new IllegalStateException("chromium exited without DevTools:\n" + seen);
    }

    JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", params);
        socket.sendText(message.toString(), true).get(10, TimeUnit.SECONDS);
        JsonNode result = answer.get(30, TimeUnit.SECONDS);
        if (result.has("error")) {
            throw new IllegalStateException(method + ": " + result.get("error"));
        }
        return result.path("result");
    }

    void navigate(String url) throws Exception {
        call("Page.navigate", JSON.createObjectNode().put("url", url));
    }

    String evaluate(String expression) throws Exception {
        return call("Runtime.evaluate", JSON.createObjectNode().put("expression", expression).put("returnByValue", true))
                .path("result").path("value").asText("");
    }

    void screenshot(Path file) throws Exception {
        String data = call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png")).path("data").asText();
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(data));
    }

    private void event(JsonNode message) {
        String method = message.path("method").asText();
        JsonNode params = message.path("params");
        switch (method) {
            case "Runtime.consoleAPICalled" -> {
                String type = params.path("type").asText();
                if (type.equals("error") || type.equals("assert")) {
                    errors.add("console." + type + ": " + params.path("args"));
                }
            }
            case "Runtime.exceptionThrown" -> errors.add("uncaught: " + params.path("exceptionDetails"));
            case "Log.entryAdded" -> {
                if ("error".equals(params.path("entry").path("level").asText())) {
                    errors.add("log: " + params.path("entry").path("text").asText() + " "
                            + params.path("entry").path("url").asText());
                }
            }
            default -> {
            }
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder buffer = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            buffer.append(data);
            if (last) {
                try {
                    JsonNode message = JSON.readTree(buffer.toString());
                    if (message.has("id")) {
                        CompletableFuture<JsonNode> f = pending.remove(message.get("id").asInt());
                        if (f != null) {
                            f.complete(message);
                        }
                    } else {
                        event(message);
                    }
                } catch (IOException e) {
                    errors.add("unreadable DevTools message: " + e);
                }
                buffer.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            socket.abort();
        } finally {
            // Chromium's helpers (network service, renderers) are separate processes that keep writing
            // into the profile after the browser process is gone; taken before the parent exits, since
            // orphans are no longer its descendants. A CI run once failed deleting a file the network
            // service was still replacing.
            List<ProcessHandle> helpers = process.descendants().toList();
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            for (ProcessHandle helper : helpers) {
                helper.destroy();
                try {
                    helper.onExit().get(10, TimeUnit.SECONDS);
                } catch (TimeoutException stillRunning) {
                    helper.destroyForcibly();
                }
            }
            deleteProfile();
        }
    }

    /** Removes the temporary profile; files that vanish while it is walked are already gone, not an error. */
    private void deleteProfile() throws IOException {
        for (int attempt = 0; attempt < 5 && Files.exists(profile); attempt++) {
            Files.walkFileTree(profile, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    try {
                        Files.deleteIfExists(dir);
                    } catch (DirectoryNotEmptyException refilled) {
                        // written to during the walk: the next attempt takes it
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        }
    }
}
