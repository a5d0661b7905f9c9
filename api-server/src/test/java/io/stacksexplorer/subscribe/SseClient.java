package io.stacksexplorer.subscribe;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Reads a text/event-stream as EventSource does: fields until a blank line make one event; comments are skipped. */
final class SseClient implements AutoCloseable {

    record Event(String id, String name, String data) {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final HttpResponse<Stream<String>> response;
    private final Thread reader;

    SseClient(String url, Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/event-stream");
        headers.forEach(request::header);
        response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofLines());
        reader = new Thread(() -> {
            String id = null;
            String name = null;
            StringBuilder data = null;
            try {
                for (String line : (Iterable<String>) response.body()::iterator) {
                    if (line.isEmpty()) {
                        if (data != null) {
                            events.add(new Event(id, name == null ? "message" : name, data.toString()));
                        }
                        id = null;
                        name = null;
                        data = null;
                    } else if (line.startsWith("id:")) {
                        id = line.substring(3).trim();
                    } else if (line.startsWith("event:")) {
                        name = line.substring(6).trim();
                    } else if (line.startsWith("data:")) {
                        String value = line.substring(5);
                        value = value.startsWith(" ") ? value.substring(1) : value;
                        data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                    }
                }
            } catch (RuntimeException e) {
                // closed
            }
        }, "sse-reader");
        reader.setDaemon(true);
        reader.start();
    }

    int status() {
        return response.statusCode();
    }

    String contentType() {
        return response.headers().firstValue("content-type").orElse("");
    }

    /** The next {@code count} events with an empty data skipped (keep-alives). */
    List<Event> take(int count) throws InterruptedException {
        List<Event> out = new ArrayList<>();
        while (out.size() < count) {
            Event e = events.poll(30, TimeUnit.SECONDS);
            if (e == null) {
                throw new AssertionError("only " + out.size() + " of " + count + " events arrived: " + out);
            }
            if (!e.data().isEmpty()) {
                out.add(e);
            }
        }
        return out;
    }

    /** Events arriving within {@code seconds}. */
    List<Event> more(double seconds) throws InterruptedException {
        List<Event> out = new ArrayList<>();
        Event e;
        while ((e = events.poll((long) (seconds * 1000), TimeUnit.MILLISECONDS)) != null) {
            if (!e.data().isEmpty()) {
                out.add(e);
            }
        }
        return out;
    }

    @Override
    public void close() {
        response.body().close();
        reader.interrupt();
    }
}
