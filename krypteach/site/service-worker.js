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

async function fromCacheOrNetwork(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) { return kept; }
  const response = await fetch(request);
  if (response.ok && response.type === "basic" && response.status === 200) {
    await cache.put(request, response.clone());
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
      const response = await fetch(where.href);  // Chromium's HTTP cache answers most of them
      if (response.ok && response.status === 200) { await cache.put(where.href, response); }
    } catch (err) {
      console.warn("krypteach: could not keep", url, err);
    }
  }
}

listen("message", (event) => {
  const data = event.data || {};
  if (data.type !== "krypteach-keep") { return; }
  const urls = [...(data.urls || []), ...CACHE_LATER];
  event.waitUntil(keep(urls).then(() => {
    if (event.source) { event.source.postMessage({ type: "krypteach-kept", version: VERSION }); }
  }));
});
})();
