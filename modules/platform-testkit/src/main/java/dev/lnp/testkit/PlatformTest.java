package dev.lnp.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Boots the platform once for the test class, on a database of its own, and injects a {@link TestPlatform}
 * into test methods, constructors and lifecycle methods.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(PlatformExtension.class)
public @interface PlatformTest {

    /** Ids of the plugins on the test class path to enable; empty means all of them. */
    String[] plugins() default {};

    /**
     * A folder of plugin jars to load with PF4J instead of the class path (relative to the working directory).
     */
    String pluginsDir() default "";

    /** Extra configuration, as {@code key=value}, e.g. {@code lnp.limits.rest_per_minute=5}. */
    String[] config() default {};
}
