package dev.lnp.distribution;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of docs/architecture.md's module table, enforced on the compiled classes of the whole build: a
 * module that uses a class of a module its row does not allow, or requires one in its module-info, fails the
 * build, and so does a cycle between packages anywhere.
 */
class ModuleTableIT {

    private static final Path ROOT = Path.of(System.getProperty("lnp.project.root", "..")).toAbsolutePath().normalize();
    private static ModuleDependencies build;
    private static ModuleTable table;

    @BeforeAll
    static void readTheBuild() throws IOException {
        build = ModuleDependencies.of(ROOT);
        table = ModuleTable.read(ROOT.resolve("docs/architecture.md"), build.modules);
    }

    @Test
    void everyModuleHasARow() {
        assertEquals(List.of(), build.withoutRow(table), "modules with classes but no row in docs/architecture.md");
    }

    @Test
    void everyModuleUsesOnlyWhatItsRowAllows() {
        List<String> forbidden = build.forbidden(table);
        assertTrue(forbidden.isEmpty(), forbidden.size() + " forbidden dependencies:\n" + String.join("\n", forbidden));
    }

    @Test
    void everyModuleInfoRequiresOnlyWhatItsRowAllows() throws IOException {
        assertEquals(List.of(), build.forbiddenRequires(table));
    }

    /** No cycle between packages, anywhere: a package never depends on itself through others. */
    @Test
    void noPackageDependsOnItselfThroughOthers() {
        slices().matching("dev.lnp.(**)").should().beFreeOfCycles()
                .check(build.classes);
    }

    /** The check itself: a table that forbids what the kernel does reports it, so a pass means something. */
    @Test
    void aDependencyTheTableForbidsIsReported() throws IOException {
        Path strict = Files.createTempFile("architecture", ".md");
        try {
            String document = Files.readString(ROOT.resolve("docs/architecture.md"));
            String row = document.lines().filter(l -> l.startsWith("| `platform-core`")).findFirst().orElseThrow();
            String forbidding = row.substring(0, row.lastIndexOf('|', row.length() - 2) + 1) + " nothing |";
            Files.writeString(strict, document.replace(row, forbidding));
            List<String> forbidden = build.forbidden(ModuleTable.read(strict, build.modules));
            assertFalse(forbidden.isEmpty());
            assertTrue(forbidden.stream().anyMatch(l -> l.startsWith("platform-core -> modules/platform-api: ")), forbidden::toString);
        } finally {
            Files.delete(strict);
        }
    }
}
