package dev.lnp.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RedirectUrisTest {

    @Test
    void httpsAnywhereAndHttpOnTheLoopbackInterfaceOnly() {
        for (String good : List.of("https://a.example/cb", "https://a.example:8443/cb?x=1", "http://localhost/cb",
                "http://127.0.0.1:5000/cb", "http://[::1]:5000/cb", "HTTP://LOCALHOST:1/cb")) {
            assertTrue(RedirectUris.problem(good).isEmpty(), good);
        }
        for (String bad : List.of("http://a.example/cb", "http://127.0.0.2/cb", "https://a.example/cb#f",
                "https://u:p@a.example/cb", "/cb", "cursor://callback", "javascript:alert(1)", "not a uri",
                "http://localhost.evil.example/cb")) {
            assertFalse(RedirectUris.problem(bad).isEmpty(), bad);
        }
    }

    @Test
    void aLoopbackRedirectMayChangeItsPortAndNothingElse() {
        assertTrue(RedirectUris.matches("http://127.0.0.1:5000/cb", "http://127.0.0.1:61234/cb"));
        assertTrue(RedirectUris.matches("http://localhost/cb", "http://localhost:9/cb"));
        assertFalse(RedirectUris.matches("http://127.0.0.1:5000/cb", "http://127.0.0.1:5000/other"));
        assertFalse(RedirectUris.matches("http://127.0.0.1:5000/cb", "http://localhost:5000/cb"));
        assertFalse(RedirectUris.matches("http://127.0.0.1:5000/cb", "http://127.0.0.1:5000/cb#x"));
        assertFalse(RedirectUris.matches("https://a.example/cb", "https://a.example:444/cb"));
        assertTrue(RedirectUris.matches("https://a.example/cb", "https://a.example/cb"));
    }

    @Test
    void theConsentPageShowsTheHostAndAnyPort() {
        assertEquals("a.example", RedirectUris.host("https://a.example/cb"));
        assertEquals("127.0.0.1:7777", RedirectUris.host("http://127.0.0.1:7777/cb"));
    }
}
