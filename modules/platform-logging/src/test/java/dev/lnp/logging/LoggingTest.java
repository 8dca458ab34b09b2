package dev.lnp.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import org.junit.jupiter.api.Test;

class LoggingTest {

    @Test
    void theUsualLevelNamesAreTakenBesideJavaUtilLoggingsInAnyCase() {
        assertEquals(Level.FINE, Logging.level("debug"));
        assertEquals(Level.FINE, Logging.level("DEBUG"));
        assertEquals(Level.FINEST, Logging.level("Trace"));
        assertEquals(Level.WARNING, Logging.level("warn"));
        assertEquals(Level.SEVERE, Logging.level("ERROR"));
        assertEquals(Level.INFO, Logging.level(" info "));
        assertEquals(Level.FINER, Logging.level("finer"));
        assertEquals(Level.OFF, Logging.level("OFF"));
    }

    @Test
    void anythingElseIsRefusedNamingTheSettingAndTheLevels() {
        for (String bad : new String[] {"LOUD", "", "500", "verbose"}) {
            var refused = assertThrows(IllegalArgumentException.class, () -> Logging.level(bad));
            assertTrue(refused.getMessage().startsWith("lnp.log.level (LNP_LOG_LEVEL) is \"" + bad + "\""),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("DEBUG"), refused.getMessage());
        }
    }

    @Test
    void autoIsTextOnATerminalAndJsonOtherwiseAndEitherCanBeChosen() {
        assertEquals(LogFormat.TEXT, LogFormat.choose("auto", true));
        assertEquals(LogFormat.JSON, LogFormat.choose("auto", false));
        assertEquals(LogFormat.JSON, LogFormat.choose("json", true));
        assertEquals(LogFormat.JSON, LogFormat.choose(" JSON ", true));
        assertEquals(LogFormat.TEXT, LogFormat.choose("Text", false));
        assertTrue(LogFormat.TEXT.formatter() instanceof TextLogFormatter);
        assertTrue(LogFormat.JSON.formatter() instanceof JsonLogFormatter);
    }

    @Test
    void anotherFormatIsRefusedNamingTheSettingAndTheFormats() {
        var refused = assertThrows(IllegalArgumentException.class, () -> LogFormat.choose("xml", true));
        assertTrue(refused.getMessage().startsWith("lnp.log.format (LNP_LOG_FORMAT) is \"xml\""), refused.getMessage());
        assertTrue(refused.getMessage().contains("auto") && refused.getMessage().contains("json"), refused.getMessage());
    }

    @Test
    void terminalsArePseudoTerminalsAndConsolesNotFilesOrPipes() {
        assertTrue(Terminal.isTerminalDevice("/dev/pts/3"));
        assertTrue(Terminal.isTerminalDevice("/dev/tty1"));
        assertTrue(!Terminal.isTerminalDevice("pipe:[123456]"));
        assertTrue(!Terminal.isTerminalDevice("socket:[99]"));
        assertTrue(!Terminal.isTerminalDevice("/var/log/lnp.log"));
        assertTrue(!Terminal.isTerminalDevice("/dev/null"));
    }

    @Test
    void aTextLineHasTimeLevelShortLoggerAndMessage() {
        var record = new java.util.logging.LogRecord(Level.WARNING, "Pool {0} is small");
        record.setParameters(new Object[] {"lnp"});
        record.setLoggerName("dev.lnp.database.Database");
        record.setInstant(java.time.Instant.parse("2026-01-02T09:14:03.271Z"));
        String line = new TextLogFormatter(java.time.ZoneOffset.UTC).format(record);
        assertEquals("09:14:03.271 WARN  [Database] Pool lnp is small" + System.lineSeparator(), line);

        var failure = new java.util.logging.LogRecord(Level.SEVERE, "request failed");
        failure.setLoggerName("dev.lnp.core.http.ProblemStep");
        failure.setThrown(new IllegalStateException("broken"));
        String lines = new TextLogFormatter(java.time.ZoneOffset.UTC).format(failure);
        assertTrue(lines.contains(" ERROR [ProblemStep] request failed" + System.lineSeparator()
                + "java.lang.IllegalStateException: broken"), lines);
    }
}
