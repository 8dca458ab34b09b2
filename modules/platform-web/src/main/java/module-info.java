/**
 * The administration console, a subsystem of the kernel: sign-in by one-time link, sessions, CSRF, the pages and
 * their JSON twin under {@code /console}, plugin sections and pages for people, with its JTE templates and assets.
 * The kernel finds it through {@link dev.lnp.api.internal.subsystem.Subsystem}; left out of {@code lib/}, the
 * platform runs without a console.
 */
module lnp.platform.web {
    requires lnp.platform.api.internal;
    requires io.helidon.webserver;
    requires gg.jte.runtime;
    // Sign-in with the deployment's OpenID Connect provider. The SDK's jar names no module, so this is the name the
    // module path derives from its file name (the distribution keeps the Maven file names in lib/).
    requires oauth2.oidc.sdk;
    requires com.nimbusds.jose.jwt;

    provides dev.lnp.api.internal.subsystem.Subsystem with dev.lnp.web.console.WebSubsystem;

    // The testkit signs people in for tests of pages (TestPerson) with the console's own sessions.
    exports dev.lnp.web.console to lnp.platform.testkit;

    // The precompiled console templates are looked up and called by reflection from the JTE runtime: every package
    // that holds one (each template subfolder is a package of its own) is opened to it, or the template fails on the
    // module path of the release image only. TemplatePackagesAreOpenTest fails when one is missing.
    opens dev.lnp.web.console.view to gg.jte.runtime;
    opens dev.lnp.web.console.view.mail to gg.jte.runtime; // the HTML part of sign-in and invitation mail
    opens dev.lnp.web.console.text to gg.jte.runtime;
}
