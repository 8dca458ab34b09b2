package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.lnp.api.sql.JsonRows;
import dev.lnp.testkit.TestDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A single row's {@code timestamptz} ({@link JsonRows#isoUtc}, used by every plugin's answers and {@code Column})
 * is the text a list writes, whichever form the driver received: text before it prepares a statement, binary
 * after; and the formatter's form for years outside 1000–9999.
 */
class SingleRowTimestampTest {

    private static final List<String> INSTANTS = List.of("2026-11-24T05:24:37.830488Z", "2026-11-24T05:24:37Z",
            "2026-11-24T05:24:37.5Z", "2000-01-01T00:00:00Z", "1999-12-31T23:59:59.999999Z",
            "1600-02-29T00:00:00.000001Z", "0999-12-31T23:59:59.999999Z", "+10000-01-01T00:00:00Z");

    /** prepareThreshold 0: never prepared, values in text; -1: prepared at once, values in binary. */
    @ParameterizedTest
    @ValueSource(ints = {0, -1})
    void aTimestampReadsAsTheListWritesItInTextAndInBinary(int prepareThreshold) throws Exception {
        var server = TestDatabases.server();
        Properties properties = new Properties();
        properties.setProperty("user", server.user());
        if (server.password() != null) {
            properties.setProperty("password", server.password());
        }
        properties.setProperty("prepareThreshold", String.valueOf(prepareThreshold));
        // A session zone far from UTC: the answer is in UTC whatever the session's zone.
        properties.setProperty("options", "-c TimeZone=Pacific/Kiritimati");
        try (Connection connection = DriverManager.getConnection(server.url("postgres"), properties);
                PreparedStatement statement = connection.prepareStatement("SELECT CAST(? AS timestamptz), NULL::timestamptz")) {
            for (int round = 0; round < 6; round++) { // past the driver's default threshold of 5 too
                for (String text : INSTANTS) {
                    Instant instant = Instant.parse(text);
                    // PostgreSQL's own input form: it takes no '+' before a five-digit year.
                    statement.setString(1, text.replaceFirst("^\\+", "").replace("T", " ").replace("Z", "+00"));
                    try (ResultSet rs = statement.executeQuery()) {
                        rs.next();
                        assertEquals(DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC)),
                                JsonRows.isoUtc(rs, 1), text + " with prepareThreshold " + prepareThreshold);
                        assertNull(JsonRows.isoUtc(rs, 2));
                    }
                }
            }
        }
    }
}
