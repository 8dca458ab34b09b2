package dev.lnp.cli;

import dev.lnp.core.Version;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;

/** {@code bin/platform}: the server and the operator commands. */
@Command(name = "platform", mixinStandardHelpOptions = true, versionProvider = Main.BuildVersion.class,
        description = "The LNP workspace platform.")
public final class Main {

    /** Every command, in the order {@code --help} lists them. */
    private static final List<Class<?>> COMMANDS = List.of(ServeCommand.class, RoutesCommand.class,
            ScopesCommand.class, WorkspaceCommand.class, UserCommand.class, KeyCommand.class, MigrateCommand.class, DoctorCommand.class,
            BackupCommands.Backup.class, BackupCommands.Restore.class, MailCommand.class, HelpCommand.class);

    /** The version the build wrote into the platform's version file (the Maven project version). */
    static final class BuildVersion implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"lnp platform " + Version.current()};
        }
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        if (isPlainServe(args)) {
            // The server's own start: picocli's classes (about 170, left out of the AOT cache because their class
            // files are too old to be linked ahead of time) and its reflection over the command cost a tenth of a
            // second of every restart, to parse one word. Same exit code and error line as through picocli.
            try {
                return new ServeCommand().call();
            } catch (RuntimeException e) {
                System.err.println(errorLine(e));
                return 1;
            }
        }
        CommandLine cli = commandLine(args);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(errorLine(e));
            return 1;
        });
        cli.setParameterExceptionHandler((e, arguments) -> {
            e.getCommandLine().getErr().println("error: " + e.getMessage().lines().findFirst().orElse("")
                    + " (see --help)");
            return 2;
        });
        return cli.execute(args);
    }

    /**
     * {@code serve} and nothing else: run without picocli. Only sound while {@code serve} takes no option or
     * parameter besides help and version (MainTest checks that it declares none).
     */
    static boolean isPlainServe(String... args) {
        return args.length == 1 && args[0].equals("serve");
    }

    private static String errorLine(Exception e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        return "error: " + message.lines().findFirst().orElse(message);
    }

    /**
     * The command line for these arguments. picocli builds a command's model by reflection when the command is
     * added, which for all of them took about a quarter of a second of every start; so when the first argument
     * names a command, only that one is added. Anything else (no command, an option, {@code help}, a typo) gets
     * them all, for the listing and the error messages.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new Main());
        List<Class<?>> needed = args.length == 0 ? COMMANDS : COMMANDS.stream()
                .filter(command -> command != HelpCommand.class && names(command).contains(args[0]))
                .findFirst().map(List::<Class<?>>of).orElse(COMMANDS);
        needed.forEach(cli::addSubcommand);
        CommandListRenderer.install(cli);
        return cli;
    }

    private static List<String> names(Class<?> command) {
        Command declared = command.getAnnotation(Command.class);
        List<String> names = new java.util.ArrayList<>(List.of(declared.aliases()));
        names.add(declared.name());
        return names;
    }
}
