package dev.lnp.api.http;

/**
 * One broken rule of a request.
 *
 * @param pointer JSON pointer of the field in the body (e.g. {@code /tags/3}), or the query parameter name
 *                prefixed with {@code ?} (e.g. {@code ?limit})
 * @param rule a stable rule keyword (e.g. {@code maxLength}, {@code enum}, {@code required}, {@code unknown})
 * @param message what is wrong, for a person
 */
public record FieldError(String pointer, String rule, String message) {
}
