package dev.lnp.testkit.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.WebhookReceiver.Reply;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The test receiver's in-flight count, which the dispatcher's "at most 4 in flight per receiver" tests rely on:
 * a request is in flight from its arrival until its answer is sent, as the dispatcher sees it.
 */
class WebhookReceiverTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newVirtualThreadPerTaskExecutor()).build();

    @Test
    void aSlotFreedOnTheAnswerIsNotCountedTwice() throws Exception {
        try (var receiver = new WebhookReceiver()) {
            // 4 senders, each sending its next request the moment it has the answer to the last, as the dispatcher does.
            var senders = new ArrayList<CompletableFuture<Void>>();
            for (int s = 0; s < 4; s++) {
                senders.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 250; i++) {
                        send(receiver);
                    }
                }, Executors.newVirtualThreadPerTaskExecutor()));
            }
            CompletableFuture.allOf(senders.toArray(CompletableFuture[]::new)).get();
            assertEquals(1000, receiver.received().size());
            assertTrue(receiver.maxInFlight() <= 4, "4 senders, in flight: " + receiver.maxInFlight());
        }
    }

    @Test
    void requestsAwaitingTheirAnswerAreAllInFlight() throws Exception {
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(200).after(Duration.ofMillis(500)));
            var sent = new ArrayList<CompletableFuture<HttpResponse<Void>>>();
            for (int i = 0; i < 5; i++) {
                sent.add(CLIENT.sendAsync(request(receiver), HttpResponse.BodyHandlers.discarding()));
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get();
            assertEquals(5, receiver.maxInFlight());
        }
    }

    /**
     * One request on a new connection, returning as soon as the answer's head has arrived (the dispatcher too may
     * use a new connection for its next request while this one is still being closed on the receiver's side).
     */
    private static void send(WebhookReceiver receiver) {
        try (var socket = new Socket(InetAddress.getLoopbackAddress(), receiver.port())) {
            socket.getOutputStream().write(("POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n"
                    + "Connection: close\r\n\r\n{}").getBytes(StandardCharsets.US_ASCII));
            var in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String status = in.readLine();
            assertTrue(status != null && status.startsWith("HTTP/1.1 200"), status);
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                // the answer's headers; the next request goes out once they are all in
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpRequest request(WebhookReceiver receiver) {
        return HttpRequest.newBuilder(URI.create(receiver.url("/hook"))).POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build();
    }
}
