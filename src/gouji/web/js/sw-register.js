// Every page registers the site's service worker (/sw.js, scope "/": gouji.server.pages.webapp)
// once it has loaded: the web client's files are then kept for fast and offline loads, and
// the site can be installed as an app (manifest.webmanifest). A browser without service
// workers, or a page not in a secure context (plain http away from localhost), just goes on.
if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch((e) => console.warn("service worker:", e));
  });
}
