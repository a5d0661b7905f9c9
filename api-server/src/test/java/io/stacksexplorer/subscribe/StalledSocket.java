package io.stacksexplorer.subscribe;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * A WebSocket client that subscribes and then never reads: the opening handshake and one masked
 * text frame per request (RFC 6455 §5.2) written on a socket with a tiny receive buffer. Hand-made
 * because every WebSocket library reads what arrives.
 */
final class StalledSocket implements AutoCloseable {

    private final Socket socket = new Socket();
    private final OutputStream out;
    private final Random random = new Random(1);

    StalledSocket(int port) throws IOException {
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        out = socket.getOutputStream();
        out.write(("GET /extended/v1/ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    void send(String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        byte[] mask = new byte[4];
        random.nextBytes(mask);
        out.write(0x81);
        if (payload.length < 126) {
            out.write(0x80 | payload.length);
        } else {
            out.write(0x80 | 126);
            out.write(payload.length >> 8);
            out.write(payload.length & 0xff);
        }
        out.write(mask);
        for (int i = 0; i < payload.length; i++) {
            out.write(payload[i] ^ mask[i % 4]);
        }
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
