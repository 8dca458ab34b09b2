// Drives a running platform with the official MCP TypeScript SDK v2 client (@modelcontextprotocol/client) over
// Streamable HTTP at protocol 2026-07-28, the stateless revision: the client negotiates on its own ("auto"), must
// land on 2026-07-28, then lists every tool (with the revision's caching hints), calls a write tool and a read
// tool, and sees a denied tool absent and refused. Run by run.sh; exits non-zero naming the failed step.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const url = process.env.MCP_URL;
const key = process.env.MCP_KEY;
if (!url || !key) {
  console.error("[mcp-ts-check 2026] MCP_URL and MCP_KEY must be set");
  process.exit(2);
}

let step = "connect";
function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

const client = new Client({ name: "lnp-ci-typescript-check-2026", version: "1.0.0" },
  { versionNegotiation: { mode: "auto" } });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});

try {
  await client.connect(transport);
  check(transport.protocolVersion === "2026-07-28",
    `the client negotiated ${transport.protocolVersion}, not 2026-07-28`);
  console.log(`[mcp-ts-check 2026] connected, protocol ${transport.protocolVersion}`);

  step = "tools/list";
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    check(page.cacheScope === "private" && page.ttlMs >= 0,
      `a page lacks the caching hints: ttlMs ${page.ttlMs}, cacheScope ${page.cacheScope}`);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  const names = tools.map((t) => t.name);
  console.log(`[mcp-ts-check 2026] ${names.length} tools: ${names.join(", ")}`);
  check(names.includes("projects_create") && names.includes("projects_list"), "projects tools are missing");
  check(!names.includes("crm_create_contact"), "crm_create_contact is listed although the key lacks contacts.write");

  step = "tools/call projects_create (write)";
  const created = await client.callTool({ name: "projects_create", arguments: { name: "From the TypeScript SDK v2" } });
  check(!created.isError, `the call failed: ${JSON.stringify(created)}`);
  check(created.structuredContent?.name === "From the TypeScript SDK v2", `unexpected result ${JSON.stringify(created)}`);

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

  console.log("[mcp-ts-check 2026] OK: 2026-07-28 negotiated, listed tools, called a write and a read tool, the denied tool was refused");
  await client.close();
} catch (e) {
  console.error(`[mcp-ts-check 2026] FAILED at ${step}: ${e?.stack ?? e}`);
  await client.close().catch(() => {});
  process.exit(1);
}
