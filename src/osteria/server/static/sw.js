// The page's service worker: a phone that added osteria to its home screen opens it even when
// the network is away, and then says it cannot reach the server. Everything is asked of the
// network first, so a new version shows at once; the page's own files are kept for when it
// fails. The tables themselves (the API, the WebSocket) are never kept: they are the server's.

const KEPT = "osteria-page";
const PAGE_FILES = ["/", "/static/app.js", "/static/cards.js", "/static/words.js", "/static/style.css",
  "/static/dom.js", "/static/analysis.js", "/static/replay.html", "/static/replay.js",
  "/static/favicon.svg", "/static/manifest.webmanifest"];
// The addresses of a replay and of a player's history are the one replay page.
const REPLAY_PAGES = ["/replay/", "/players/"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(KEPT).then((cache) => cache.addAll(PAGE_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  // Every table's address (/, /t/ID) is the same page, kept once under "/"; so is every replay's,
  // under the replay page's own. A tournament's page is another, and not kept.
  const tablePage = url.pathname === "/" || url.pathname.startsWith("/t/");
  const replayPage = REPLAY_PAGES.some((start) => url.pathname.startsWith(start));
  const navigate = event.request.mode === "navigate";
  const key = navigate && tablePage ? "/" : navigate && replayPage ? "/static/replay.html" : url.pathname;
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !PAGE_FILES.includes(key)) return;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(KEPT).then((cache) => cache.put(key, copy)));
    }
    return response;
  }).catch(() => caches.match(key).then((kept) => kept || Response.error())));
});
