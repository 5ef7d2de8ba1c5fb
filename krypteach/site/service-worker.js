/* krypteach build-site: the site's service worker (issue 25).

   One cache per build ("krypteach-" + the build's hash): a page's files come from this
   build's cache, else from the network (and are kept); a new build is a new worker with a new
   cache, and the old caches are deleted when it takes over, so a learner never runs files of
   two builds. After a lesson is drawn, the page asks this worker to keep what it loaded and the
   site's other pages and Python files (CACHE_LATER), so the site works offline after one visit.

   JupyterLite's own worker (jupyterlite-service-worker.js, which was this file) stays: it
   answers the in-browser kernel's file system and input requests (api/drive, api/stdin) by
   passing them to the page. Its fetch handler is called for those requests only; its install
   and activate handlers as before. */
(function () {  // a scope of its own: JupyterLite's worker declares CACHE and others at its top level
"use strict";
const VERSION = "__VERSION__";
const CACHE = "krypteach-" + VERSION;
const CACHE_LATER = __FILES__;
// kept only when a page has been open for a while (KEEP_LAST_MS in build.py's page script): the
// pack of the wheels and Python's snapshot (build.py, write_pack and _make_snapshot), 14 MB to
// fetch and 44 MB to keep, with which later pages start about a second sooner; kept at once they
// slowed a learner who went on to the next lesson straight away. (The pack is in CACHE_LATER too,
// in the stead of the wheels it holds: a page this worker controls fetches it as it opens, a first
// visit too, and it is kept as it passes, so it is seldom fetched again here.)
const CACHE_LAST = __LAST__;
// files that have a gzip copy beside them ("name.gz", written at build time): this worker asks for
// the copy and unpacks it (DecompressionStream), so a host that compresses nothing (a USB stick's
// server, a school's web space) still sends a third of the bytes (issue 25)
const GZIPPED = new Set(__GZIPPED__);
const BASE = new URL("./", location.href).pathname;
const TYPES = { ".wasm": "application/wasm", ".js": "text/javascript; charset=utf-8",
  ".html": "text/html; charset=utf-8", ".json": "application/json", ".css": "text/css",
  ".svg": "image/svg+xml" };

const jupyterlite = { fetch: [], install: [], activate: [] };
const listen = self.addEventListener.bind(self);
self.addEventListener = function (type, handler, options) {
  if (type in jupyterlite) { jupyterlite[type].push(handler); } else { listen(type, handler, options); }
};
importScripts("./jupyterlite-service-worker.js");
self.addEventListener = listen;

function forJupyterLite(request, url) {
  return request.method !== "GET" || url.origin !== location.origin ||
    url.pathname.includes("/api/drive") || url.pathname.includes("/api/stdin/") ||
    url.pathname.endsWith("/api/service-worker-heartbeat");
}

listen("install", (event) => {
  jupyterlite.install.forEach((handler) => handler(event));  // skipWaiting: the new build takes over
});

listen("activate", (event) => {
  jupyterlite.activate.forEach((handler) => handler(event));  // clients.claim
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((name) => name !== CACHE && name.startsWith("krypteach-"))
      .map((name) => caches.delete(name)))));
});

function gzipped(url) {
  if (url.origin !== location.origin || !url.pathname.startsWith(BASE) || typeof DecompressionStream !== "function") {
    return null;
  }
  const rel = decodeURIComponent(url.pathname.slice(BASE.length));
  return GZIPPED.has(rel) ? rel : null;
}

// the file at url: its gzip copy unpacked where it has one, else the file itself (also when the
// copy cannot be had: the plain file is always there)
async function fetchPacked(request, url) {
  const rel = gzipped(url);
  if (rel !== null) {
    try {
      const packed = await fetch(url.origin + url.pathname + ".gz");
      if (packed.ok && packed.status === 200 && packed.body) {
        // a host that marks .gz files Content-Encoding: gzip has had the browser unpack it already
        const unpacked = /gzip/i.test(packed.headers.get("Content-Encoding") || "");
        const body = unpacked ? packed.body : packed.body.pipeThrough(new DecompressionStream("gzip"));
        const type = TYPES[rel.slice(rel.lastIndexOf("."))] || "application/octet-stream";
        return new Response(body, { status: 200, statusText: "OK", headers: { "Content-Type": type } });
      }
    } catch (err) {
      console.warn("krypteach: no gzip copy of", rel, err);
    }
  }
  return fetch(request);
}

function keepable(response) {
  return response.ok && response.status === 200 && (response.type === "basic" || response.type === "default");
}

// A file not yet kept is fetched, kept, and answered with the kept copy, even the first time: Chromium
// keeps the code it compiles from a file (Python's WebAssembly, 8.6 MB) beside the cache's copy of it,
// but not beside a response made here, so with the fetched one the next page compiled it all again
// (docs/performance.md, "The compiled WebAssembly kept from the first page"). Where the copy cannot be
// kept (no room), the fetched response answers, as before.
async function fromCacheOrNetwork(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) { return kept; }
  const response = await fetchPacked(request, new URL(request.url));
  if (keepable(response)) {
    try {
      await cache.put(request, response.clone());
      const copy = await cache.match(request);
      if (copy) { return copy; }
    } catch (err) {
      console.warn("krypteach: could not keep", request.url, err);
    }
  }
  return response;
}

listen("fetch", (event) => {
  const url = new URL(event.request.url);
  if (forJupyterLite(event.request, url)) {
    jupyterlite.fetch.forEach((handler) => handler(event));
    return;
  }
  event.respondWith(fromCacheOrNetwork(event.request));
});

async function keep(urls) {
  const cache = await caches.open(CACHE);
  for (const url of urls) {
    try {
      const where = new URL(url, location.href);
      if (where.origin !== location.origin || where.pathname.includes("/api/drive")) { continue; }
      if (await cache.match(where.href)) { continue; }
      const response = await fetchPacked(where.href, where);  // Chromium's HTTP cache answers most of them
      if (keepable(response)) { await cache.put(where.href, response); }
    } catch (err) {
      console.warn("krypteach: could not keep", url, err);
    }
  }
}

listen("message", (event) => {
  const data = event.data || {};
  if (data.type !== "krypteach-keep") { return; }
  const urls = data.last ? CACHE_LAST : [...(data.urls || []), ...CACHE_LATER];
  event.waitUntil(keep(urls).then(() => {
    if (event.source) { event.source.postMessage({ type: "krypteach-kept", version: VERSION }); }
  }));
});
})();
