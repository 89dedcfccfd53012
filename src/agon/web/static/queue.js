// agon: the phone's queue of entries made while offline (issue 29), in IndexedDB; shared by the
// pages (app.js) and the service worker (sw.js). Each entry keeps the form's fields and the
// random idempotency key made when it was typed: however often it is sent, the server makes it
// once.
(function (root) {
  "use strict";
  var DB = "agon-queue", STORE = "entries", PAGES = "agon-pages";

  function open() {
    return new Promise(function (resolve, reject) {
      var req = root.indexedDB.open(DB, 1);
      req.onupgradeneeded = function () { req.result.createObjectStore(STORE, { keyPath: "key" }); };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }
  function run(mode, fn) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode), out = fn(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(out && out.result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }
  // A random UUID (crypto.randomUUID needs a secure context; getRandomValues does not).
  function uuid() {
    var b = root.crypto.getRandomValues(new Uint8Array(16)), h = [];
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    for (var i = 0; i < 16; i++) { h.push((b[i] + 256).toString(16).slice(1)); }
    return h.slice(0, 4).join("") + "-" + h.slice(4, 6).join("") + "-" + h.slice(6, 8).join("") +
      "-" + h.slice(8, 10).join("") + "-" + h.slice(10).join("");
  }
  // Keep a page for opening it offline, with the time it was fetched (the "as of").
  function keepHtml(url, html) {
    return root.caches.open(PAGES).then(function (c) {
      return c.put(url, new Response(html, { headers: {
        "Content-Type": "text/html; charset=utf-8", "X-Agon-Fetched": String(Date.now())
      } }));
    });
  }
  root.agonQueue = {
    uuid: uuid,
    PAGES: PAGES,
    keepHtml: keepHtml,
    put: function (entry) { return run("readwrite", function (s) { s.put(entry); }); },
    all: function () { return run("readonly", function (s) { return s.getAll(); }); },
    remove: function (key) { return run("readwrite", function (s) { s.delete(key); }); },
    // An entry from a form's fields: kept with its page, sent later as "queued".
    entry: function (action, fields, page) {
      var key = "", kept = [];
      fields.forEach(function (kv) {
        if (kv[0] === "key") { key = kv[1]; } else if (kv[0] !== "queued") { kept.push(kv); }
      });
      return { key: key || uuid(), url: action, fields: kept, page: page, at: Date.now() };
    }
  };
})(self);
