package io.stacksexplorer.listener;

import io.netty.handler.codec.http.HttpResponseStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The building block the event observer and the metrics listener share, on a real socket: answers
 * given later from another thread on a kept-alive connection, the body limit and the problem shape
 * of its own errors, HEAD.
 */
class SeparateHttpListenerTest {

    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    private SeparateHttpListener listener;

    @AfterEach
    void stop() throws InterruptedException {
        later.shutdownNow();
        if (listener != null) {
            listener.close();
        }
    }

    @Test
    void anAnswerGivenLaterFromAnotherThreadKeepsTheConnectionForTheNextRequest() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        listener = start(1024, request -> {
            seen.add(request.method() + " " + request.path() + " " + request.body());
            later.schedule(() -> request.answer(HttpResponseStatus.OK, "text/plain", "answer to " + request.path(),
                    Map.of("X-Extra", "1")), 200, TimeUnit.MILLISECONDS);
        });
        try (Socket socket = new Socket("127.0.0.1", listener.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(post("/first?x=1", "one").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String first = readAnswer(in);
            out.write(post("/second", "two").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String second = readAnswer(in);
            assertTrue(first.startsWith("HTTP/1.1 200 OK") && first.endsWith("answer to /first"), first);
            assertTrue(first.contains("X-Extra: 1") && first.contains("connection: keep-alive"), first);
            assertTrue(second.endsWith("answer to /second"), second);
        }
        assertEquals(List.of("POST /first one", "POST /second two"), seen);
    }

    @Test
    void aBodyOverTheLimitIs413InTheProblemShapeAndNeverReachesTheHandler() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        listener = start(10, request -> seen.add(request.path()));
        String answer = exchange(post("/big", "x".repeat(11)));
        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        assertTrue(answer.contains("content-type: application/problem+json"), answer);
        assertTrue(answer.endsWith("{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,"
                + "\"detail\":\"body larger than 10 bytes\"}"), answer);
        assertEquals(List.of(), seen);
    }

    @Test
    void headGetsTheHeadersOfTheAnswerWithoutItsBody() throws Exception {
        listener = start(1024, request -> request.answer(HttpResponseStatus.OK, "text/plain", "twelve bytes"));
        String answer = exchange("HEAD /any HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 200 OK") && answer.contains("content-length: 12"), answer);
        assertTrue(answer.endsWith("\r\n\r\n"), "no body after the headers: " + answer);
    }

    private static SeparateHttpListener start(int maxBodyBytes, SeparateHttpListener.Handler handler) throws Exception {
        return new SeparateHttpListener("test", "127.0.0.1", 0, new SeparateHttpListener.Limits(maxBodyBytes, 30, 30),
                handler);
    }

    private static String post(String target, String body) {
        return "POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    /** Sends one request on a new connection and reads until the server closes it. */
    private String exchange(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", listener.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    /** One answer off a kept-alive connection: headers, then Content-Length bytes of body. */
    private static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after " + head);
            }
            head.write(b);
        }
        String headers = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return headers + new String(in.readNBytes(length), StandardCharsets.US_ASCII);
    }
}
