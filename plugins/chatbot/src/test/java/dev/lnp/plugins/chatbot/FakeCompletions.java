package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local HTTP/1.1 server speaking the OpenAI chat-completions streaming wire format: {@code data: {"choices":
 * [{"delta":{"content":"…"}}]}} lines and {@code data: [DONE]}. It answers with the given pieces; optionally the
 * first request hangs until {@link #release()} (a responder stuck when its node dies). Plain sockets, so the test
 * module needs no extra JDK module.
 */
public final class FakeCompletions implements AutoCloseable {

    final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    final List<String> authorizations = new CopyOnWriteArrayList<>();
    final CountDownLatch firstArrived = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger count = new AtomicInteger();
    private final List<String> pieces;
    private final boolean holdFirst;
    private final ServerSocket server;

    public FakeCompletions(List<String> pieces, boolean holdFirst) throws IOException {
        this.pieces = pieces;
        this.holdFirst = holdFirst;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread.ofVirtual().start(() -> serve(socket));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    private void serve(Socket socket) {
        try (socket; InputStream in = new BufferedInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream()) {
            String head = readHead(in);
            int length = 0;
            String authorization = "null";
            for (String line : head.split("\r\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).strip());
                } else if (lower.startsWith("authorization:")) {
                    authorization = line.substring(14).strip();
                }
            }
            byte[] body = in.readNBytes(length);
            if (!head.startsWith("POST /v1/chat/completions ")) {
                out.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                return;
            }
            requests.add(Json.parse(new String(body, StandardCharsets.UTF_8)));
            authorizations.add(authorization);
            int n = count.incrementAndGet();
            firstArrived.countDown();
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            if (holdFirst && n == 1) {
                out.write(line("{\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}"));
                out.flush();
                release.await(60, TimeUnit.SECONDS);
                return;
            }
            for (String piece : pieces) {
                out.write(line("{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                        + "\"delta\":{\"content\":" + Json.mapper().valueToTree(piece) + "}}]}"));
                out.flush();
                Thread.sleep(30);
            }
            out.write(line("{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}"));
            out.write(line("[DONE]"));
            out.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                break;
            }
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private static byte[] line(String data) {
        return ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    int requestCount() {
        return count.get();
    }

    void release() {
        release.countDown();
    }

    @Override
    public void close() throws IOException {
        release();
        server.close();
    }
}
