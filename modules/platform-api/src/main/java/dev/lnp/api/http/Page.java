package dev.lnp.api.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import java.io.IOException;

/**
 * The pagination object of the v1 envelope. It writes itself field by field: every list answer carries one, and
 * Jackson's bean serialisation read the four fields through reflection each time.
 */
public record Page(int page, int limit, long total, boolean hasMore) implements JsonSerializable {

    private static final SerializedString PAGE = new SerializedString("page");
    private static final SerializedString LIMIT = new SerializedString("limit");
    private static final SerializedString TOTAL = new SerializedString("total");
    private static final SerializedString HAS_MORE = new SerializedString("hasMore");

    public static Page of(PageRequest request, long total) {
        return new Page(request.page(), request.limit(), total, (long) request.page() * request.limit() < total);
    }

    /** {@code {"page", "limit", "total", "hasMore"}}, as the contract's envelope names them. */
    public void write(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeFieldName(PAGE);
        json.writeNumber(page);
        json.writeFieldName(LIMIT);
        json.writeNumber(limit);
        json.writeFieldName(TOTAL);
        json.writeNumber(total);
        json.writeFieldName(HAS_MORE);
        json.writeBoolean(hasMore);
        json.writeEndObject();
    }

    @Override
    public void serialize(JsonGenerator json, SerializerProvider serializers) throws IOException {
        write(json);
    }

    @Override
    public void serializeWithType(JsonGenerator json, SerializerProvider serializers, TypeSerializer type)
            throws IOException {
        write(json);
    }
}
