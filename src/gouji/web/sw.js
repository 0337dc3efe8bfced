// The site's service worker, served at /sw.js (scope "/") by gouji.server.pages.webapp, which fills
// in VERSION (a hash of the web client's files), FILES (those files, under /static/) and
// SHELLS (the page of each address: gouji.server.pages.routes.PAGES, the server's own table).
//
// - the web client's files (/static/…) and the pages' shells (/, /r/…, /replay/…, /events,
//   /e/…, /account, /players/…, /leaderboard: each the same file whatever the code or name)
//   come from this release's cache, filled at
//   install: pages open at once, and without a network (the table then says it reconnects);
//   a page and its scripts always come from one release;
// - nothing else is touched: /api, /ws, /rules, /metrics, the manifest go to the server as
//   if there were no worker, and are never cached.
// A new release is a new VERSION (the browser looks at /sw.js on every page load): the new
// worker fills a new cache, takes over the open pages and deletes the old cache; the next
// page opened is the new release's (docs/decisions.md D99).
const VERSION = "__GOUJI_VERSION__";
const FILES = [/* __GOUJI_FILES__ */];
const PREFIX = "gouji-";
const CACHE = PREFIX + VERSION;

// the page of each address: its shell among the cached files (filled in from PAGES)
const SHELLS = [/* __GOUJI_SHELLS__ */];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/") && !url.search) {
    event.respondWith(fromCache(req));
    return;
  }
  if (req.mode === "navigate") {
    const shell = SHELLS.find(([pattern]) => pattern.test(url.pathname));
    if (shell) event.respondWith(page(req, shell[1]));
  }
  // anything else: not answered here, so the browser asks the server as usual
});

/** A client file: this release's copy; one it does not hold yet is fetched and kept. */
async function fromCache(req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok && res.type === "basic") await cache.put(req, res.clone());
  return res;
}

/** A page: its shell, from this release's cache; from the server while it is not there. */
async function page(req, shell) {
  const kept = await caches.match(shell, { cacheName: CACHE });
  return kept || fetch(req);
}

// "Your turn" notifications (js/your-turn.js): a click brings the table's tab to the front.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const want = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((list) => {
      const open = list.find((c) => new URL(c.url).pathname === new URL(want, self.location.origin).pathname);
      if (open) return open.focus();
      return self.clients.openWindow(want);
    }),
  );
});
