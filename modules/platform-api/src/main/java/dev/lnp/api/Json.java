package dev.lnp.api;

import dev.lnp.api.http.JsonSchemaRules;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;

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

    private Json() {
    }

    /**
     * The resource a document was read from ({@code schemas/contact-create.json}), or how it was derived from one
     * ({@code patch of schemas/…}); empty for documents built in code.
     */
    public static Optional<String> sourceOf(JsonNode node) {
        return JsonSchemaRules.PLATFORM.sourceOf(node);
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /**
     * Reads a JSON document (typically a JSON Schema) from {@code owner}'s own jar or class folder, else from its
     * class loader. Its own first: the distribution's bundled plugins share one class loader, and two of them may
     * each have, say, {@code schemas/contact.json}; the loader alone would give both the same file.
     */
    public static JsonNode resource(Class<?> owner, String path) {
        String name = path.startsWith("/") ? path.substring(1) : path;
        try (InputStream in = open(owner, name)) {
            if (in == null) {
                throw new IllegalArgumentException("No resource " + name + " for " + owner.getName());
            }
            return JsonSchemaRules.PLATFORM.remember(MAPPER.readTree(in), name);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + name, e);
        }
    }

    private static InputStream open(Class<?> owner, String name) throws IOException {
        java.security.CodeSource source = owner.getProtectionDomain().getCodeSource();
        java.net.URL location = source == null ? null : source.getLocation();
        if (location != null && "file".equals(location.getProtocol())) {
            java.nio.file.Path where;
            try {
                where = java.nio.file.Path.of(location.toURI());
            } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                where = null;
            }
            if (where != null && java.nio.file.Files.isDirectory(where)) {
                java.nio.file.Path file = where.resolve(name);
                if (java.nio.file.Files.isRegularFile(file)) {
                    return java.nio.file.Files.newInputStream(file);
                }
            } else if (where != null && java.nio.file.Files.isRegularFile(where)) {
                try (java.util.jar.JarFile jar = new java.util.jar.JarFile(where.toFile())) {
                    java.util.jar.JarEntry entry = jar.getJarEntry(name);
                    if (entry != null) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            return new java.io.ByteArrayInputStream(in.readAllBytes());
                        }
                    }
                }
            }
        }
        return owner.getClassLoader().getResourceAsStream(name);
    }

    public static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
