package dev.lnp.api.events;

import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * An event written to the outbox by the change's own statement, as one step of its {@code WITH}: the change and
 * its event in one round trip instead of two, for an event whose payload SQL can compute from the changed row.
 * Obtained from {@link EventPublisher#inStatement}, which has already checked the event's name; it commits or
 * rolls back with the change like any published event.
 *
 * <pre>{@code
 * StatementEvent event = tx.events().inStatement("mod.thing.created");
 * Query insert = event.bind(handle.createQuery("WITH inserted AS (INSERT ... RETURNING *), event AS ("
 *         + event.step("inserted", "jsonb_build_object('id', id, 'name', name)") + ") SELECT inserted.*, "
 *         + event.sizeOf("event") + " FROM inserted"));
 * Thing thing = insert.map(event.checked(thingMapper)).one();
 * }</pre>
 *
 * The payload limit ({@code lnp.webhooks.max_payload_bytes}) is checked on the answer: {@link #checked} throws
 * the same 413 {@code payload_too_large} as {@link EventPublisher#publish}, which rolls the transaction back. The
 * size counted is the stored payload's text, which is what a webhook delivery carries.
 */
public interface StatementEvent {

    /** The column of the statement's answer that carries the event payload's size in bytes (see {@link #sizeOf}). */
    String SIZE_COLUMN = "lnp_event_bytes";

    /**
     * A data-modifying statement for a {@code WITH} step of its own: one outbox row per row of {@code source} (an
     * earlier step's name), its payload the {@code jsonb} expression {@code payloadSql} over that row. The step
     * answers each payload's size as {@link #SIZE_COLUMN}. Its parameters are named {@code lnp_event_*}.
     */
    String step(String source, String payloadSql);

    /** The select-list item that carries the largest payload size of the step named {@code stepName}. */
    default String sizeOf(String stepName) {
        return "(SELECT max(" + SIZE_COLUMN + ") FROM " + stepName + ") AS " + SIZE_COLUMN;
    }

    /** Binds the parameters of {@link #step}. */
    <S extends SqlStatement<S>> S bind(S statement);

    /**
     * {@code rows}, after refusing an answer whose event payload is over the limit with the 413 of
     * {@link EventPublisher#publish}. The answer must carry {@link #SIZE_COLUMN}.
     */
    <T> RowMapper<T> checked(RowMapper<T> rows);
}
