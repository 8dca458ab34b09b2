package dev.lnp.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * An MCP tool a plugin offers. The input schema is the same document the equivalent REST route validates
 * with, so the tool catalog cannot drift from what runs. Build one with {@link #builder(String)}:
 *
 * <pre>{@code
 * ToolDescriptor.builder("notes_create")
 *         .title("Create a note").description("Creates a note in the workspace.")
 *         .scope("notes.write").quota("notes")
 *         .inputSchema(createSchema).outputSchema(noteSchema)
 *         .annotations(ToolAnnotations.create())
 *         .handler(this::create);
 * }</pre>
 *
 * @param scope the scope a key needs to call the tool
 * @param quota the monthly quota counter a call consumes, or {@code null}; the plugin declares it with
 *              {@link dev.lnp.api.Registrar#quota}
 */
public record ToolDescriptor(
        String name,
        String title,
        String description,
        String scope,
        JsonNode inputSchema,
        JsonNode outputSchema,
        ToolAnnotations annotations,
        String quota,
        ToolHandler handler) {

    public ToolDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope of tool " + name);
        Objects.requireNonNull(inputSchema, "inputSchema of tool " + name);
        Objects.requireNonNull(outputSchema, "outputSchema of tool " + name);
        Objects.requireNonNull(annotations, "annotations of tool " + name);
        Objects.requireNonNull(handler, "handler of tool " + name);
        if (!name.matches("[a-z][a-z0-9_]{0,63}")) {
            throw new IllegalArgumentException("Tool name must be lowercase snake_case: " + name);
        }
    }

    /** Starts a tool descriptor; {@link Builder#handler} completes it. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * Names every part of a tool. Scope, input and output schemas and annotations are required; title,
     * description and quota are optional. {@link #handler} is the last call and checks the whole descriptor.
     */
    public static final class Builder {
        private final String name;
        private String title;
        private String description;
        private String scope;
        private JsonNode inputSchema;
        private JsonNode outputSchema;
        private ToolAnnotations annotations;
        private String quota;

        private Builder(String name) {
            this.name = name;
        }

        /** A short human-readable name, e.g. "Create a contact". */
        public Builder title(String title) {
            this.title = title;
            return this;
        }

        /** What the tool does, for the model choosing it: one or two sentences. */
        public Builder description(String description) {
            this.description = description;
            return this;
        }

        /** The scope a key needs to call the tool (usually the equivalent REST route's). */
        public Builder scope(String scope) {
            this.scope = scope;
            return this;
        }

        /** JSON Schema of the arguments; the same document the equivalent REST route validates its body with. */
        public Builder inputSchema(JsonNode inputSchema) {
            this.inputSchema = inputSchema;
            return this;
        }

        /** JSON Schema of the structured result. */
        public Builder outputSchema(JsonNode outputSchema) {
            this.outputSchema = outputSchema;
            return this;
        }

        /** Read, create, update or delete hints ({@link ToolAnnotations#read()} ...). */
        public Builder annotations(ToolAnnotations annotations) {
            this.annotations = annotations;
            return this;
        }

        /** The monthly quota a call consumes: one this plugin declared with {@code Registrar.quota}. */
        public Builder quota(String quota) {
            this.quota = quota;
            return this;
        }

        /** Completes the descriptor; fails with the name of whatever is missing or malformed. */
        public ToolDescriptor handler(ToolHandler handler) {
            return new ToolDescriptor(name, title, description, scope, inputSchema, outputSchema, annotations, quota,
                    handler);
        }
    }
}
