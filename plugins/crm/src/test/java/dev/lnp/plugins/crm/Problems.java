package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;

/** Assertions on problem+json answers and on tool problems. */
final class Problems {

    private Problems() {
    }

    /** The answer is {@code status} and one of its errors names {@code pointer}; returns that error. */
    static JsonNode assertNames(TestResponse response, int status, String pointer) {
        assertEquals(status, response.status(), response.body());
        assertTrue(response.header("Content-Type").orElse("").startsWith("application/problem+json"),
                response.body());
        List<String> pointers = new ArrayList<>();
        for (JsonNode error : response.json().path("errors")) {
            pointers.add(error.path("pointer").asText());
            if (error.path("pointer").asText().equals(pointer)) {
                return error;
            }
        }
        throw new AssertionError("no error names " + pointer + " (only " + pointers + "): " + response.body());
    }

    static void assertNames(ApiProblem problem, int status, String pointer) {
        assertEquals(status, problem.status(), problem.getMessage());
        assertTrue(problem.errors().stream().anyMatch(e -> e.pointer().equals(pointer)),
                "no error names " + pointer + ": " + problem.errors());
    }

    static String repeat(char c, int n) {
        return String.valueOf(c).repeat(n);
    }
}
