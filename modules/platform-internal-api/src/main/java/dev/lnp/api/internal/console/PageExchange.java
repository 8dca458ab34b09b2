package dev.lnp.api.internal.console;

import io.helidon.webserver.http.ServerRequest;
import java.util.List;
import java.util.Optional;

/** One request to a console page, with its session, form and answers in the console's layout and headers. */
public interface PageExchange {

    ServerRequest request();

    /** The query parameter's first value, or null. */
    String query(String name);

    /** The path parameter's value, or null. */
    String pathParam(String name);

    /** The signed-in session, if the cookie names a live one. */
    Optional<ConsoleSession> session();

    /** The session of a person who chose a workspace; otherwise a redirect to sign in or choose one is answered. */
    ConsoleSession requireWorkspaceSession();

    /** The posted form's first value for {@code name}, or null; a body that is not a form is a {@link BadForm}. */
    String form(String name);

    List<String> formValues(String name);

    /**
     * Refuses (403 page) a state change that did not come from the console's own origin with the CSRF token of the
     * session that rendered its form.
     */
    void checkPost(String expectedToken);

    /** Answers {@code status} with the console's template {@code template} rendered from {@code model}. */
    void render(int status, String template, Object model);

    /** A page whose body {@code bodyHtml} another module rendered (a subsystem's templates), in the console's layout. */
    void renderPage(int status, Chrome chrome, String bodyHtml);

    /** Answers 303 to {@code path}. */
    void redirect(String path);

    /** A form that cannot be read at all: answered 400 with a readable page. */
    final class BadForm extends RuntimeException {
        public BadForm(String message) {
            super(message, null, false, false);
        }
    }
}
