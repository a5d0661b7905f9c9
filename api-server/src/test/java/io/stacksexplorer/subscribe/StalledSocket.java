package io.stacksexplorer.subscribe;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * A WebSocket client that subscribes and then never reads (until asked to): the opening handshake
 * and one masked text frame per request (RFC 6455 §5.2) written on a socket with a tiny receive
 * buffer. Hand-made
 * because every WebSocket library reads what arrives.
 */
final class StalledSocket implements AutoCloseable {

    private final Socket socket = new Socket();
    private final OutputStream out;
    private final DataInputStream in;
    private final Random random = new Random(1);

    StalledSocket(int port) throws IOException {
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        out = socket.getOutputStream();
        out.write(("GET /extended/v1/ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        // The handshake's answer, read before any frame is sent: a frame that reaches the server
        // before it switched protocols is read as HTTP.
        in = new DataInputStream(socket.getInputStream());
        socket.setSoTimeout(10_000);
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the server closed the connection during the handshake");
            }
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }

    void send(String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        byte[] mask = new byte[4];
        random.nextBytes(mask);
        out.write(0x81);
        if (payload.length < 126) {
            out.write(0x80 | payload.length);
        } else {
            if (payload.length > 0xffff) {
                throw new IllegalArgumentException("frames up to 64 KB only");
            }
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

    /** Sends a request and reads its answer: a client that subscribes, then stalls. */
    String call(String text) throws IOException {
        send(text);
        while (true) {
            int opcode = in.readUnsignedByte() & 0x0f;
            long length = length();
            byte[] payload = in.readNBytes((int) length);
            if (opcode == 0x1) {
                return new String(payload, StandardCharsets.UTF_8);
            }
        }
    }

    private long length() throws IOException {
        long length = in.readUnsignedByte() & 0x7f;
        if (length == 126) {
            length = in.readUnsignedShort();
        } else if (length == 127) {
            length = in.readLong();
        }
        return length;
    }

    /**
     * Reads, at last, everything the server wrote (unmasked frames) up to
     * its close frame, and returns that frame's status code; -1 if the connection ended without one.
     */
    int readUntilClose(int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        try {
            while (true) {
                int opcode = in.readUnsignedByte() & 0x0f;
                long length = length();
                if (opcode == 0x8) {
                    return length >= 2 ? in.readUnsignedShort() : -1;
                }
                in.skipNBytes(length);
            }
        } catch (EOFException e) {
            return -1;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
