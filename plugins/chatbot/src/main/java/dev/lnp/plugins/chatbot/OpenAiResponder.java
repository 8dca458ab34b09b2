package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.plugins.chatbot.api.Conversation;
import dev.lnp.plugins.chatbot.api.Reply;
import dev.lnp.plugins.chatbot.api.ReplySink;
import dev.lnp.plugins.chatbot.api.Responder;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Any OpenAI-compatible chat-completions server ({@code POST <base_url>/chat/completions} with
 * {@code stream: true}): tokens arrive as {@code data: {"choices":[{"delta":{"content":"…"}}]}} lines until
 * {@code data: [DONE]}, and each is passed on as a delta. Base URL, model and API key come from the widget's
 * responder settings, else from {@code lnp.chatbot.openai.*}. The workspace's best passages for the message go into
 * the prompt as quoted data ({@link GroundedPrompt}); the answer cites them by number and those become its sources.
 */
final class OpenAiResponder implements Responder {

    static final String ID = "openai";

    /** How many passages go into the prompt. */
    static final int SOURCES = 4;

    private final ChatSettings settings;
    private final Retriever retriever;
    private volatile HttpClient http;

    OpenAiResponder(ChatSettings settings, Retriever retriever) {
        this.settings = settings;
        this.retriever = retriever;
    }

    /** Made at the first reply, not at start-up: building a client loads the JDK's trust store and TLS context,
     * a noticeable part of a restart, and most deployments never use this responder. */
    private HttpClient http() {
        HttpClient client = http;
        if (client == null) {
            synchronized (this) {
                client = http;
                if (client == null) {
                    client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
                    http = client;
                }
            }
        }
        return client;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Reply respond(Conversation c, ReplySink sink) throws Exception {
        if (HandoffIntent.asksForPerson(c.message())) {
            return Reply.handoff(null);
        }
        String base = c.settings().getOrDefault("base_url", settings.openaiBaseUrl().orElse(null));
        String model = c.settings().getOrDefault("model", settings.openaiModel().orElse(null));
        if (base == null || model == null) {
            throw new IllegalStateException("the openai responder needs a base_url and a model (widget "
                    + "responder_settings or lnp.chatbot.openai.*)");
        }
        String apiKey = c.settings().getOrDefault("api_key", settings.openaiApiKey().orElse(null));
        ObjectNode body = Json.object().put("model", model).put("stream", true);
        ArrayNode messages = body.putArray("messages");
        // Only the workspace's knowledge is retrieved: never another visitor's conversation.
        var prompt = new GroundedPrompt(retriever.retrieve(c.workspaceId(), c.language(),
                c.settings().getOrDefault("language", "en"), c.message(), SOURCES));
        messages.addObject().put("role", "system").put("content", prompt.system(c.settings().get("system_prompt")));
        messages.addObject().put("role", "user").put("content", prompt.sourcesMessage());
        for (Conversation.Turn turn : c.history()) {
            String role = switch (turn.role()) {
                case "visitor" -> "user";
                case "assistant", "human_agent" -> "assistant";
                default -> null;
            };
            if (role != null) {
                messages.addObject().put("role", role).put("content", turn.text());
            }
        }
        messages.addObject().put("role", "user").put("content", c.message());
        var request = HttpRequest.newBuilder(URI.create(base.replaceAll("/+$", "") + "/chat/completions"))
                .timeout(settings.openaiTimeout())
                .header("Content-Type", "application/json").header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<InputStream> response = http().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = response.body();
                var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            if (response.statusCode() / 100 != 2) {
                String text = new String(in.readNBytes(500), StandardCharsets.UTF_8);
                throw new IllegalStateException("the model server answered " + response.statusCode() + ": " + text);
            }
            StringBuilder answer = new StringBuilder();
            String line;
            boolean done = false;
            while (!done && (line = reader.readLine()) != null) {
                if (!line.startsWith("data:")) {
                    continue;
                }
                String data = line.substring(5).strip();
                if (data.equals("[DONE]")) {
                    done = true;
                    continue;
                }
                JsonNode chunk = Json.parse(data);
                JsonNode content = chunk.path("choices").path(0).path("delta").path("content");
                if (content.isTextual() && !content.asText().isEmpty()) {
                    answer.append(content.asText());
                    sink.delta(content.asText());
                }
            }
            if (!done) {
                throw new IllegalStateException("the model server's stream ended without [DONE]");
            }
            return Reply.answer(answer.toString(), prompt.citations(answer.toString()));
        }
    }
}
