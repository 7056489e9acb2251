// The page's service worker: a phone that added osteria to its home screen opens it even when
// the network is away, and then says it cannot reach the server. Everything is asked of the
// network first, so a new version shows at once; the page's own files are kept for when it
// fails. The tables themselves (the API, the WebSocket) are never kept: they are the server's.

const KEPT = "osteria-page";
const PAGE_FILES = ["/", "/static/app.js", "/static/cards.js", "/static/words.js", "/static/style.css",
  "/static/favicon.svg", "/static/manifest.webmanifest"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(KEPT).then((cache) => cache.addAll(PAGE_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  // Every table's address (/, /t/ID) is the same page: kept once, under "/". A tournament's page
  // is another, and not kept.
  const tablePage = url.pathname === "/" || url.pathname.startsWith("/t/");
  const key = event.request.mode === "navigate" && tablePage ? "/" : url.pathname;
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !PAGE_FILES.includes(key)) return;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(KEPT).then((cache) => cache.put(key, copy)));
    }
    return response;
  }).catch(() => caches.match(key).then((kept) => kept || Response.error())));
});
