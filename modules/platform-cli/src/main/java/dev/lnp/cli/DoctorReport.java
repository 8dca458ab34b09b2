package dev.lnp.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** The doctor's lines: {@code ok}, {@code WARN} and {@code FAIL} with what to fix; it remembers the failures. */
final class DoctorReport implements dev.lnp.api.internal.subsystem.DoctorCheck.Report {

    private final PrintStream out;
    private final List<String> failures = new ArrayList<>();

    DoctorReport(PrintStream out) {
        this.out = out;
    }

    @Override
    public void ok(String check, String text) {
        out.println("ok    " + check + ": " + text);
    }

    @Override
    public void warn(String check, String text) {
        out.println("WARN  " + check + ": " + text);
    }

    @Override
    public void fail(String check, String text, String fix) {
        failures.add(check);
        out.println("FAIL  " + check + ": " + text + " -> " + fix);
    }

    List<String> failures() {
        return List.copyOf(failures);
    }
}
