// The accounts' and players' HTTP API for the pages (docs/protocol.md, "Accounts", "Players").
// The session cookie is HttpOnly; `gouji_account=1` only tells the page that somebody is
// logged in, so a guest's page asks nothing. Who is logged in is `GET /api/session`, which
// answers `{"account": null}` for a session that ended (not a 401, which the browser would log
// as a console error; issue 35).

/** A refusal of the server: HTTP `status` (0: no answer), its `code` and Retry-After. */
export class Refusal extends Error {
  constructor(status, code, retryAfter) {
    super(code || String(status));
    this.status = status;
    this.code = code || "";
    this.retryAfter = retryAfter;
  }
}

/** `method path` with a JSON body; resolves to the JSON answer, rejects with a Refusal. */
export async function call(method, path, body) {
  let r;
  try {
    r = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (e) {
    throw new Refusal(0, "network", null);
  }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Refusal(r.status, data && data.error, r.headers.get("retry-after"));
  return data;
}

/** Whether the page's cookies say somebody is logged in. */
export function loggedIn() {
  return document.cookie.split(";").some((c) => c.trim() === "gouji_account=1");
}

let asked = null;

/** The logged-in account {id, name}, or null for a guest (asked once per page load, unless
 * `again`). */
export function me(again = false) {
  if (asked === null || again) {
    asked = loggedIn()
      ? call("GET", "/api/session").then((d) => (d && d.account) || null, () => null)
      : Promise.resolve(null);
  }
  return asked;
}

/** Forget what /api/session said (after logging in or out on this page). */
export function setMe(account) {
  asked = Promise.resolve(account);
}

/** The address of a player's page. */
export function playerUrl(name) {
  return "/players/" + encodeURIComponent(name);
}
