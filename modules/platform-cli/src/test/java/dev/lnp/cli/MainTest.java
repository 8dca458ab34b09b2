package dev.lnp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The operator command line itself: help, version, option descriptions, and output free of log noise. */
class MainTest {

    private record Run(int exit, String out, String err) {
    }

    private static synchronized Run run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        var outBytes = new ByteArrayOutputStream();
        var errBytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            int exit = Main.run(args);
            return new Run(exit, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    private static void collect(CommandLine command, List<CommandLine> all) {
        all.add(command);
        command.getSubcommands().values().forEach(sub -> collect(sub, all));
    }

    @Test
    void everyOptionOfEveryCommandHasADescription() {
        List<CommandLine> commands = new ArrayList<>();
        collect(Main.commandLine(), commands);
        List<String> bare = new ArrayList<>();
        for (CommandLine command : commands) {
            for (var option : command.getCommandSpec().options()) {
                if (String.join("", option.description()).isBlank()) {
                    bare.add(command.getCommandSpec().qualifiedName() + " " + option.longestName());
                }
            }
        }
        assertEquals(List.of(), bare, "options without a description in --help");
    }

    @Test
    void aCommandRunsWithOnlyItselfAddedAndHelpAndTyposStillSeeEveryCommand() {
        assertEquals(List.of("serve"), List.copyOf(Main.commandLine("serve", "--help").getSubcommands().keySet()));
        assertEquals(List.of("key"), List.copyOf(Main.commandLine("key", "list").getSubcommands().keySet()));
        int all = Main.commandLine().getSubcommands().size();
        assertEquals(all, Main.commandLine("help", "serve").getSubcommands().size());
        assertEquals(all, Main.commandLine("--help").getSubcommands().size());
        assertEquals(all, Main.commandLine("srve").getSubcommands().size());

        Run help = run("--help");
        assertEquals(0, help.exit(), help.err());
        for (String command : List.of("serve", "routes", "scopes", "workspace", "user", "key", "migrate", "doctor",
                "backup", "restore", "mail", "help")) {
            assertTrue(help.out().contains("  " + command + " "), command + " missing from:\n" + help.out());
        }
        Run serveHelp = run("serve", "--help");
        assertEquals(0, serveHelp.exit(), serveHelp.err());
        assertTrue(serveHelp.out().startsWith("Usage: platform serve"), serveHelp.out());
        Run typo = run("srve");
        assertEquals(2, typo.exit());
        assertTrue(typo.err().contains("srve"), typo.err());
    }

    @Test
    void plainServeSkipsPicocliOnlyWhileServeHasNoOptionOfItsOwn() {
        // Main runs `serve` without picocli: an option or parameter added to it would never be parsed (nor its
        // default applied) on that path. Adding one means Main.isPlainServe has to go.
        var spec = new CommandLine(new ServeCommand()).getCommandSpec();
        assertEquals(List.of(), spec.options().stream()
                .filter(option -> !option.usageHelp() && !option.versionHelp()).map(o -> o.longestName()).toList());
        assertEquals(List.of(), spec.positionalParameters());
        assertTrue(Main.isPlainServe("serve"));
        assertFalse(Main.isPlainServe("serve", "--help"));
        assertFalse(Main.isPlainServe("serve", "--version"));
        assertFalse(Main.isPlainServe("serve", "extra"));
        assertFalse(Main.isPlainServe());
        assertFalse(Main.isPlainServe("routes"));
    }

    @Test
    void versionIsTheBuildsVersion() throws Exception {
        Matcher version = Pattern.compile("<artifactId>lnp-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("../../pom.xml")));
        assertTrue(version.find());
        Run run = run("-V");
        assertEquals(0, run.exit(), run.err());
        assertEquals("lnp platform " + version.group(1), run.out().strip());
    }

    @Test
    void helpNamesACommandsSubcommands() {
        Run key = run("help", "key");
        assertEquals(0, key.exit(), key.err());
        assertTrue(key.out().contains("import-legacy") && key.out().contains("rotate"), key.out());
        Run create = run("help", "workspace");
        assertEquals(0, create.exit(), create.err());
        assertTrue(create.out().contains("create"), create.out());
    }

    @Test
    void everyCommandListShowsEachDescriptionInFull() {
        List<CommandLine> commands = new ArrayList<>();
        collect(Main.commandLine(), commands);
        List<String> cut = new ArrayList<>();
        for (CommandLine command : commands) {
            if (command.getSubcommands().isEmpty()) {
                continue;
            }
            List<String> args = new ArrayList<>(List.of("help"));
            String qualified = command.getCommandSpec().qualifiedName(" ");
            args.addAll(List.of(qualified.split(" ")).subList(1, qualified.split(" ").length));
            Run help = run(args.toArray(String[]::new));
            assertEquals(0, help.exit(), help.err());
            String listed = help.out().substring(help.out().indexOf("Commands:")).replaceAll("\\s+", " ");
            for (CommandLine sub : command.getSubcommands().values()) {
                String description = CommandListRenderer.description(sub.getCommandSpec().usageMessage());
                if (description.isEmpty() || !listed.contains(sub.getCommandName() + " " + description)) {
                    cut.add(sub.getCommandSpec().qualifiedName(" ") + ": " + description);
                }
            }
        }
        assertEquals(List.of(), cut, "descriptions not shown in full in their command list");
        Run top = run("help");
        assertTrue(top.out().replaceAll("\\s+", " ").contains("0 otherwise (warnings included). backup Write"),
                top.out());
        assertTrue(top.out().lines().allMatch(line -> line.length() <= 80), top.out());
    }

    /** In a JVM of their own: the JDK's console log handler writes to the stderr the process started with. */
    @Test
    void routesAndScopesPrintTheirTableFirst(@TempDir Path pluginsDir) throws Exception {
        String java = ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String path = System.getProperty("jdk.module.path", "");
        String classPath = System.getProperty("java.class.path", "");
        String all = String.join(File.pathSeparator, List.of(path, classPath).stream()
                .filter(p -> !p.isEmpty()).toList());
        for (String command : List.of("routes", "scopes")) {
            Process p = new ProcessBuilder(java, "-cp", all, "-Dlnp.plugins.dir=" + pluginsDir,
                    Main.class.getName(), command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.startsWith(command.equals("routes") ? "METHOD" : "SCOPE"), command + ":\n" + out);
            assertFalse(out.contains("INFO"), command + ":\n" + out);
        }
    }
}
