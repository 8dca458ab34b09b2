package dev.lnp.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FormFieldsTest {

    private static FormFields parse(String body) {
        return FormFields.parse(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void decodesValuesAndTreatsEmptyOnesAsAbsent() {
        FormFields form = parse("grant_type=authorization_code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&scope=a+b&state=");
        assertEquals(Optional.of("authorization_code"), form.get("grant_type"));
        assertEquals(Optional.of("http://127.0.0.1/cb"), form.get("redirect_uri"));
        assertEquals(Optional.of("a b"), form.get("scope"));
        assertTrue(form.get("state").isEmpty());
        assertTrue(form.get("code").isEmpty());
        assertTrue(form.repeated().isEmpty());
    }

    @Test
    void aRepeatedParameterIsReportedAndMalformedEscapesAreEmpty() {
        assertEquals(Optional.of("code"), parse("code=a&code=b").repeated());
        assertTrue(parse("code=%zz").get("code").isEmpty());
    }
}
