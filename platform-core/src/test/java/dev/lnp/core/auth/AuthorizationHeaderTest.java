package dev.lnp.core.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.http.ApiProblem;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code Authorization: Bearer <key>} parsing and the 401 challenges. */
class AuthorizationHeaderTest {

    private static final String KEY = ApiKeys.generate();

    @ParameterizedTest
    @ValueSource(strings = {"Bearer %s", "bearer %s", "BEARER %s", "  Bearer   %s  "})
    void aBearerKeyIsRead(String header) {
        assertEquals(KEY, AuthorizationHeader.bearerKey(List.of(header.formatted(KEY))));
    }

    @Test
    void aLegacyKeyShapeIsRead() {
        String legacy = "wks_" + "a".repeat(30);
        assertEquals(legacy, AuthorizationHeader.bearerKey(List.of("Bearer " + legacy)));
    }

    @Test
    void noHeaderIsMissingCredentials() {
        ApiProblem problem = assertThrows(ApiProblem.class, () -> AuthorizationHeader.bearerKey(List.of()));
        assertEquals(401, problem.status());
        assertEquals("missing_credentials", problem.code());
        assertEquals("Bearer realm=\"lnp\"", problem.headers().get("WWW-Authenticate"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Bearer|must be 'Bearer <key>'", "Bearer |must be 'Bearer <key>'",
            "Basic dXNlcjpwYXNz|not Basic", "Token %s|not Token",
            "Bearer Bearer %s|exactly one 'Bearer' and one key", "Bearer %s %s|exactly one 'Bearer' and one key",
            "Bearer \"%s\"|must not be quoted", "Bearer '%s'|must not be quoted", "Bearer %s\"|must not be quoted",
            "Bearer '%s|must not be quoted"})
    void malformedHeadersAreInvalidRequests(String header, String detail) {
        ApiProblem problem = assertThrows(ApiProblem.class,
                () -> AuthorizationHeader.bearerKey(List.of(header.replace("%s", KEY))));
        assertEquals(401, problem.status());
        assertEquals("malformed_authorization", problem.code());
        assertTrue(problem.detail().contains(detail), problem.detail());
        assertEquals("Bearer realm=\"lnp\", error=\"invalid_request\"", problem.headers().get("WWW-Authenticate"));
    }

    @Test
    void twoHeadersAreRefused() {
        ApiProblem problem = assertThrows(ApiProblem.class,
                () -> AuthorizationHeader.bearerKey(List.of("Bearer " + KEY, "Bearer " + KEY)));
        assertEquals("malformed_authorization", problem.code());
        assertEquals("Send exactly one Authorization header.", problem.detail());
    }

    @ParameterizedTest
    @ValueSource(strings = {"lnp_short", "xyz_aaaaaaaaaaaaaaaaaaaaaaaaa", "lnp_aaaaaaaaaaaaaaaaaaaa%", "lnp_aaaaaaaaaaaaaaaaé"})
    void aTokenNotShapedLikeAKeyIsAnInvalidToken(String token) {
        ApiProblem problem = assertThrows(ApiProblem.class,
                () -> AuthorizationHeader.bearerKey(List.of("Bearer " + token)));
        assertEquals("invalid_key", problem.code());
        assertEquals("Bearer realm=\"lnp\", error=\"invalid_token\", error_description=\"The key is not valid.\"",
                problem.headers().get("WWW-Authenticate"));
    }

    @Test
    void eachTokenProblemHasItsCodeAndDescription() {
        assertEquals("expired_key", AuthorizationHeader.Unauthorized.expired().code());
        assertEquals("revoked_key", AuthorizationHeader.Unauthorized.revoked().code());
        ApiProblem retired = AuthorizationHeader.Unauthorized.legacyRetired();
        assertEquals("legacy_key_retired", retired.code());
        assertEquals(401, retired.status());
        assertTrue(retired.headers().get("WWW-Authenticate").contains("error=\"invalid_token\""));
        assertTrue(retired.headers().get("WWW-Authenticate").contains("error_description=\"Legacy wks_ keys"));
    }
}
