package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a person answers a widget's chat: a time zone and, per weekday, the spans the team is in
 * ({@code "09:00-17:00"}, several separated by commas, empty for a closed day). A widget without office hours is
 * always attended. Outside them a hand-off is still recorded, and the visitor is told when someone is back.
 *
 * @param zone   the zone the hours are in (daylight saving included)
 * @param weekly the spans of each weekday, ordered, not overlapping; a missing day is closed
 */
record OfficeHours(ZoneId zone, Map<DayOfWeek, List<Span>> weekly) {

    /** One opening on one day; {@code closes} is exclusive and may be the end of the day (24:00). */
    record Span(LocalTime opens, LocalTime closes, boolean untilMidnight) {

        boolean contains(LocalTime t) {
            return !t.isBefore(opens) && (untilMidnight || t.isBefore(closes));
        }

        @Override
        public String toString() {
            return opens + "-" + (untilMidnight ? "24:00" : closes.toString());
        }
    }

    /** Whether a person is there now and, if not, when next (empty when the hours never open). */
    record Availability(boolean open, Optional<ZonedDateTime> next) {

        /** "We are back Monday at 09:00 (Europe/Berlin)": the moment in the team's own zone, named. */
        Optional<String> backText(ZonedDateTime now) {
            return next.map(at -> {
                String day = at.toLocalDate().equals(now.withZoneSameInstant(at.getZone()).toLocalDate()) ? "today"
                        : at.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
                return "We are back " + day + " at " + at.toLocalTime() + " (" + at.getZone().getId() + ")";
            });
        }
    }

    private static final Pattern SPAN = Pattern.compile("^\\s*(\\d{2}):(\\d{2})\\s*-\\s*(\\d{2}):(\\d{2})\\s*$");

    static final List<String> DAYS = List.of("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
            "sunday");

    /**
     * The office hours of a widget's {@code office_hours} member; empty for none (always attended). Refuses a zone
     * Java does not know, a malformed span, a span that ends before it starts, and spans of one day that overlap,
     * each naming its field.
     */
    static Optional<OfficeHours> parse(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return Optional.empty();
        }
        String zoneText = node.path("time_zone").asText("").strip();
        ZoneId zone;
        try {
            zone = ZoneId.of(zoneText);
        } catch (DateTimeException e) {
            throw ApiProblem.invalidField("/office_hours/time_zone", "time_zone", "Write a time zone such as "
                    + "Europe/Berlin or UTC" + (zoneText.isEmpty() ? "." : ", not \u201c" + zoneText + "\u201d."));
        }
        Map<DayOfWeek, List<Span>> weekly = new EnumMap<>(DayOfWeek.class);
        for (int d = 0; d < DAYS.size(); d++) {
            String text = node.path(DAYS.get(d)).asText("").strip();
            List<Span> spans = spans("/office_hours/" + DAYS.get(d), text);
            if (!spans.isEmpty()) {
                weekly.put(DayOfWeek.of(d + 1), spans);
            }
        }
        return Optional.of(new OfficeHours(zone, weekly));
    }

    private static List<Span> spans(String pointer, String text) {
        List<Span> spans = new ArrayList<>();
        if (text.isEmpty()) {
            return spans;
        }
        for (String part : text.split(",")) {
            Matcher m = SPAN.matcher(part);
            if (!m.matches()) {
                throw ApiProblem.invalidField(pointer, "office_hours", "Write opening hours as 09:00-17:00, several "
                        + "separated by commas, or leave the day empty when nobody is there.");
            }
            LocalTime opens = time(pointer, m.group(1), m.group(2), false);
            boolean untilMidnight = "24".equals(m.group(3)) && "00".equals(m.group(4));
            LocalTime closes = untilMidnight ? LocalTime.MAX : time(pointer, m.group(3), m.group(4), true);
            if (!opens.isBefore(closes)) {
                throw ApiProblem.invalidField(pointer, "office_hours", "Opening hours must close after they open: "
                        + part.strip() + " does not.");
            }
            spans.add(new Span(opens, closes, untilMidnight));
        }
        spans.sort(Comparator.comparing(Span::opens));
        for (int i = 1; i < spans.size(); i++) {
            Span before = spans.get(i - 1);
            if (before.untilMidnight() || spans.get(i).opens().isBefore(before.closes())) {
                throw ApiProblem.invalidField(pointer, "office_hours", "Opening hours of one day must not overlap: "
                        + before + " and " + spans.get(i) + " do.");
            }
        }
        return spans;
    }

    private static LocalTime time(String pointer, String hours, String minutes, boolean closing) {
        int h = Integer.parseInt(hours);
        int m = Integer.parseInt(minutes);
        if (h > 23 || m > 59) {
            throw ApiProblem.invalidField(pointer, "office_hours", "A time is 00:00 to 23:59"
                    + (closing ? " (or 24:00 to close at midnight)" : "") + ", not " + hours + ":" + minutes + ".");
        }
        return LocalTime.of(h, m);
    }

    /** Whether someone is in at {@code now}, and when they are next (searched over the coming week). */
    Availability at(Instant now) {
        ZonedDateTime local = now.atZone(zone);
        for (Span span : weekly.getOrDefault(local.getDayOfWeek(), List.of())) {
            if (span.contains(local.toLocalTime())) {
                return new Availability(true, Optional.empty());
            }
        }
        for (int days = 0; days <= 7; days++) {
            var date = local.toLocalDate().plusDays(days);
            for (Span span : weekly.getOrDefault(date.getDayOfWeek(), List.of())) {
                ZonedDateTime opens = date.atTime(span.opens()).atZone(zone);
                if (opens.isAfter(local)) {
                    return new Availability(false, Optional.of(opens));
                }
            }
        }
        return new Availability(false, Optional.empty());
    }

    /**
     * What the widget is told about the team: {@code person_available} now, and when not, {@code next_person_at}
     * (the next opening, ISO-8601 with the team's offset; null when the hours never open) and {@code back_text}.
     */
    static Map<String, Object> describe(Optional<OfficeHours> hours, Instant now) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        Availability a = hours.map(h -> h.at(now)).orElse(new Availability(true, Optional.empty()));
        m.put("person_available", a.open());
        m.put("next_person_at", a.next().map(at -> at.toOffsetDateTime().toString()).orElse(null));
        m.put("back_text", a.open() ? null : a.backText(now.atZone(hours.orElseThrow().zone()))
                .orElse("No office hours are set for the coming days"));
        return m;
    }

    /** The office hours as the API shows them: the zone and every weekday's spans (empty when closed). */
    ObjectNode toJson() {
        ObjectNode o = Json.object().put("time_zone", zone.getId());
        for (int d = 0; d < DAYS.size(); d++) {
            o.put(DAYS.get(d), String.join(", ", weekly.getOrDefault(DayOfWeek.of(d + 1), List.of()).stream()
                    .map(Span::toString).toList()));
        }
        return o;
    }
}
