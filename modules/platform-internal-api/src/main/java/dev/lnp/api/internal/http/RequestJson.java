package dev.lnp.api.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import java.io.IOException;

/**
 * Request bodies read as the platform reads a route's body: strict JSON in UTF-8 under a JSON media type. For raw
 * routes of first-party plugins that read a body themselves (the chat endpoints, the MCP endpoint).
 */
public final class RequestJson {

    private RequestJson() {
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
        try (com.fasterxml.jackson.core.JsonParser parser = Json.mapper().getFactory().createParser(text)) {
            parser.enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            JsonNode document = Json.mapper().readTree(parser);
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
}
