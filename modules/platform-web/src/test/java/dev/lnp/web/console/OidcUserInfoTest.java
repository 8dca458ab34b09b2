package dev.lnp.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.oauth2.sdk.id.Subject;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The userinfo request over real HTTP, against an endpoint that answers as a provider might: the claims for the
 * person the ID token names, and each answer that must not sign anyone in. (A whole sign-in that reads its claims
 * from userinfo, against Keycloak: OidcKeycloakTest.)
 */
class OidcUserInfoTest {

    private static final String TOKEN = "access-token-of-this-sign-in";
    private static final Subject ADA = new Subject("ada-subject");

    private HttpServer server;
    private final AtomicReference<Answer> answer = new AtomicReference<>();

    private record Answer(int status, String contentType, String body, String wwwAuthenticate) {
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/userinfo", exchange -> {
            Answer a = answer.get();
            // The access token is the only credential: without it, the endpoint refuses as a provider does.
            if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                a = new Answer(401, "text/plain", "", "Bearer error=\"invalid_request\"");
            }
            if (a.wwwAuthenticate() != null) {
                exchange.getResponseHeaders().add("WWW-Authenticate", a.wwwAuthenticate());
            }
            exchange.getResponseHeaders().add("Content-Type", a.contentType());
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/userinfo");
    }

    private void answers(int status, String contentType, String body) {
        answer.set(new Answer(status, contentType, body, null));
    }

    @Test
    void theClaimsOfThePersonTheIdTokenNamesAreRead() throws Exception {
        answers(200, "application/json", """
                {"sub":"ada-subject","email":"ada@acme.example","email_verified":true,"groups":["lnp-admins"]}""");
        var info = OidcUserInfo.fetch(endpoint(), new BearerAccessToken(TOKEN), ADA, 2_000);
        assertEquals("ada@acme.example", info.getStringClaim("email"));
        assertEquals(Boolean.TRUE, info.getBooleanClaim("email_verified"));
        assertEquals(List.of("lnp-admins"), info.getStringListClaim("groups"));
    }

    @Test
    void anAnswerForAnotherPersonIsRefused() {
        answers(200, "application/json", """
                {"sub":"eve-subject","email":"ada@acme.example","email_verified":true}""");
        var refused = assertThrows(OidcProvider.Rejected.class,
                () -> OidcUserInfo.fetch(endpoint(), new BearerAccessToken(TOKEN), ADA, 2_000));
        assertTrue(refused.getMessage().contains("answered for another person (sub eve-subject, the ID token's is "
                + "ada-subject)"), refused.getMessage());
    }

    @Test
    void aRefusedAccessTokenIsNamed() {
        answer.set(new Answer(401, "text/plain", "", "Bearer error=\"invalid_token\", "
                + "error_description=\"Token verification failed\""));
        var refused = assertThrows(OidcProvider.Rejected.class,
                () -> OidcUserInfo.fetch(endpoint(), new BearerAccessToken(TOKEN), ADA, 2_000));
        assertTrue(refused.getMessage().contains("refused the access token (invalid_token: Token verification "
                + "failed)"), refused.getMessage());
        var noToken = assertThrows(OidcProvider.Rejected.class,
                () -> OidcUserInfo.fetch(endpoint(), new BearerAccessToken("another-token"), ADA, 2_000));
        assertTrue(noToken.getMessage().contains("refused the access token (invalid_request"), noToken.getMessage());
    }

    @Test
    void aSignedAnswerIsRefusedSayingHowToConfigureTheClient() {
        // The shape of a signed userinfo answer (header.payload.signature), which this platform does not verify.
        answers(200, "application/jwt", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEtc3ViamVjdCJ9.c2lnbmF0dXJl");
        var refused = assertThrows(OidcProvider.Rejected.class,
                () -> OidcUserInfo.fetch(endpoint(), new BearerAccessToken(TOKEN), ADA, 2_000));
        assertTrue(refused.getMessage().contains("signed or encrypted JWT"), refused.getMessage());
    }

    @Test
    void anUnreadableAnswerIsRefused() {
        answers(200, "application/json", "{\"email\": \"no subject\"}");
        var refused = assertThrows(OidcProvider.Rejected.class,
                () -> OidcUserInfo.fetch(endpoint(), new BearerAccessToken(TOKEN), ADA, 2_000));
        assertTrue(refused.getMessage().contains("answer could not be read"), refused.getMessage());
    }

    @Test
    void anEndpointThatCannotBeReachedIsUnavailableNotRefused() throws IOException {
        int closed;
        try (var socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        var down = assertThrows(OidcProvider.Unavailable.class, () -> OidcUserInfo.fetch(
                URI.create("http://127.0.0.1:" + closed + "/userinfo"), new BearerAccessToken(TOKEN), ADA, 2_000));
        assertTrue(down.getMessage().contains("its userinfo endpoint could not be reached"), down.getMessage());
    }
}
