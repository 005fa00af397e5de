// The app's service worker (docs/web.md, "Installable"), built into dist/sw.js by web/vite.config.ts, which
// fills in the app shell's files and a version. It caches the app's own files only: the shell (index.html,
// the entry script and styles, the manifest and icons) at install, and the content-hashed /assets/ files as
// they are first fetched. Journal data never passes through it: /api/ and /config.js go to the network as if
// it were not there, and nothing they answer is stored.
const VERSION = "dev";
const SHELL = /* shell */ [];
const CACHE = `journal-shell-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

// A new version's cache replaces the old ones, and it takes the open pages at once.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("journal-shell-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

/** The app's own files: the hashed build output (never changes under its name) and the shell. */
function isAppFile(url) {
  return url.pathname.startsWith("/assets/") || SHELL.includes(url.pathname);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/config.js") return;
  if (request.mode === "navigate") {
    // The network first (a new release's shell); offline, the cached shell, which then says it cannot reach the journal.
    event.respondWith(fetch(request).catch(() => caches.match("/index.html").then((shell) => shell ?? Response.error())));
    return;
  }
  if (!isAppFile(url)) return;
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(request).then(
        (hit) =>
          hit ??
          fetch(request).then((response) => {
            if (response.ok && url.pathname.startsWith("/assets/")) void cache.put(request, response.clone());
            return response;
          }),
      ),
    ),
  );
});
