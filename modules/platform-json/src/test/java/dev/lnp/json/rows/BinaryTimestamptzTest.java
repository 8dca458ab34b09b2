package dev.lnp.json.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A binary {@code timestamptz} (microseconds since 2000-01-01Z) is written by arithmetic, not through java.time: it
 * must give exactly the ISO form the formatter gives, and hand every year outside 1000–9999 back to it.
 */
class BinaryTimestamptzTest {

    private static final long PG_EPOCH = 946_684_800L;

    @Test
    void everyInstantOfTheFourDigitYearsIsWrittenAsTheFormatterWritesIt() {
        long first = micros(Instant.parse("1000-01-01T00:00:00Z"));
        long last = micros(Instant.parse("9999-12-31T23:59:59.999999Z"));
        SplittableRandom random = new SplittableRandom(20);
        for (int i = 0; i < 200_000; i++) {
            long micros = random.nextLong(first, last + 1);
            // Whole seconds, whole days and short fractions too, not only six-digit fractions.
            switch (i % 4) {
                case 1 -> micros -= Math.floorMod(micros, 1_000_000L);
                case 2 -> micros -= Math.floorMod(micros, 86_400_000_000L);
                case 3 -> micros -= Math.floorMod(micros, 1_000L);
                default -> { }
            }
            assertSame(micros);
        }
        for (String edge : new String[] {"1000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z",
                "2000-01-01T00:00:00Z", "1999-12-31T23:59:59.999999Z", "2000-02-29T12:00:00.5Z",
                "1900-03-01T00:00:00Z", "1600-02-29T00:00:00.000001Z", "1970-01-01T00:00:00Z"}) {
            assertSame(micros(Instant.parse(edge)));
        }
    }

    @Test
    void yearsOutsideFourDigitsAreLeftToTheFormatter() {
        byte[] out = new byte[30];
        assertEquals(-1, BinaryTimestamptz.isoUtc(micros(Instant.parse("0999-12-31T23:59:59.999999Z")), out));
        assertEquals(-1, BinaryTimestamptz.isoUtc(micros(Instant.parse("+10000-01-01T00:00:00Z")), out));
        assertEquals(-1, BinaryTimestamptz.isoUtc(micros(Instant.parse("-0044-03-15T12:00:00Z")), out));
    }

    private static void assertSame(long micros) {
        Instant instant = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L) + PG_EPOCH,
                Math.floorMod(micros, 1_000_000L) * 1000L);
        String expected = DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));
        byte[] out = new byte[30];
        int length = BinaryTimestamptz.isoUtc(micros, out);
        assertEquals(expected, new String(out, 0, length, StandardCharsets.US_ASCII), "micros " + micros);
    }

    private static long micros(Instant instant) {
        return (instant.getEpochSecond() - PG_EPOCH) * 1_000_000L + instant.getNano() / 1000;
    }
}
