package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Capacity per person per ISO week: the hours their allocations book against the hours they work. Over-allocation
 * is flagged here, never refused at write time: a plan is drafted before it is balanced, and refusing the write
 * that tips a week over would make the order of edits matter (docs/projects-and-issues.md).
 *
 * <p>Allocations book working days, Monday to Friday: {@code hours_per_day} on each, or {@code percentage} of the
 * person's weekly hours spread over the five.
 */
final class CapacityService {

    static final BigDecimal DEFAULT_WEEKLY_HOURS = BigDecimal.valueOf(40);
    static final int MAX_WEEKS = 26;
    private static final int DEFAULT_WEEKS = 4;
    private static final BigDecimal WORKING_DAYS = BigDecimal.valueOf(5);
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private final AllocationRepository allocations;
    private final CapacityRepository capacities;

    CapacityService(AllocationRepository allocations, CapacityRepository capacities) {
        this.allocations = allocations;
        this.capacities = capacities;
    }

    /**
     * @param from, to the range, widened to whole ISO weeks; null for the defaults
     * @param users these people (empty: everyone with an allocation in the range)
     * @param projectId only people with an allocation on this project (null: no such narrowing); their weeks still
     *     count every allocation they have, since overbooking is about the person
     */
    ObjectNode report(WorkspaceTx tx, LocalDate from, LocalDate to, List<UUID> users, UUID projectId) {
        LocalDate start = (from != null ? from : LocalDate.now(ZoneOffset.UTC))
                .with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        LocalDate end = (to != null ? to : start.plusWeeks(DEFAULT_WEEKS).minusDays(1))
                .with(TemporalAdjusters.nextOrSame(DayOfWeek.SUNDAY));
        if (end.isBefore(start) || from != null && to != null && to.isBefore(from)) {
            throw badRange("to " + to + " is before from " + (from != null ? from : start) + "; it must be on or after it");
        }
        if (ChronoUnit.WEEKS.between(start, end.plusDays(1)) > MAX_WEEKS) {
            throw badRange("the range covers more than " + MAX_WEEKS + " ISO weeks; ask for a shorter one");
        }
        Set<UUID> people = new LinkedHashSet<>(users);
        if (projectId != null) {
            List<UUID> onProject = allocations.peopleOn(tx.handle(), tx.workspaceId(), projectId, start, end);
            if (people.isEmpty()) {
                people.addAll(onProject);
            } else {
                people.retainAll(onProject);
            }
            if (people.isEmpty()) {
                return report(start, end, Json.mapper().createArrayNode());
            }
        }
        List<ObjectNode> booked = allocations.overlapping(tx.handle(), tx.workspaceId(), List.copyOf(people), start,
                end);
        if (people.isEmpty()) {
            booked.forEach(a -> people.add(UUID.fromString(a.get("user_id").asText())));
        }
        List<UUID> ordered = people.stream().sorted().toList();
        Map<UUID, BigDecimal> weekly = capacities.weeklyHours(tx.handle(), tx.workspaceId(), ordered);
        ArrayNode report = Json.mapper().createArrayNode();
        for (UUID person : ordered) {
            BigDecimal hours = weekly.getOrDefault(person, DEFAULT_WEEKLY_HOURS);
            List<ObjectNode> own = booked.stream().filter(a -> a.get("user_id").asText().equals(person.toString()))
                    .toList();
            ObjectNode row = report.addObject();
            row.put("user_id", person.toString());
            row.put("weekly_hours", number(hours));
            ArrayNode weeks = row.putArray("weeks");
            for (LocalDate monday = start; monday.isBefore(end); monday = monday.plusWeeks(1)) {
                weeks.add(week(monday, hours, own));
            }
        }
        return report(start, end, report);
    }

    private static ObjectNode report(LocalDate start, LocalDate end, ArrayNode people) {
        ObjectNode report = Json.object();
        report.put("start_date", start.toString());
        report.put("end_date", end.toString());
        report.put("default_weekly_hours", number(DEFAULT_WEEKLY_HOURS));
        report.set("people", people);
        return report;
    }

    private static ObjectNode week(LocalDate monday, BigDecimal capacity, List<ObjectNode> own) {
        LocalDate friday = monday.plusDays(4);
        BigDecimal allocated = BigDecimal.ZERO;
        ObjectNode week = Json.object();
        week.put("week", "%d-W%02d".formatted(monday.get(IsoFields.WEEK_BASED_YEAR),
                monday.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR)));
        week.put("start_date", monday.toString());
        week.put("end_date", monday.plusDays(6).toString());
        ArrayNode ids = Json.mapper().createArrayNode();
        for (ObjectNode allocation : own) {
            LocalDate first = max(LocalDate.parse(allocation.get("start_date").asText()), monday);
            LocalDate last = min(LocalDate.parse(allocation.get("end_date").asText()), friday);
            if (last.isBefore(first)) {
                continue;
            }
            long days = ChronoUnit.DAYS.between(first, last) + 1;
            allocated = allocated.add(daily(allocation, capacity).multiply(BigDecimal.valueOf(days)));
            ids.add(allocation.get("id").asText());
        }
        allocated = allocated.setScale(2, RoundingMode.HALF_UP);
        week.put("capacity_hours", number(capacity));
        week.put("allocated_hours", number(allocated));
        week.put("available_hours", number(capacity.subtract(allocated)));
        week.put("overbooked", allocated.compareTo(capacity) > 0);
        week.set("allocation_ids", ids);
        return week;
    }

    /** The hours one allocation books on each working day. */
    private static BigDecimal daily(JsonNode allocation, BigDecimal weeklyHours) {
        JsonNode hours = allocation.get("hours_per_day");
        if (hours != null && !hours.isNull()) {
            return hours.decimalValue();
        }
        return weeklyHours.multiply(allocation.get("percentage").decimalValue())
                .divide(HUNDRED.multiply(WORKING_DAYS), 6, RoundingMode.HALF_UP);
    }

    /** A person of the workspace gets their own weekly hours; null returns them to the default. */
    ObjectNode setWeeklyHours(WorkspaceTx tx, UUID userId, JsonNode body) {
        if (!tx.isUser(userId)) {
            throw ApiProblem.notFound("Person");
        }
        JsonNode hours = body.get("weekly_hours");
        if (hours.isNull()) {
            capacities.clear(tx.handle(), tx.workspaceId(), userId);
        } else {
            capacities.set(tx.handle(), tx.workspaceId(), userId, hours.decimalValue());
        }
        ObjectNode result = Json.object();
        result.put("user_id", userId.toString());
        result.put("weekly_hours", number(hours.isNull() ? DEFAULT_WEEKLY_HOURS : hours.decimalValue()));
        result.put("default", hours.isNull());
        return result;
    }

    private static ApiProblem badRange(String message) {
        return new ApiProblem(400, "invalid_query", "Bad Request", message, List.of(new FieldError("?to", "range",
                message)), Map.of());
    }

    /** Hours to two decimals, as a plain JSON number (a BigDecimal could print as 4E+1). */
    private static double number(BigDecimal hours) {
        return hours.setScale(2, RoundingMode.HALF_UP).doubleValue();
    }

    private static LocalDate max(LocalDate a, LocalDate b) {
        return a.isAfter(b) ? a : b;
    }

    private static LocalDate min(LocalDate a, LocalDate b) {
        return a.isBefore(b) ? a : b;
    }
}
