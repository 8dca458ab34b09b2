package dev.lnp.plugins.chatbot;

import dev.lnp.api.PluginContext;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * The deployment's {@code lnp.chatbot.*} settings (environment: {@code LNP_CHATBOT_…}), read once at start.
 *
 * @param tokenLifetime       a visitor token's lifetime (at most 15 minutes)
 * @param lease               how long a node holds a run before another may take it over
 * @param sweepInterval       how often each node looks for runs whose lease expired
 * @param heartbeat           the stream's {@code : ping} interval
 * @param pollInterval        how often an open stream re-reads its events without being notified
 * @param messageMaxChars     the longest visitor message
 * @param streamsPerSession   open streams of one conversation on this node
 * @param streamsPerAddress   open streams from one client address on this node
 * @param openStreams         open streams on this node in all
 * @param indexInterval       how often the knowledge indexer looks for sources to index
 * @param cachedVectors       passage embeddings a node keeps in memory, all workspaces together
 */
record ChatSettings(String baseUrl, String nodeId, Duration tokenLifetime, Duration lease, Duration sweepInterval,
        Duration heartbeat, Duration pollInterval, int messageMaxChars, int sessionPerMinute, int widgetPerMinute,
        int ipPerMinute, int handshakePerMinute, int streamsPerSession, int streamsPerAddress, int openStreams,
        Optional<String> openaiBaseUrl, Optional<String> openaiModel,
        Optional<String> openaiApiKey, Duration openaiTimeout, Duration indexInterval, int cachedVectors) {

    static ChatSettings from(PluginContext context) {
        return new ChatSettings(
                context.config("lnp.base.url").orElse("http://localhost:8080").replaceAll("/+$", ""),
                context.config("lnp.chatbot.node_id").orElse(UUID.randomUUID().toString()),
                duration(context, "token_lifetime", Duration.ofMinutes(10)),
                duration(context, "lease", Duration.ofSeconds(30)),
                duration(context, "sweep_interval", Duration.ofSeconds(5)),
                duration(context, "heartbeat", Duration.ofSeconds(15)),
                duration(context, "poll_interval", Duration.ofSeconds(2)),
                number(context, "message_max_chars", 2000),
                number(context, "limits.session_per_minute", 20),
                number(context, "limits.widget_per_minute", 600),
                number(context, "limits.ip_per_minute", 60),
                number(context, "limits.handshake_per_minute", 30),
                number(context, "limits.streams_per_session", 5),
                number(context, "limits.streams_per_address", 20),
                number(context, "limits.open_streams", 2000),
                context.config("lnp.chatbot.openai.base_url").filter(s -> !s.isBlank()),
                context.config("lnp.chatbot.openai.model").filter(s -> !s.isBlank()),
                context.config("lnp.chatbot.openai.api_key").filter(s -> !s.isBlank()),
                duration(context, "openai.timeout", Duration.ofSeconds(60)),
                duration(context, "knowledge.index_interval", Duration.ofSeconds(1)),
                number(context, "knowledge.cached_vectors", 200_000));
    }

    private static Duration duration(PluginContext context, String name, Duration fallback) {
        return context.config("lnp.chatbot." + name).filter(s -> !s.isBlank()).map(v -> {
            try {
                return Duration.parse(v.strip());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("lnp.chatbot." + name + " must be an ISO-8601 duration such as "
                        + "PT30S, not " + v);
            }
        }).orElse(fallback);
    }

    private static int number(PluginContext context, String name, int fallback) {
        return context.config("lnp.chatbot." + name).filter(s -> !s.isBlank()).map(v -> {
            try {
                return Integer.parseInt(v.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("lnp.chatbot." + name + " must be a whole number, not " + v);
            }
        }).orElse(fallback);
    }
}
