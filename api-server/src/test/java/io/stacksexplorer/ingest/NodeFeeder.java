package io.stacksexplorer.ingest;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Delivers payloads to an event observer the way a stacks-node does: one POST at a time, waiting
 * for each answer before the next, either on one kept-alive connection or on a new connection per
 * payload (both occur: the node's HTTP client reconnects after errors and timeouts). A plain
 * HTTP/1.1 client over a socket, so that what goes over the wire is exactly one request.
 */
public final class NodeFeeder implements AutoCloseable {

    public enum Connections { KEEP_ALIVE, NEW_PER_PAYLOAD }

    /** One line of a node event log (TSV: id, time, path, JSON body). */
    public record Payload(String path, String body) {
    }

    private final String host;
    private final int port;
    private final Connections connections;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    public NodeFeeder(String host, int port, Connections connections) {
        this.host = host;
        this.port = port;
        this.connections = connections;
    }

    public static List<Payload> read(Path log) throws IOException {
        List<Payload> payloads = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                String[] columns = line.split("\t", 4);
                payloads.add(new Payload(columns[2], columns[3]));
            }
        }
        return payloads;
    }

    /**
     * Waits until the observer answers a GET (it listens once the database is migrated), or the
     * process died, or the time is up.
     */
    public static boolean waitUntilAnswering(String host, int port, Process server, long timeoutMillis)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline && server.isAlive()) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(host, port), 1_000);
                probe.setSoTimeout(5_000);
                probe.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                String status = new String(probe.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
                if (status.endsWith("200")) {
                    return true;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        return false;
    }

    /**
     * What delivering a whole log took: seconds from the first POST to the last answer, the
     * latency of each delivery (all, and {@code /new_block} alone), and the second half of the log
     * on its own: seconds from the first POST of its payloads to the last answer, and the blocks in
     * it. A server JVM compiles its hot code during the first thousands of payloads (on a
     * 30,000-transaction log its JIT compilers used more CPU than PostgreSQL), so the second half
     * shows the rate a node syncing for hours gets once that is done.
     */
    public record Result(double seconds, double p50Millis, double p99Millis, double blockP50Millis,
                         double blockP99Millis, double secondHalfSeconds, int secondHalfBlocks) {

        @Override
        public String toString() {
            return String.format("%.1f s, %.2f / %.2f ms per payload (p50 / p99), /new_block %.2f / %.2f ms",
                    seconds, p50Millis, p99Millis, blockP50Millis, blockP99Millis);
        }
    }

    /** Delivers every payload in order, each until it is answered 200 (a 503 is retried). */
    public static Result deliverAll(String host, int port, Connections connections, List<Payload> payloads)
            throws IOException, InterruptedException {
        long[] all = new long[payloads.size()];
        List<Long> blocks = new ArrayList<>();
        long started = System.nanoTime();
        int half = payloads.size() / 2;
        long secondHalfStarted = started;
        int secondHalfBlocks = 0;
        try (NodeFeeder node = new NodeFeeder(host, port, connections)) {
            for (int i = 0; i < payloads.size(); i++) {
                long sent = System.nanoTime();
                if (i == half) {
                    secondHalfStarted = sent;
                }
                int status = node.post(payloads.get(i));
                while (status == 503) {
                    Thread.sleep(100);
                    status = node.post(payloads.get(i));
                }
                if (status != 200) {
                    throw new IOException("payload " + i + " (" + payloads.get(i).path() + ") answered " + status);
                }
                all[i] = System.nanoTime() - sent;
                if (payloads.get(i).path().equals("/new_block")) {
                    blocks.add(all[i]);
                    secondHalfBlocks += i >= half ? 1 : 0;
                }
            }
        }
        long ended = System.nanoTime();
        double seconds = (ended - started) / 1e9;
        long[] blockTimes = blocks.stream().mapToLong(Long::longValue).toArray();
        java.util.Arrays.sort(all);
        java.util.Arrays.sort(blockTimes);
        return new Result(seconds, percentile(all, 50), percentile(all, 99), percentile(blockTimes, 50),
                percentile(blockTimes, 99), (ended - secondHalfStarted) / 1e9, secondHalfBlocks);
    }

    private static double percentile(long[] sortedNanos, int p) {
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p / 100.0 * sortedNanos.length) - 1;
        return sortedNanos[Math.max(0, Math.min(index, sortedNanos.length - 1))] / 1e6;
    }

    /** POSTs one payload and returns the answer's status; an IOException when the connection failed. */
    public int post(Payload payload) throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(120_000);
            socket.connect(new InetSocketAddress(host, port), 5_000);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }
        try {
            byte[] body = payload.body().getBytes(StandardCharsets.UTF_8);
            String head = "POST " + payload.path() + " HTTP/1.1\r\nHost: " + host + ":" + port
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + (connections == Connections.NEW_PER_PAYLOAD ? "\r\nConnection: close" : "") + "\r\n\r\n";
            ByteArrayOutputStream request = new ByteArrayOutputStream(head.length() + body.length);
            request.write(head.getBytes(StandardCharsets.US_ASCII));
            request.write(body);
            request.writeTo(out);
            out.flush();
            int status = readResponse();
            if (connections == Connections.NEW_PER_PAYLOAD || closeRequested) {
                close();
            }
            return status;
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private boolean closeRequested;

    private int readResponse() throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("connection closed before an answer");
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        int length = 0;
        closeRequested = false;
        for (String header = line(); header != null && !header.isEmpty(); header = line()) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(header.substring(15).trim());
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                closeRequested = true;
            }
        }
        if (in.readNBytes(length).length != length) {
            throw new IOException("connection closed inside an answer");
        }
        return status;
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1; c = in.read()) {
            if (c == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            line.append((char) c);
        }
        return line.length() == 0 ? null : line.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already gone
            }
            socket = null;
        }
    }
}
