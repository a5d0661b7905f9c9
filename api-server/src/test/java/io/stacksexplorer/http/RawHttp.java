package io.stacksexplorer.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

/**
 * HTTP/1.1 over a plain socket, one request per connection: the request goes out with exactly the
 * headers given (java.net.http refuses to send {@code Host}, adds its own and merges what it
 * receives), and the answer comes back as it was on the wire, header lines in order and repeated
 * names kept, the body as bytes (not decompressed).
 */
public final class RawHttp {

    /** One answer. Header names are compared case-insensitively, values as sent. */
    public record Response(int status, List<Map.Entry<String, String>> headers, byte[] body) {

        public String header(String name) {
            List<String> values = headers(name);
            return values.isEmpty() ? null : String.join(", ", values);
        }

        public List<String> headers(String name) {
            return headers.stream().filter(h -> h.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue).toList();
        }

        /** Every header as {@code name: value}, the name lower-cased, in order; without those named. */
        public List<String> headerLines(String... without) {
            List<String> skip = List.of(without).stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
            return headers.stream().filter(h -> !skip.contains(h.getKey().toLowerCase(Locale.ROOT)))
                    .map(h -> h.getKey().toLowerCase(Locale.ROOT) + ": " + h.getValue()).toList();
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The body with its content coding removed. */
        public byte[] decoded() {
            if (!"gzip".equals(header("Content-Encoding"))) {
                return body;
            }
            try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(body))) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public String toString() {
            return status + " " + headerLines() + " (" + body.length + " bytes)";
        }
    }

    private RawHttp() {
    }

    /** Sends {@code method target} to 127.0.0.1:{@code port} with {@code Host: localhost:port} unless given. */
    public static Response send(int port, String method, String target, Map<String, String> headers) {
        Map<String, String> all = new LinkedHashMap<>();
        if (headers.keySet().stream().noneMatch("Host"::equalsIgnoreCase)) {
            all.put("Host", "localhost:" + port);
        }
        all.putAll(headers);
        all.put("Connection", "close");
        String request = method + " " + target + " HTTP/1.1\r\n"
                + all.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue() + "\r\n").collect(Collectors.joining())
                + "\r\n";
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return read(socket.getInputStream(), method.equals("HEAD"));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + target, e);
        }
    }

    private static Response read(InputStream in, boolean head) throws IOException {
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        for (String line = line(in); !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            headers.add(Map.entry(line.substring(0, colon).trim(), line.substring(colon + 1).trim()));
        }
        Response headOnly = new Response(status, List.copyOf(headers), new byte[0]);
        if (head || status == 204 || status == 304) {
            return headOnly;
        }
        String length = headOnly.header("Content-Length");
        byte[] body;
        if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        } else if ("chunked".equalsIgnoreCase(headOnly.header("Transfer-Encoding"))) {
            ByteArrayOutputStream chunks = new ByteArrayOutputStream();
            for (int size = Integer.parseInt(line(in).split(";")[0].trim(), 16); size > 0;
                 size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) {
                chunks.write(in.readNBytes(size));
                line(in);
            }
            body = chunks.toByteArray();
        } else {
            body = in.readAllBytes();
        }
        return new Response(status, List.copyOf(headers), body);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b == -1) {
                throw new IOException("connection closed mid-line: " + line.toString(StandardCharsets.ISO_8859_1));
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
