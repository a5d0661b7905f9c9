package io.stacksexplorer.web;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.server.netty.DefaultHttpCompressionStrategy;
import io.micronaut.http.server.netty.HttpCompressionStrategy;
import io.micronaut.http.server.netty.configuration.NettyHttpServerConfiguration;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import jakarta.inject.Singleton;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Who compresses what. The API's answers are compressed by {@link HttpCaching}, which must know the
 * coding to tag the answer: gzip when the client accepts it and the body reaches Netty's
 * {@code micronaut.server.netty.compression-threshold} (1 KiB), at Netty's compression level. Netty
 * compresses everything else as before (the docs page, the contract, health), but never an answer
 * that carries an {@code ETag}: its tag names the coding it was made for (a client accepting only
 * {@code deflate} or {@code snappy} would otherwise get a Netty-compressed body under the tag of the
 * uncompressed one). Otherwise the same rule as Micronaut's default strategy: text-based content of
 * unknown length or at least the threshold.
 */
@Singleton
@Replaces(DefaultHttpCompressionStrategy.class)
class Compression implements HttpCompressionStrategy {

    static final String GZIP = "gzip";

    private final int threshold;
    private final int level;
    private final int maxZstdEncodeSize;

    Compression(NettyHttpServerConfiguration netty) {
        this.threshold = netty.getCompressionThreshold();
        this.level = netty.getCompressionLevel();
        this.maxZstdEncodeSize = netty.getMaxZstdEncodeSize();
    }

    @Override
    public boolean isEnabled() {
        return threshold >= 0;
    }

    @Override
    public boolean shouldCompress(HttpResponse response) {
        if (!isEnabled() || response.headers().contains(HttpHeaderNames.ETAG)) {
            return false;
        }
        String type = response.headers().get(HttpHeaderNames.CONTENT_TYPE);
        long length = HttpUtil.getContentLength(response, -1L);
        return type != null && (length == -1 || length >= threshold) && MediaType.isTextBased(type);
    }

    @Override
    public int getCompressionLevel() {
        return level;
    }

    @Override
    public int getMaxZstdEncodeSize() {
        return maxZstdEncodeSize;
    }

    /** Whether a body of {@code length} bytes goes to this client gzip-compressed. */
    boolean gzips(HttpRequest<?> request, int length) {
        return isEnabled() && length >= threshold && acceptsGzip(request.getHeaders().getAll(HttpHeaders.ACCEPT_ENCODING));
    }

    byte[] gzip(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 4 + 64);
        try (GZIPOutputStream gzip = new GZIPOutputStream(out, 8192) {
            {
                def.setLevel(level);
            }
        }) {
            gzip.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The body {@link #gzip} compressed, of {@code length} bytes. */
    static byte[] gunzip(byte[] gzipped, int length) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped), 8192)) {
            byte[] body = in.readNBytes(length);
            if (body.length != length || in.read() != -1) {
                throw new IllegalStateException("a kept answer inflated to another length than it was kept with");
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * RFC 9110 section 12.5.3: gzip (or its alias x-gzip) listed with a non-zero weight, or not
     * listed and {@code *} with a non-zero weight.
     */
    static boolean acceptsGzip(List<String> acceptEncoding) {
        Float gzip = null;
        Float any = null;
        for (String header : acceptEncoding) {
            for (String item : header.split(",")) {
                String[] parts = item.split(";");
                String coding = parts[0].trim().toLowerCase(Locale.ROOT);
                float weight = weight(parts);
                if (coding.equals(GZIP) || coding.equals("x-gzip")) {
                    gzip = gzip == null ? weight : Math.max(gzip, weight);
                } else if (coding.equals("*")) {
                    any = weight;
                }
            }
        }
        return gzip != null ? gzip > 0 : any != null && any > 0;
    }

    private static float weight(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            if (parameter.length() > 2 && parameter.regionMatches(true, 0, "q=", 0, 2)) {
                try {
                    return Float.parseFloat(parameter.substring(2).trim());
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
