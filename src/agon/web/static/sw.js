// agon's service worker (issue 29): the table page and the public pages ("Where do I sit?", the
// standings, the rounds) open from the phone's cache when the connection is gone; a result or a
// confirmation sent while the server cannot be reached is kept in the phone's queue
// (queue.js) and sent when the connection returns. Hand-written, no build step.
"use strict";
importScripts("/static/queue.js");

var ASSETS = "agon-assets-v1";
var KEEP = [
  "/static/app.css", "/static/app.js", "/static/htmx.min.js", "/static/queue.js",
  "/static/icon.svg", "/manifest.webmanifest"
];
// The pages a phone may need offline: a table's page, the public pages of a tournament.
var PAGE = /^\/(t\/[^/]+\/r\d+\/t\d+|p\/[^/]+(\/seat|\/rounds(\/\d+)?)?)$/;
var ENTRY = /^\/t\/[^/]+\/r\d+\/t\d+\/(result|confirm)$/;

self.addEventListener("install", function (ev) {
  ev.waitUntil(caches.open(ASSETS).then(function (c) { return c.addAll(KEEP); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n.indexOf("agon-assets-") === 0 && n !== ASSETS;
    }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// A page from the cache, marked as such: <body data-stale-at="…"> (app.js shows "as of HH:MM").
function fromCache(request) {
  return caches.open(agonQueue.PAGES).then(function (c) {
    return c.match(request, { ignoreSearch: false }).then(function (hit) {
      return hit || c.match(request, { ignoreSearch: true });
    });
  }).then(function (hit) {
    if (!hit) { return Response.error(); }
    var at = hit.headers.get("X-Agon-Fetched") || "";
    return hit.text().then(function (body) {
      return new Response(body.replace("<body", '<body data-stale-at="' + at + '"'), {
        status: 200, headers: { "Content-Type": "text/html; charset=utf-8" }
      });
    });
  });
}

// A page from the network; without one, the copy the page kept of itself (app.js).
function page(request) {
  return fetch(request).catch(function () { return fromCache(request); });
}

// A form sent while the server cannot be reached: into the queue, then the page (from the cache).
function entry(request, url) {
  var copy = request.clone();
  return fetch(request).catch(function () {
    return copy.formData().then(function (form) {
      var fields = [];
      form.forEach(function (v, k) { fields.push([k, String(v)]); });
      var back = url.pathname.replace(/\/(result|confirm)$/, "");
      return agonQueue.put(agonQueue.entry(url.pathname, fields, back)).then(function () {
        return Response.redirect(back, 303);
      });
    });
  });
}

self.addEventListener("fetch", function (ev) {
  var request = ev.request, url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "POST") {
    if (request.mode === "navigate" && ENTRY.test(url.pathname)) {
      ev.respondWith(entry(request, url));
    }
    return;
  }
  if (request.method !== "GET") { return; }
  if (KEEP.indexOf(url.pathname) >= 0) {
    ev.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(ASSETS).then(function (c) { c.put(url.pathname, copy); });
      }
      return response;
    }, function () {
      return caches.match(url.pathname).then(function (hit) { return hit || Response.error(); });
    }));
  } else if (request.mode === "navigate" && PAGE.test(url.pathname)) {
    ev.respondWith(page(request));
  }
});
