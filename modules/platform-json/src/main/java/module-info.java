/**
 * The platform's JSON library, a layer below the kernel: the implementation of the API's {@code JsonRows} and
 * {@code Column} codec (list pages written from a result set straight into JSON), the schema derivations behind
 * {@code JsonSchemas}, {@code QueryParam.fromSchema} and {@code Json.sourceOf}, and JSON Schema validation of request
 * bodies and tool arguments. Depends on the two API modules and its libraries only; the kernel requires it.
 */
module lnp.platform.json {
    requires lnp.platform.api;
    requires lnp.platform.api.internal; // JsonValidation, which PlatformJsonValidation implements
    requires com.networknt.schema;

    // The validator of the request pipeline and of tool arguments, and the JsonValidation service on it.
    exports dev.lnp.json.validation;

    // Rows and columns as plugins read, bind and write them, and schemas as they derive them: the API finds these
    // with ServiceLoader, so their packages stay unexported.
    provides dev.lnp.api.sql.RowCodec with dev.lnp.json.rows.PlatformRowCodec;
    provides dev.lnp.api.http.JsonSchemaRules with dev.lnp.json.schemas.PlatformJsonSchemaRules;
}
