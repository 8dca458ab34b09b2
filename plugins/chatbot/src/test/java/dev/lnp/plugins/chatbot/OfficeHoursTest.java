package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import java.time.Instant;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** Open, closed and the next opening at fixed moments, across a weekend, a day's gap and daylight saving. */
class OfficeHoursTest {

    private static final OfficeHours WEEKDAYS = OfficeHours.parse(Json.object().put("time_zone", "Europe/Berlin")
            .put("monday", "09:00-17:00").put("tuesday", "09:00-12:00, 13:00-17:00").put("wednesday", "09:00-17:00")
            .put("thursday", "09:00-17:00").put("friday", "09:00-17:00").put("saturday", "")).orElseThrow();

    private static Instant berlin(String local) {
        return ZonedDateTime.parse(local + "[Europe/Berlin]").toInstant();
    }

    @Test
    void isOpenWithinASpanAndClosedBetweenSpans() {
        assertTrue(WEEKDAYS.at(berlin("2026-11-25T10:00+01:00")).open(), "Wednesday morning");
        assertTrue(WEEKDAYS.at(berlin("2026-11-23T09:00+01:00")).open(), "opening minute included");
        assertFalse(WEEKDAYS.at(berlin("2026-11-23T17:00+01:00")).open(), "closing minute excluded");
        var lunch = WEEKDAYS.at(berlin("2026-11-24T12:30+01:00"));
        assertFalse(lunch.open());
        assertEquals(berlin("2026-11-24T13:00+01:00"), lunch.next().orElseThrow().toInstant());
        assertEquals("We are back today at 13:00 (Europe/Berlin)",
                lunch.backText(berlin("2026-11-24T12:30+01:00").atZone(WEEKDAYS.zone())).orElseThrow());
    }

    @Test
    void afterFridayTheTeamIsBackOnMonday() {
        Instant friday = berlin("2026-11-27T18:00+01:00");
        var a = WEEKDAYS.at(friday);
        assertFalse(a.open());
        assertEquals(berlin("2026-11-30T09:00+01:00"), a.next().orElseThrow().toInstant());
        assertEquals("We are back Monday at 09:00 (Europe/Berlin)", a.backText(friday.atZone(WEEKDAYS.zone()))
                .orElseThrow());
        var described = OfficeHours.describe(java.util.Optional.of(WEEKDAYS), friday);
        assertEquals(false, described.get("person_available"));
        assertEquals("2026-11-30T09:00+01:00", described.get("next_person_at"));
    }

    @Test
    void theHoursFollowTheZoneThroughDaylightSaving() {
        // In summer 09:00 in Berlin is 07:00 UTC.
        assertTrue(WEEKDAYS.at(Instant.parse("2026-07-01T07:00:00Z")).open());
        assertFalse(WEEKDAYS.at(Instant.parse("2026-12-02T07:00:00Z")).open());
    }

    @Test
    void noHoursMeansAlwaysAttendedAndHoursWithoutADayNeverOpen() {
        assertEquals(true, OfficeHours.describe(java.util.Optional.empty(), Instant.now()).get("person_available"));
        var never = OfficeHours.parse(Json.object().put("time_zone", "UTC")).orElseThrow().at(Instant.now());
        assertFalse(never.open());
        assertTrue(never.next().isEmpty());
        var untilMidnight = OfficeHours.parse(Json.object().put("time_zone", "UTC").put("sunday", "20:00-24:00"))
                .orElseThrow();
        assertTrue(untilMidnight.at(Instant.parse("2026-11-29T23:59:00Z")).open());
        assertEquals("20:00-24:00", untilMidnight.toJson().get("sunday").asText());
    }

    @Test
    void badHoursAreRefusedNamingTheField() {
        assertField("/office_hours/time_zone", Json.object().put("time_zone", "Mars/Olympus"));
        assertField("/office_hours/time_zone", Json.object().put("monday", "09:00-17:00"));
        assertField("/office_hours/monday", Json.object().put("time_zone", "UTC").put("monday", "9 to 5"));
        assertField("/office_hours/tuesday", Json.object().put("time_zone", "UTC").put("tuesday", "17:00-09:00"));
        assertField("/office_hours/friday", Json.object().put("time_zone", "UTC").put("friday", "09:00-13:00, 12:00-17:00"));
        assertField("/office_hours/sunday", Json.object().put("time_zone", "UTC").put("sunday", "09:00-25:00"));
        assertField("/office_hours/sunday", Json.object().put("time_zone", "UTC").put("sunday", "10:00-24:00, 23:00-23:30"));
    }

    private static void assertField(String pointer, com.fasterxml.jackson.databind.JsonNode hours) {
        ApiProblem p = assertThrows(ApiProblem.class, () -> OfficeHours.parse(hours));
        assertTrue(p.toString().contains(pointer) || String.valueOf(p.errors()).contains(pointer), p + " " + pointer);
    }
}
