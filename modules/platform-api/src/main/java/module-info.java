/**
 * The plugin SPI: everything a plugin may see of the platform.
 * Jackson and Jdbi are re-exported because handlers read JSON bodies and run SQL on the
 * request's transaction; the platform provides both at run time.
 */
module lnp.platform.api {
    requires transitive com.fasterxml.jackson.databind;
    requires transitive org.jdbi.v3.core;
    requires transitive java.sql;
    requires transitive com.fasterxml.jackson.datatype.jsr310;

    exports dev.lnp.api;
    exports dev.lnp.api.http;
    exports dev.lnp.api.mcp;
    exports dev.lnp.api.events;
    exports dev.lnp.api.sql;
    exports dev.lnp.api.mail;
    exports dev.lnp.api.workspace;
    exports dev.lnp.api.crm;
    exports dev.lnp.api.outbound;

    uses dev.lnp.api.sql.RowCodec; // lnp.platform.json's implementation behind JsonRows and Column
    uses dev.lnp.api.http.JsonSchemaRules; // and behind JsonSchemas, QueryParam.fromSchema and Json.sourceOf

    opens dev.lnp.api.http to com.fasterxml.jackson.databind;
    opens dev.lnp.api.mcp to com.fasterxml.jackson.databind;
    opens dev.lnp.api.events to com.fasterxml.jackson.databind;
}
