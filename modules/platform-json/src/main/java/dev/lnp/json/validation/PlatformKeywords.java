package dev.lnp.json.validation;

import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.keyword.NonValidationKeyword;
import java.util.List;

/**
 * The platform's own JSON Schema keywords, known to the validator so that it neither warns about them ("Unknown
 * keyword … you should define your own Meta Schema") nor validates anything with them: they carry words for
 * people, not rules.
 * <ul>
 * <li>{@code x-unknown-field-hints}: per field name a sentence explaining a field that is refused as unknown
 * ({@link BodyValidator});</li>
 * <li>{@code x-pattern-hint}: the words a console form shows when a value does not match {@code pattern};</li>
 * <li>{@code x-input}: the input a form shows for a string ({@code text}, {@code textarea}, {@code url},
 * {@code email}) where the one its format and length suggest is wrong;</li>
 * <li>{@code x-enum-labels}: per coded value of an {@code enum} the words pages show for it.</li>
 * </ul>
 * A new keyword goes here, or the validator warns about it once per schema at start-up.
 */
final class PlatformKeywords {

    static final String UNKNOWN_FIELD_HINTS = "x-unknown-field-hints";
    static final String PATTERN_HINT = "x-pattern-hint";
    static final String INPUT = "x-input";
    static final String ENUM_LABELS = "x-enum-labels";
    static final List<String> ALL = List.of(UNKNOWN_FIELD_HINTS, PATTERN_HINT, INPUT, ENUM_LABELS);

    private PlatformKeywords() {
    }

    static Dialect.Builder register(Dialect.Builder dialect) {
        for (String keyword : ALL) {
            dialect.keyword(new NonValidationKeyword(keyword));
        }
        return dialect;
    }
}
