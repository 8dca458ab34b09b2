// Drives a running platform with the official MCP TypeScript SDK client over Streamable HTTP, with a bearer key:
// initialize, list every tool (all pages), call a write tool and a read tool, and see a denied tool absent and
// refused. Run by run.sh; exits non-zero with a message naming the failed step.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = process.env.MCP_URL;
const key = process.env.MCP_KEY;
if (!url || !key) {
  console.error("[mcp-ts-check] MCP_URL and MCP_KEY must be set");
  process.exit(2);
}

let step = "connect";
function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

const client = new Client({ name: "lnp-ci-typescript-check", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});

try {
  await client.connect(transport);
  const server = client.getServerVersion();
  check(server?.name === "lnp-platform", `unexpected server ${JSON.stringify(server)}`);
  console.log(`[mcp-ts-check] connected to ${server.name} ${server.version}, protocol ${transport.protocolVersion}`);

  step = "tools/list";
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  const names = tools.map((t) => t.name);
  console.log(`[mcp-ts-check] ${names.length} tools: ${names.join(", ")}`);
  check(names.includes("projects_create") && names.includes("projects_list"), "projects tools are missing");
  check(!names.includes("crm_create_contact"), "crm_create_contact is listed although the key lacks contacts.write");
  const list = tools.find((t) => t.name === "projects_list");
  check(list.annotations?.readOnlyHint === true, "projects_list is not annotated read-only");
  check(tools.find((t) => t.name === "projects_delete").annotations?.destructiveHint === true,
    "projects_delete is not annotated destructive");

  step = "tools/call projects_create (write)";
  const created = await client.callTool({ name: "projects_create", arguments: { name: "From the TypeScript SDK" } });
  check(!created.isError, `the call failed: ${JSON.stringify(created)}`);
  check(created.structuredContent?.name === "From the TypeScript SDK", `unexpected result ${JSON.stringify(created)}`);
  check(created.content?.[0]?.type === "text", "no text block");

  step = "tools/call projects_list (read)";
  const listed = await client.callTool({ name: "projects_list", arguments: {} });
  check(!listed.isError, `the call failed: ${JSON.stringify(listed)}`);
  const ids = (listed.structuredContent?.items ?? []).map((p) => p.id);
  check(ids.includes(created.structuredContent.id), `the created project is not listed: ${JSON.stringify(listed)}`);

  step = "tools/call crm_create_contact (denied)";
  let refused = false;
  try {
    const denied = await client.callTool({ name: "crm_create_contact", arguments: { email: "no@example.com" } });
    refused = denied.isError === true;
  } catch (e) {
    refused = e?.code === -32010;
    if (!refused) {
      throw e;
    }
  }
  check(refused, "the denied tool was not refused");

  console.log("[mcp-ts-check] OK: listed tools, called a write and a read tool, the denied tool was refused");
  await client.close();
} catch (e) {
  console.error(`[mcp-ts-check] FAILED at ${step}: ${e?.stack ?? e}`);
  await client.close().catch(() => {});
  process.exit(1);
}
