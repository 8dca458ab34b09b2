package dev.lnp.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The query-string rules of every route, without a server. */
class QueryValidatorTest {

    private static final QueryValidator LIST = new QueryValidator(RouteSpec.get("/api/v1/things").scope("x.read")
            .paginated()
            .query(QueryParam.string("q", "text"), QueryParam.uuid("owner", "an id"),
                    QueryParam.number("min", "a number"), QueryParam.bool("open", "a flag"),
                    QueryParam.oneOf("kind", List.of("a", "b"), "a kind").asRepeatable(),
                    new QueryParam("since", QueryParam.Type.DATE, false, List.of(), "a date"),
                    new QueryParam("n", QueryParam.Type.INTEGER, false, List.of(), "a count"))
            .handler(r -> ApiResponse.of(Map.of())));

    private static final QueryValidator PLAIN = new QueryValidator(RouteSpec.get("/api/v1/thing").scope("x.read")
            .handler(r -> ApiResponse.of(Map.of())));

    private static Map<String, List<String>> query(String... pairs) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            query.computeIfAbsent(pair.substring(0, eq), k -> new java.util.ArrayList<>()).add(pair.substring(eq + 1));
        }
        return query;
    }

    private static ApiProblem refused(QueryValidator validator, String... pairs) {
        return assertThrows(ApiProblem.class, () -> validator.validate(query(pairs)));
    }

    @Test
    void defaultsAndBoundsOfPaging() {
        assertEquals(new PageRequest(1, PageRequest.DEFAULT_LIMIT), LIST.validate(query()));
        assertEquals(new PageRequest(3, 1), LIST.validate(query("page=3", "limit=1")));
        assertEquals(new PageRequest(1, 100), LIST.validate(query("limit=100")));
        assertEquals(new PageRequest(999_999_999, 50), LIST.validate(query("page=999999999")));
        assertNull(PLAIN.validate(query()), "an unpaginated route has no page request");
    }

    @ParameterizedTest
    @CsvSource({"limit=0,?limit,range", "limit=101,?limit,range", "page=0,?page,minimum", "page=-1,?page,minimum",
            "limit=1.5,?limit,integer", "page=1e3,?page,integer", "page=9999999999,?page,integer",
            "page=,?page,integer"})
    void pagingOutOfBoundsIsInvalidQuery(String pair, String pointer, String rule) {
        ApiProblem problem = refused(LIST, pair);
        assertEquals(400, problem.status());
        assertEquals("invalid_query", problem.code());
        assertEquals(pointer, problem.errors().get(0).pointer());
        assertEquals(rule, problem.errors().get(0).rule());
        assertTrue(problem.detail().contains(pointer.substring(1)), problem.detail());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "owner=123|?owner|owner must be a UUID",
            "owner=0000000-0000-0000-0000-000000000000a|?owner|owner must be a UUID",
            "min=abc|?min|min must be a number", "min=NaN|?min|min must be a number",
            "min=Infinity|?min|min must be a number", "min=1e999|?min|min must be a number",
            "min=0x10|?min|min must be a number", "min=1.|?min|min must be a number",
            "open=yes|?open|open must be true or false", "open=TRUE|?open|open must be true or false",
            "kind=c|?kind|kind must be one of a, b", "since=2026-02-30|?since|since must be a date (YYYY-MM-DD)",
            "since=yesterday|?since|since must be a date (YYYY-MM-DD)", "n=12a|?n|n must be a whole number",
            "q=a\u0000b|?q|q must not contain a NUL character"})
    void eachTypeRefusesWhatIsNotOfIt(String pair, String pointer, String message) {
        ApiProblem problem = refused(LIST, pair);
        assertEquals("invalid_query", problem.code());
        assertEquals(pointer, problem.errors().get(0).pointer());
        assertEquals(message, problem.errors().get(0).message());
    }

    @Test
    void eachTypeAcceptsWhatIsOfIt() {
        assertEquals(new PageRequest(1, 50), LIST.validate(query("owner=" + java.util.UUID.randomUUID(), "min=-1.25e3",
                "open=false", "kind=a", "kind=b", "since=2024-02-29", "n=-123456789",
                "q=" + "x".repeat(500))));
    }

    @Test
    void theStringCapIs500Characters() {
        ApiProblem problem = refused(LIST, "q=" + "x".repeat(501));
        assertEquals("q is longer than 500 characters", problem.errors().get(0).message());
    }

    @Test
    void unknownParametersAreTheirOwnCodeAndListWhatIsAccepted() {
        ApiProblem problem = refused(LIST, "sort=name", "per_page=5");
        assertEquals(400, problem.status());
        assertEquals("unknown_query_parameter", problem.code());
        assertEquals(List.of("?per_page", "?sort"), problem.errors().stream().map(e -> e.pointer()).toList());
        assertEquals("unknown", problem.errors().get(0).rule());
        assertTrue(problem.errors().get(0).message().contains("q, owner, min, open, kind, since, n, page, limit"),
                problem.errors().get(0).message());
        ApiProblem none = refused(PLAIN, "page=1");
        assertTrue(none.errors().get(0).message().endsWith("this route accepts none"), none.errors().get(0).message());
    }

    @Test
    void aNonRepeatableParameterGivenTwiceIsRefusedAndARepeatableOneIsNot() {
        ApiProblem problem = refused(LIST, "open=true", "open=false");
        assertEquals("repeat", problem.errors().get(0).rule());
        assertEquals("?open", problem.errors().get(0).pointer());
        assertEquals(new PageRequest(1, 50), LIST.validate(query("kind=a", "kind=a")));
    }

    @Test
    void everyBadParameterIsNamedOnce() {
        ApiProblem problem = refused(LIST, "owner=1", "min=x", "open=1");
        assertEquals(3, problem.errors().size());
        assertEquals("Invalid query parameter(s): owner, min, open.", problem.detail());
    }
}
