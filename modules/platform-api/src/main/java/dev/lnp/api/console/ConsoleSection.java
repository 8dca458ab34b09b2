package dev.lnp.api.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A part of the administration console a plugin contributes ({@link dev.lnp.api.Registrar#consoleSection}): a
 * navigation entry, a paged table of the workspace's rows, optionally a detail view, create and edit forms generated
 * from JSON Schema files, and row actions. The core renders every page in the console's look and does the session,
 * CSRF, role checks, the workspace transaction, validation against the schemas and the activity log; the plugin
 * only supplies rows and changes them.
 *
 * <p>Addresses: {@code /console/m/<plugin>/<section>} (list), {@code …/new} (create form), {@code …/<row id>}
 * (detail), {@code …/<row id>/edit}, {@code …/<row id>/actions/<action>}. A section declared
 * {@link Builder#childOf childOf} another is reached from the parent row's detail view and carries
 * {@code ?parent=<row id>}.
 *
 * <p>Forms: each property of the schema (in its order) is one field, labelled by its {@code title} (else its name)
 * with its {@code description} as help. {@code string} is a text input ({@code format: email} an e-mail input,
 * {@code format: uri} a URL input, {@code maxLength} above 200 a text area), a {@code string} with {@code enum} a
 * choice, {@code boolean} a checkbox, {@code integer} a number input, an {@code array} of strings a text area with
 * one value a line. An empty optional field is left out of the JSON object. The values are checked against the
 * schema (errors next to each field, values kept), then handed to the callback, which may throw
 * {@link dev.lnp.api.http.ApiProblem} with {@link dev.lnp.api.http.FieldError}s (pointer {@code /<property>}) to
 * show more errors next to the fields, or another problem to show its detail above the form.
 *
 * <pre>{@code
 * registrar.consoleSection(ConsoleSection.builder("widgets", "Chat widgets")
 *         .itemName("widget")
 *         .minRole(ConsoleRole.ADMIN)
 *         .columns(ConsoleColumn.linked("Name", "name"), ConsoleColumn.of("Created", "created_at"))
 *         .emptyText("No widgets yet.")
 *         .list(service::listForConsole)
 *         .detail(service::findForConsole)
 *         .create(JsonSchemas.load(getClass(), "widget-create.json"), service::createFromConsole)
 *         .edit(JsonSchemas.load(getClass(), "widget-update.json"), service::updateFromConsole)
 *         .actions(RowAction.builder("rotate-key", "Rotate key").confirm("The old key stops working.")
 *                 .handler(service::rotateKey))
 *         .build());
 * }</pre>
 */
public final class ConsoleSection {

    /** The rows of one page ({@link SectionContext#page()}) of the workspace. */
    @FunctionalInterface
    public interface Lister {
        RowPage list(SectionContext context) throws Exception;
    }

    /** One row of the workspace; empty when there is none with this id here (the console answers 404). */
    @FunctionalInterface
    public interface Finder {
        Optional<ObjectNode> find(SectionContext context, String id) throws Exception;
    }

    /** Creates a row from the checked form values; usually answers {@link ActionResult#showRow}. */
    @FunctionalInterface
    public interface Creator {
        ActionResult create(SectionContext context, ObjectNode values) throws Exception;
    }

    /** Changes row {@code id} from the checked form values (only the fields of the edit schema). */
    @FunctionalInterface
    public interface Editor {
        ActionResult update(SectionContext context, String id, ObjectNode values) throws Exception;
    }

    private final String id;
    private final String label;
    private final String group;
    private final String description;
    private final String itemName;
    private final ConsoleRole minRole;
    private final ConsoleRole changeRole;
    private final List<ConsoleColumn> columns;
    private final List<ConsoleColumn> detailFields;
    private final String emptyText;
    private final int pageSize;
    private final Lister lister;
    private final Finder finder;
    private final JsonNode createSchema;
    private final Creator creator;
    private final String createdMessage;
    private final JsonNode editSchema;
    private final Editor editor;
    private final String savedMessage;
    private final List<RowAction> actions;
    private final String parent;

    private ConsoleSection(Builder b) {
        this.id = b.id;
        this.label = b.label;
        this.group = b.group;
        this.description = b.description;
        this.itemName = b.itemName;
        this.minRole = b.minRole;
        this.changeRole = b.changeRole == null ? b.minRole : b.changeRole;
        this.columns = List.copyOf(b.columns);
        this.detailFields = List.copyOf(b.detailFields == null ? b.columns : b.detailFields);
        this.emptyText = b.emptyText;
        this.pageSize = b.pageSize;
        this.lister = b.lister;
        this.finder = b.finder;
        this.createSchema = b.createSchema;
        this.creator = b.creator;
        this.createdMessage = b.createdMessage;
        this.editSchema = b.editSchema;
        this.editor = b.editor;
        this.savedMessage = b.savedMessage;
        this.actions = List.copyOf(b.actions);
        this.parent = b.parent;
    }

    /**
     * @param id lowercase letters, digits and {@code -}, unique within the plugin (part of the address)
     * @param label the navigation entry and the list's heading, e.g. {@code Chat widgets}
     */
    public static Builder builder(String id, String label) {
        return new Builder(id, label);
    }

    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    /** The navigation group the entry is listed under (default {@code Modules}). */
    public String group() {
        return group;
    }

    /** A sentence under the heading, or null. */
    public String description() {
        return description;
    }

    /** What one row is, in lowercase, e.g. {@code widget} ("New widget", "Edit widget"). */
    public String itemName() {
        return itemName;
    }

    /** The weakest role that sees the section (navigation, list, detail). */
    public ConsoleRole minRole() {
        return minRole;
    }

    /** The weakest role that may create and edit (default: {@link #minRole()}); actions name their own. */
    public ConsoleRole changeRole() {
        return changeRole;
    }

    public List<ConsoleColumn> columns() {
        return columns;
    }

    public List<ConsoleColumn> detailFields() {
        return detailFields;
    }

    public String emptyText() {
        return emptyText;
    }

    public int pageSize() {
        return pageSize;
    }

    public Lister lister() {
        return lister;
    }

    public Optional<Finder> finder() {
        return Optional.ofNullable(finder);
    }

    public Optional<JsonNode> createSchema() {
        return Optional.ofNullable(createSchema);
    }

    public Optional<Creator> creator() {
        return Optional.ofNullable(creator);
    }

    public String createdMessage() {
        return createdMessage;
    }

    public Optional<JsonNode> editSchema() {
        return Optional.ofNullable(editSchema);
    }

    public Optional<Editor> editor() {
        return Optional.ofNullable(editor);
    }

    public String savedMessage() {
        return savedMessage;
    }

    public List<RowAction> actions() {
        return actions;
    }

    public Optional<RowAction> action(String actionId) {
        return actions.stream().filter(a -> a.id().equals(actionId)).findFirst();
    }

    /** The id of the section (same plugin) whose rows own this section's rows, if any. */
    public Optional<String> parent() {
        return Optional.ofNullable(parent);
    }

    public static final class Builder {
        private final String id;
        private final String label;
        private String group = "Modules";
        private String description;
        private String itemName = "item";
        private ConsoleRole minRole = ConsoleRole.ADMIN;
        private ConsoleRole changeRole;
        private final List<ConsoleColumn> columns = new ArrayList<>();
        private List<ConsoleColumn> detailFields;
        private String emptyText = "Nothing here yet.";
        private int pageSize = 25;
        private Lister lister;
        private Finder finder;
        private JsonNode createSchema;
        private Creator creator;
        private String createdMessage = "Created.";
        private JsonNode editSchema;
        private Editor editor;
        private String savedMessage = "Saved.";
        private final List<RowAction> actions = new ArrayList<>();
        private String parent;

        private Builder(String id, String label) {
            if (id == null || !id.matches("[a-z][a-z0-9-]{0,39}")) {
                throw new IllegalArgumentException("console section id " + id
                        + " must be lowercase letters, digits and '-' (at most 40), starting with a letter");
            }
            this.id = id;
            this.label = Objects.requireNonNull(label, "label");
        }

        public Builder group(String group) {
            this.group = Objects.requireNonNull(group, "group");
            return this;
        }

        public Builder description(String description) {
            this.description = description;
            return this;
        }

        public Builder itemName(String itemName) {
            this.itemName = Objects.requireNonNull(itemName, "itemName");
            return this;
        }

        /** Default {@link ConsoleRole#ADMIN}. */
        public Builder minRole(ConsoleRole role) {
            this.minRole = Objects.requireNonNull(role, "role");
            return this;
        }

        public Builder changeRole(ConsoleRole role) {
            this.changeRole = Objects.requireNonNull(role, "role");
            return this;
        }

        /** The table's columns, in order; at least one. */
        public Builder columns(ConsoleColumn... columns) {
            this.columns.addAll(List.of(columns));
            return this;
        }

        /** The fields of the detail view (default: the columns). */
        public Builder detailFields(ConsoleColumn... fields) {
            this.detailFields = List.of(fields);
            return this;
        }

        public Builder emptyText(String text) {
            this.emptyText = Objects.requireNonNull(text, "text");
            return this;
        }

        /** Rows per page, 1 to 100 (default 25). */
        public Builder pageSize(int size) {
            if (size < 1 || size > 100) {
                throw new IllegalArgumentException("page size must be 1 to 100, not " + size);
            }
            this.pageSize = size;
            return this;
        }

        public Builder list(Lister lister) {
            this.lister = Objects.requireNonNull(lister, "lister");
            return this;
        }

        /** The detail view; needed by linked columns, edit and actions. */
        public Builder detail(Finder finder) {
            this.finder = Objects.requireNonNull(finder, "finder");
            return this;
        }

        /** The create form, generated from {@code schema} (an object schema, e.g. the REST route's body schema). */
        public Builder create(JsonNode schema, Creator creator) {
            this.createSchema = Objects.requireNonNull(schema, "schema");
            this.creator = Objects.requireNonNull(creator, "creator");
            return this;
        }

        public Builder createdMessage(String message) {
            this.createdMessage = Objects.requireNonNull(message, "message");
            return this;
        }

        /** The edit form, generated from {@code schema} and filled from the row's fields of the same names. */
        public Builder edit(JsonNode schema, Editor editor) {
            this.editSchema = Objects.requireNonNull(schema, "schema");
            this.editor = Objects.requireNonNull(editor, "editor");
            return this;
        }

        public Builder savedMessage(String message) {
            this.savedMessage = Objects.requireNonNull(message, "message");
            return this;
        }

        public Builder actions(RowAction... actions) {
            this.actions.addAll(List.of(actions));
            return this;
        }

        /**
         * Makes this a section of rows owned by a row of {@code parentSectionId} (same plugin), e.g. the knowledge
         * articles of a widget: it has no navigation entry, the parent's detail view links to it, and
         * {@link SectionContext#parentId()} names the parent row (checked to exist with the parent's detail
         * callback first; 404 otherwise).
         */
        public Builder childOf(String parentSectionId) {
            this.parent = Objects.requireNonNull(parentSectionId, "parentSectionId");
            return this;
        }

        public ConsoleSection build() {
            if (lister == null) {
                throw new IllegalStateException("console section " + id + " needs list(...)");
            }
            if (columns.isEmpty()) {
                throw new IllegalStateException("console section " + id + " needs at least one column");
            }
            boolean needsDetail = editor != null || !actions.isEmpty()
                    || columns.stream().anyMatch(ConsoleColumn::linksToDetail);
            if (needsDetail && finder == null) {
                throw new IllegalStateException("console section " + id
                        + " needs detail(...) for its linked columns, edit form or actions");
            }
            List<String> seen = new ArrayList<>();
            for (RowAction action : actions) {
                if (seen.contains(action.id())) {
                    throw new IllegalStateException("console section " + id + " has two actions " + action.id());
                }
                seen.add(action.id());
            }
            return new ConsoleSection(this);
        }
    }
}
