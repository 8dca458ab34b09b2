// The person in the OAuth checks, as a browser without script would act: signs in to the console with the one-time
// link `bin/platform workspace create` printed, opens an authorization request's consent page and allows it with
// the boxes the page shows checked. Shared by .ci/mcp-oauth-check and .ci/mcp-authorization-conformance.
export function consolePerson(origin) {
  // A browser's cookie jar, enough for the console's cookies: by name and path (a cookie cleared on /console must
  // not clear the session cookie of /).
  const cookies = new Map();

  async function browse(target, init = {}) {
    const path = new URL(target).pathname;
    const sent = [...cookies.values()].filter((c) => path.startsWith(c.path)).map((c) => `${c.name}=${c.value}`);
    const headers = { ...(init.headers ?? {}), Cookie: sent.join("; ") };
    const response = await fetch(target, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      const cookie = { name: pair.slice(0, eq), value: pair.slice(eq + 1), path: "/" };
      for (const attribute of attributes) {
        if (attribute.toLowerCase().startsWith("path=")) {
          cookie.path = attribute.slice(5);
        }
      }
      const key = `${cookie.name};${cookie.path}`;
      if (cookie.value === "") {
        cookies.delete(key);
      } else {
        cookies.set(key, cookie);
      }
    }
    return response;
  }

  function unescapeHtml(text) {
    return text.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
  }

  function hiddenFields(html) {
    const fields = [];
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      fields.push([m[1], unescapeHtml(m[2])]);
    }
    return fields;
  }

  async function postForm(path, fields) {
    return browse(origin + path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
      body: new URLSearchParams(fields).toString(),
    });
  }

  // The one-time link's page has a button that posts the token.
  async function signIn(signInLink) {
    const linkPage = await (await browse(signInLink)).text();
    const signedIn = await postForm("/console/sign-in/link", hiddenFields(linkPage));
    if (signedIn.status !== 303 && signedIn.status !== 302) {
      throw new Error(`the sign-in link answered ${signedIn.status}`);
    }
    if (!cookies.has("lnp_console;/")) {
      throw new Error("no console session after the sign-in link");
    }
  }

  // Opens the consent page of an authorization request, allows it in the first workspace offered, and returns where
  // the platform sends the browser back (the redirect URI with code, state and iss).
  async function allow(authorizationUrl, clientName) {
    const page = await browse(authorizationUrl);
    const html = await page.text();
    if (page.status !== 200 || !html.includes(clientName)) {
      throw new Error(`the consent page answered ${page.status}: ${html.match(/<h1>(.*?)<\/h1>/)?.[1]}`);
    }
    const option = html.match(/<option value="([^"]+)"/);
    if (!option) {
      throw new Error(`no workspace to choose on the page: ${html.match(/<h1>(.*?)<\/h1>/)?.[1]}`);
    }
    // What a browser posts: the checked boxes (permissions and tools), as the page shows them.
    const checked = [...html.matchAll(/name="(grant_scope|grant_tool)" value="([^"]+)" checked>/g)]
      .map((m) => [m[1], m[2]]);
    const decided = await postForm("/oauth/authorize",
      [...hiddenFields(html), ["workspace", option[1]], ...checked, ["decision", "allow"]]);
    if (decided.status !== 303) {
      throw new Error(`the decision answered ${decided.status}`);
    }
    return new URL(decided.headers.get("location"));
  }

  return { signIn, allow };
}
