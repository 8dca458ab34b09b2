// Connects the official MCP TypeScript SDK client to a running platform by its URL alone, with the SDK's own OAuth
// client: the 401 leads it to the resource and server metadata, it registers itself, and the person (the owner,
// signed in with the one-time link `bin/platform workspace create` printed) allows it on the consent page, as a
// browser would post the form. Then it lists and calls tools, refreshes its token (rotated), and sees a revoked
// grant refused. Run by run.sh; exits non-zero with a message naming the failed step.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { consolePerson } from "./console-person.mjs";

const url = process.env.MCP_URL;
const signInLink = process.env.SIGN_IN_LINK;
if (!url || !signInLink) {
  console.error("[mcp-oauth-check] MCP_URL and SIGN_IN_LINK must be set");
  process.exit(2);
}
const origin = new URL(url).origin;
let step = "sign in";
function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

// The person: signs in with the one-time link.
const person = consolePerson(origin);
await person.signIn(signInLink);

// The client's storage, and the person's part of the redirect: open the consent page, allow, read the code.
let clientInformation;
let tokens;
let verifier;
let code;
const redirectUrl = "http://127.0.0.1:53682/callback";
const provider = {
  get redirectUrl() { return redirectUrl; },
  get clientMetadata() {
    return { client_name: "TypeScript SDK check", redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"], response_types: ["code"],
      token_endpoint_auth_method: "none" };
  },
  clientInformation: () => clientInformation,
  saveClientInformation: (info) => { clientInformation = info; },
  tokens: () => tokens,
  saveTokens: (t) => { tokens = t; },
  saveCodeVerifier: (v) => { verifier = v; },
  codeVerifier: () => verifier,
  async redirectToAuthorization(authorizationUrl) {
    step = "consent page";
    check(authorizationUrl.searchParams.get("code_challenge_method") === "S256", "the SDK did not ask for S256");
    const back = await person.allow(authorizationUrl, "TypeScript SDK check");
    check(back.origin + back.pathname === redirectUrl, `sent back to ${back}`);
    check(back.searchParams.get("iss") === origin, "the answer does not name the issuer");
    code = back.searchParams.get("code");
  },
};

step = "connect without a credential";
try {
  await new Client({ name: "lnp-ci-oauth-check", version: "1.0.0" })
    .connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  throw new Error("connected without authorizing");
} catch (e) {
  if (!(e instanceof UnauthorizedError)) {
    throw e;
  }
}
check(code, "the SDK never sent the person to the consent page");

try {
  step = "code exchange";
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  await transport.finishAuth(code);
  check(tokens?.access_token && tokens?.refresh_token, "no tokens after the code exchange");
  console.log(`[mcp-oauth-check] authorized: scope ${tokens.scope}, expires in ${tokens.expires_in} s`);

  step = "connect with the token";
  const client = new Client({ name: "lnp-ci-oauth-check", version: "1.0.0" });
  await client.connect(transport);

  step = "tools/list";
  const names = (await client.listTools()).tools.map((t) => t.name);
  check(names.includes("projects_list"), `projects_list is missing from ${names.join(", ")}`);
  console.log(`[mcp-oauth-check] ${names.length} tools listed`);

  step = "tools/call projects_list";
  const listed = await client.callTool({ name: "projects_list", arguments: {} });
  check(!listed.isError, `projects_list failed: ${JSON.stringify(listed)}`);

  step = "refresh";
  const before = tokens;
  check(await auth(provider, { serverUrl: url }) === "AUTHORIZED", "the refresh did not authorize");
  check(tokens.refresh_token !== before.refresh_token, "the refresh token was not rotated");
  check(tokens.access_token !== before.access_token, "no new access token");
  const again = await client.callTool({ name: "projects_list", arguments: {} });
  check(!again.isError, "projects_list failed after the refresh");

  step = "revocation";
  const revoked = await fetch(`${origin}/oauth/revoke`, { method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientInformation.client_id }).toString() });
  check(revoked.status === 200, `revoke answered ${revoked.status}`);
  const refused = await fetch(url, { method: "POST", headers: { Authorization: `Bearer ${tokens.access_token}`,
    "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
  check(refused.status === 401, `a revoked grant's token answered ${refused.status}`);
  await client.close();
  console.log("[mcp-oauth-check] OK: registered, consented, listed and called tools, refreshed, revoked");
} catch (e) {
  console.error(`[mcp-oauth-check] FAILED at ${step}: ${e.stack ?? e}`);
  process.exit(1);
}
