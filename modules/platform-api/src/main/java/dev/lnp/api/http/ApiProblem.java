package dev.lnp.api.http;

import java.util.List;
import java.util.Map;

/**
 * An error a handler (or the platform) answers with; written as {@code application/problem+json} (RFC 9457).
 *
 * @param code a stable machine code, e.g. {@code not_found}, {@code invalid_transition}
 */
public class ApiProblem extends RuntimeException {

    /**
     * At most this many field errors are kept and answered; the rest are only counted ({@link #omittedErrors()}),
     * so that a body of many bad values cannot make the answer many times larger than itself.
     */
    public static final int MAX_LISTED_ERRORS = 100;

    /** Where every problem's {@code type} URI starts; the code follows with {@code -} for {@code _}. */
    public static final String TYPE_BASE = "https://lnp.dev/problems/";

    private final int status;
    private final String code;
    private final String title;
    private final List<FieldError> errors;
    private final int omittedErrors;
    private final Map<String, String> headers;

    public ApiProblem(int status, String code, String title, String detail, List<FieldError> errors,
            Map<String, String> headers) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.title = title;
        this.errors = List.copyOf(errors.size() > MAX_LISTED_ERRORS ? errors.subList(0, MAX_LISTED_ERRORS) : errors);
        this.omittedErrors = errors.size() - this.errors.size();
        this.headers = Map.copyOf(headers);
    }

    public ApiProblem(int status, String code, String title, String detail) {
        this(status, code, title, detail, List.of(), Map.of());
    }

    public static ApiProblem notFound(String what) {
        return new ApiProblem(404, "not_found", "Not Found", what + " was not found in this workspace.");
    }

    public static ApiProblem conflict(String code, String detail) {
        return new ApiProblem(409, code, "Conflict", detail);
    }

    public static ApiProblem invalid(String detail, List<FieldError> errors) {
        return new ApiProblem(422, "validation_failed", "Unprocessable Content", detail, errors, Map.of());
    }

    /** A single invalid field, when a rule can only be checked by the handler (e.g. a referenced id). */
    public static ApiProblem invalidField(String pointer, String rule, String message) {
        return invalid(message, List.of(new FieldError(pointer, rule, message)));
    }

    public static ApiProblem badRequest(String code, String detail) {
        return new ApiProblem(400, code, "Bad Request", detail);
    }

    /** The {@code type} URI of problems with this code, e.g. {@code https://lnp.dev/problems/not-found}. */
    public static String typeOf(String code) {
        return TYPE_BASE + code.replace('_', '-');
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return getMessage();
    }

    public List<FieldError> errors() {
        return errors;
    }

    /** How many field errors were found beyond the {@link #MAX_LISTED_ERRORS} listed in {@link #errors()}. */
    public int omittedErrors() {
        return omittedErrors;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
