package dev.lnp.json.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The platform's own schema keywords are known to the validator: compiling a schema that uses them logs nothing
 * (the library warned "Unknown keyword … you should define your own Meta Schema" once per schema at every start),
 * and they change nothing about what is valid.
 */
class PlatformKeywordsTest {

    @Test
    void schemasWithThePlatformsKeywordsCompileWithoutAWarningAndValidateAsWithout() throws Exception {
        JsonNode schema = new ObjectMapper().readTree("""
                {"type": "object", "additionalProperties": false,
                 "x-unknown-field-hints": {"company": "Use company_id."},
                 "properties": {"code": {"type": "string", "pattern": "^[A-Z]+$",
                                         "x-pattern-hint": "capital letters only"}}}
                """);
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                    logged.add(record.getLoggerName() + ": " + record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger library = Logger.getLogger("com.networknt");
        library.addHandler(capture);
        try {
            BodyValidator validator = BodyValidator.compile("platform-keywords-test", schema);
            assertEquals(List.of(), logged);
            ObjectMapper json = new ObjectMapper();
            assertEquals(List.of(), validator.validate(json.readTree("{\"code\": \"ABC\"}")));
            assertTrue(!validator.validate(json.readTree("{\"code\": \"abc\"}")).isEmpty(), "the pattern still holds");
            assertTrue(!validator.validate(json.readTree("{\"company\": \"x\"}")).isEmpty(),
                    "an unknown field is still refused");
        } finally {
            library.removeHandler(capture);
        }
    }
}
