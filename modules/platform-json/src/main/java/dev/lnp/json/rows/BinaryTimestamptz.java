package dev.lnp.json.rows;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;

/**
 * PostgreSQL's {@code timestamptz} as the platform writes it, ISO 8601 in UTC ({@code 2026-11-21T13:05:01.12345Z}),
 * made by arithmetic from the binary form (eight bytes of microseconds) where the driver hands it over, and through
 * the driver's date-time otherwise: the same text either way.
 */
final class BinaryTimestamptz {

    /** Reads a binary timestamp's microseconds in place (no buffer object per cell). */
    private static final VarHandle BIG_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** PostgreSQL's binary {@code timestamptz}: microseconds since 2000-01-01T00:00Z. */
    private static final long PG_EPOCH_SECOND = 946_684_800L;
    private static final byte[] INFINITY = "infinity".getBytes(StandardCharsets.US_ASCII);

    private BinaryTimestamptz() {
    }

    /**
     * Once the driver prepares the statement it receives {@code timestamptz} in binary, eight bytes of
     * microseconds, and hands them over as they came: those are written by arithmetic into {@code buffer}, with no
     * date-time object (the driver made six per value). Anything else (text before the statement is prepared,
     * infinity, a year outside 1000–9999) goes through the driver's date-time: the same JSON either way.
     */
    static void write(ResultSet rs, int index, byte[] buffer, JsonGenerator json)
            throws SQLException, IOException {
        byte[] raw = rs.getBytes(index);
        if (raw == null) {
            json.writeNull();
            return;
        }
        int length = binaryIsoUtc(raw, buffer);
        if (length > 0) {
            Utf8Text.writeAscii(buffer, length, json);
            return;
        }
        writeIsoUtc(rs.getObject(index, OffsetDateTime.class), json);
    }

    /**
     * The {@code timestamptz} column {@code index} of the current row as lists write it (ISO 8601 in UTC, see
     * {@link #writeIsoUtc}), or null: for a single row's answer, by the same arithmetic as a list's cells (the
     * driver's date-time and {@link DateTimeFormatter} cost about 2 % of a create's CPU).
     */
    static String isoUtc(ResultSet rs, int index) throws SQLException {
        byte[] raw = rs.getBytes(index);
        if (raw == null) {
            return null;
        }
        byte[] buffer = new byte[30];
        int length = binaryIsoUtc(raw, buffer);
        if (length < 0) {
            OffsetDateTime value = rs.getObject(index, OffsetDateTime.class);
            OffsetDateTime utc = value.withOffsetSameInstant(ZoneOffset.UTC);
            if (utc.getYear() < 1000 || utc.getYear() > 9999) {
                return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(utc);
            }
            length = iso(buffer, utc.getYear(), utc.getMonthValue(), utc.getDayOfMonth(), utc.getHour(),
                    utc.getMinute(), utc.getSecond(), utc.getNano());
        }
        return new String(buffer, 0, length, StandardCharsets.US_ASCII);
    }

    /** A binary {@code timestamptz} written into {@code out}; -1 when {@code raw} is text or out of the fast range. */
    private static int binaryIsoUtc(byte[] raw, byte[] out) {
        if (raw.length != 8 || Arrays.equals(raw, INFINITY)) {
            return -1;
        }
        long micros = (long) BIG_ENDIAN_LONG.get(raw, 0);
        return micros == Long.MAX_VALUE || micros == Long.MIN_VALUE ? -1 : isoUtc(micros, out);
    }

    /**
     * Writes the instant {@code micros} after PostgreSQL's epoch into {@code out} as {@link #writeIsoUtc} does and
     * returns its length, or -1 for a year outside 1000–9999.
     */
    static int isoUtc(long micros, byte[] out) {
        long second = Math.floorDiv(micros, 1_000_000L) + PG_EPOCH_SECOND;
        int micro = (int) Math.floorMod(micros, 1_000_000L);
        long day = Math.floorDiv(second, 86_400L);
        int secondOfDay = (int) Math.floorMod(second, 86_400L);
        // Days to the proleptic Gregorian civil date (H. Hinnant's days_from_civil, inverted), as java.time does.
        long z = day + 719_468L;
        long era = Math.floorDiv(z, 146_097L);
        long dayOfEra = z - era * 146_097L;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int dayOfMonth = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        if (year < 1000 || year > 9999) {
            return -1;
        }
        return iso(out, (int) year, month, dayOfMonth, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60,
                micro * 1000);
    }

    /**
     * Writes the instant as {@link DateTimeFormatter#ISO_OFFSET_DATE_TIME} formats it in UTC
     * ({@code 2026-11-21T13:05:01.12345Z}: seconds always, the fraction without trailing zeros and left out when
     * zero), without the formatter's machinery for the years 1000 to 9999; other years go through the formatter.
     */
    static void writeIsoUtc(OffsetDateTime value, JsonGenerator json) throws IOException {
        OffsetDateTime utc = value.getOffset().equals(ZoneOffset.UTC) ? value : value.withOffsetSameInstant(ZoneOffset.UTC);
        int year = utc.getYear();
        if (year < 1000 || year > 9999) {
            json.writeString(DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(utc));
            return;
        }
        byte[] out = new byte[30];
        Utf8Text.writeAscii(out, iso(out, year, utc.getMonthValue(), utc.getDayOfMonth(), utc.getHour(),
                utc.getMinute(), utc.getSecond(), utc.getNano()), json);
    }

    /** {@code yyyy-MM-ddTHH:mm:ss[.fraction]Z} into {@code out} (30 bytes at least); returns the length. */
    private static int iso(byte[] out, int year, int month, int day, int hour, int minute, int second, int nanos) {
        digits(out, 0, year, 4);
        out[4] = '-';
        digits(out, 5, month, 2);
        out[7] = '-';
        digits(out, 8, day, 2);
        out[10] = 'T';
        digits(out, 11, hour, 2);
        out[13] = ':';
        digits(out, 14, minute, 2);
        out[16] = ':';
        digits(out, 17, second, 2);
        int end = 19;
        if (nanos != 0) {
            out[end++] = '.';
            int digits = 9;
            while (nanos % 10 == 0) {
                nanos /= 10;
                digits--;
            }
            digits(out, end, nanos, digits);
            end += digits;
        }
        out[end++] = 'Z';
        return end;
    }

    private static void digits(byte[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
