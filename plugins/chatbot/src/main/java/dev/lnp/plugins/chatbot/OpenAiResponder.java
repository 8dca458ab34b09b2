package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.outbound.OutboundRequest;
import dev.lnp.api.outbound.OutboundResponse;
import dev.lnp.plugins.chatbot.api.Conversation;
import dev.lnp.plugins.chatbot.api.Reply;
import dev.lnp.plugins.chatbot.api.ReplySink;
import dev.lnp.plugins.chatbot.api.Responder;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Any OpenAI-compatible chat-completions server ({@code POST <base_url>/chat/completions} with
 * {@code stream: true}): tokens arrive as {@code data: {"choices":[{"delta":{"content":"…"}}]}} lines until
 * {@code data: [DONE]}, and each is passed on as a delta. Base URL, model and API key come from the widget's
 * responder settings, else from {@code lnp.chatbot.openai.*}. The workspace's best passages for the message go into
 * the prompt as quoted data ({@link GroundedPrompt}); the answer cites them by number and those become its sources.
 * Every call goes through the platform's outbound address guard: a refused address fails the run before anything
 * is sent.
 */
final class OpenAiResponder implements Responder {

    static final String ID = "openai";

    /** The most of a model's answer read: far beyond any chat answer, short of filling a node's memory. */
    static final int RESPONSE_CAP = 4 * 1024 * 1024;

    /** How many passages go into the prompt. */
    static final int SOURCES = 4;

    private final ChatSettings settings;
    private final Retriever retriever;
    private final Supplier<OutboundGuard> guard;
    private final LlmBudget budget;

    /** @param guard the platform's outbound address guard: the base URL is a person's input, so every call goes
     *               through it (no internal address, no DNS rebinding) */
    OpenAiResponder(ChatSettings settings, Retriever retriever, Supplier<OutboundGuard> guard, LlmBudget budget) {
        this.settings = settings;
        this.retriever = retriever;
        this.guard = guard;
        this.budget = budget;
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
        var reached = budget.take(c);
        if (reached.isPresent()) {
            return Reply.answer(LlmBudget.refusal(reached.get(), !"false".equals(c.settings().get("human_handoff"))));
        }
        ObjectNode body = Json.object().put("model", model).put("stream", true);
        // Servers that support it send the tokens used in a last chunk; the others' are estimated.
        body.putObject("stream_options").put("include_usage", true);
        ArrayNode messages = body.putArray("messages");
        // Only the workspace's knowledge is retrieved: never another visitor's conversation.
        var found = retriever.retrieve(c.workspaceId(), c.language(),
                c.settings().getOrDefault("language", "en"), c.message(), SOURCES);
        var prompt = new GroundedPrompt(found);
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
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "text/event-stream");
        if (apiKey != null) {
            headers.put("Authorization", "Bearer " + apiKey);
        }
        URI uri = guard.get().check(base.replaceAll("/+$", "") + "/chat/completions");
        try (OutboundResponse response = guard.get().send(OutboundRequest.post(uri, headers,
                body.toString().getBytes(StandardCharsets.UTF_8), settings.openaiTimeout(), RESPONSE_CAP));
                InputStream in = response.body();
                var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            if (response.status() / 100 != 2) {
                String text = new String(in.readNBytes(500), StandardCharsets.UTF_8);
                throw new IllegalStateException("the model server answered " + response.status() + ": " + text);
            }
            StringBuilder answer = new StringBuilder();
            long reportedTokens = -1;
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
                if (chunk.path("usage").path("total_tokens").canConvertToLong()) {
                    reportedTokens = chunk.path("usage").path("total_tokens").asLong();
                }
                JsonNode content = chunk.path("choices").path(0).path("delta").path("content");
                if (content.isTextual() && !content.asText().isEmpty()) {
                    answer.append(content.asText());
                    sink.delta(content.asText());
                }
            }
            if (!done) {
                throw new IllegalStateException("the model server's stream ended without [DONE]");
            }
            budget.used(c, reportedTokens >= 0 ? reportedTokens : estimatedTokens(body.toString(), answer));
            // Nothing relevant was retrieved: the model was told to say it does not know and to offer a person.
            return Reply.answer(answer.toString(), prompt.citations(answer.toString())).unanswered(found.isEmpty());
        }
    }

    /** About four characters a token, as OpenAI's own rule of thumb for English: for servers that report no usage. */
    static long estimatedTokens(String request, CharSequence answer) {
        return (request.length() + answer.length() + 3) / 4;
    }
}
