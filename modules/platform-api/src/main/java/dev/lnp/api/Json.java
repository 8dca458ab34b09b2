package dev.lnp.api;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/** Small JSON helpers shared by plugins: one configured mapper, schema loading from a plugin's resources. */
public final class Json {

    /**
     * Characters outside the Basic Multilingual Plane (emoji) are written as their four UTF-8 bytes, as lists
     * (written from PostgreSQL's bytes) and PostgreSQL's own JSON have them, not as an escaped surrogate pair:
     * the same text in the same form wherever an answer, a list or an event carries it.
     */
    private static final ObjectMapper MAPPER = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
                    .enable(com.fasterxml.jackson.core.json.JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
                    .build())
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE);

    /**
     * Where each loaded or derived schema came from, for listings ({@code platform routes --verbose}). Weak, so
     * schemas of unloaded plugins go; keyed by content but answered only for the very node that was recorded, so
     * an equal document built in code is not taken for the file.
     */
    private static final Map<JsonNode, Source> SOURCES = Collections.synchronizedMap(new WeakHashMap<>());

    private record Source(WeakReference<JsonNode> node, String name) {
    }

    private Json() {
    }

    /**
     * The resource a document was read from ({@code schemas/contact-create.json}), or how it was derived from one
     * ({@code patch of schemas/…}); empty for documents built in code.
     */
    public static Optional<String> sourceOf(JsonNode node) {
        Source source = node == null ? null : SOURCES.get(node);
        return source != null && source.node().get() == node ? Optional.of(source.name()) : Optional.empty();
    }

    static <T extends JsonNode> T remember(T node, String source) {
        synchronized (SOURCES) {
            // Replace the key too: an equal document recorded earlier must not keep this entry's lifetime.
            SOURCES.remove(node);
            SOURCES.put(node, new Source(new WeakReference<>(node), source));
        }
        return node;
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /**
     * Reads a JSON document (typically a JSON Schema) from the class path of {@code owner}'s class loader,
     * which for a plugin is the plugin's own jar.
     */
    public static JsonNode resource(Class<?> owner, String path) {
        String name = path.startsWith("/") ? path.substring(1) : path;
        try (InputStream in = owner.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("No resource " + name + " for " + owner.getName());
            }
            return remember(MAPPER.readTree(in), name);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + name, e);
        }
    }

    /**
     * A client's JSON document, read strictly: UTF-8 only, one document (nothing after it but white space), no
     * duplicate keys, no non-standard tokens. Returns null for an empty body.
     *
     * @throws InvalidJson with a message fit for the client (it names no library setting)
     */
    public static JsonNode readRequest(byte[] body) {
        String text;
        try {
            text = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(body)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new InvalidJson("The body is not valid UTF-8; JSON must be sent in UTF-8.");
        }
        try (com.fasterxml.jackson.core.JsonParser parser = MAPPER.getFactory().createParser(text)) {
            parser.enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            JsonNode document = MAPPER.readTree(parser);
            if (document != null && parser.nextToken() != null) {
                throw new InvalidJson("The body holds more than one JSON document (line "
                        + parser.currentLocation().getLineNr() + ", column "
                        + parser.currentLocation().getColumnNr() + "); send exactly one.");
            }
            return document;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            var at = e.getLocation();
            throw new InvalidJson("The body is not valid JSON: " + clientMessage(e.getOriginalMessage())
                    + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
        } catch (IOException e) {
            throw new InvalidJson("The body could not be read as JSON.");
        }
    }

    /** The parser's explanation without the settings and source descriptions it appends for developers. */
    private static String clientMessage(String message) {
        String text = message == null ? "invalid" : message;
        for (String cut : new String[] {"`", "[Source", " (start marker", ", from ", "\n", "\r"}) {
            int at = text.indexOf(cut);
            if (at >= 0) {
                text = text.substring(0, at);
            }
        }
        return text.replaceAll("[\\s:;,(]+$", "");
    }

    /** A body the platform refuses to read as JSON; its message may be shown to the client. */
    public static final class InvalidJson extends IllegalArgumentException {
        public InvalidJson(String message) {
            super(message, null);
        }
    }

    /** A media type parameter's name (RFC 9110 token), compiled once: it is checked on every request with a body. */
    private static final java.util.regex.Pattern PARAMETER_NAME =
            java.util.regex.Pattern.compile("[A-Za-z0-9!#$&^_.+-]+");

    /**
     * Whether a {@code Content-Type} names JSON: exactly {@code application/json} (any case), with well-formed
     * parameters only, and a {@code charset}, if given, of UTF-8.
     */
    public static boolean isJsonMediaType(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";", -1);
        if (!parts[0].strip().equalsIgnoreCase("application/json")) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip();
            int eq = parameter.indexOf('=');
            if (eq <= 0 || eq == parameter.length() - 1
                    || !PARAMETER_NAME.matcher(parameter.substring(0, eq).strip()).matches()) {
                return false;
            }
            String name = parameter.substring(0, eq).strip();
            String value = parameter.substring(eq + 1).strip();
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            if (name.equalsIgnoreCase("charset") && !value.equalsIgnoreCase("utf-8")) {
                return false;
            }
        }
        return true;
    }

    public static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
