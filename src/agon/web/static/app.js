// agon: small helpers for the pages (no inline scripts; the pages work without them).
(function () {
  "use strict";

  // The score pad: add up the seven categories into the VP; science from the symbols.
  function science(g, c, t, wild) {
    var best = 0;
    (function rec(a, w) {
      if (w === 0) {
        var s = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + 7 * Math.min(a[0], a[1], a[2]);
        if (s > best) { best = s; }
        return;
      }
      for (var i = 0; i < 3; i++) { a[i] += 1; rec(a, w - 1); a[i] -= 1; }
    })([g, c, t], wild);
    return best;
  }
  function num(el) { var v = parseInt(el && el.value, 10); return isNaN(v) ? 0 : v; }
  function filled(el) { return el && el.value.trim() !== ""; }

  function updateSeat(box) {
    var k = box.getAttribute("data-seat");
    var get = function (name) { return document.getElementById(name + "-" + k); };
    var sym = ["gear", "compass", "tablet", "wild"].map(get);
    if (sym.some(filled)) {
      var sc = get("science");
      sc.value = science(num(sym[0]), num(sym[1]), num(sym[2]), Math.min(2, num(sym[3])));
    }
    var cats = ["military", "treasury", "wonder", "civilian", "commercial", "guilds", "science"].map(get);
    if (cats.some(filled)) {
      var total = cats.reduce(function (s, el) { return s + num(el); }, 0);
      var vp = get("vp");
      vp.value = total;
      var out = box.querySelector(".js-total");
      if (out) { out.textContent = String(total); }
    }
  }

  document.addEventListener("input", function (ev) {
    var box = ev.target.closest && ev.target.closest("[data-seat]");
    if (box && ev.target.classList.contains("js-pad")) { updateSeat(box); }
  });

  // The round clock: count down (or up) between the server's refreshes.
  function fmt(s) {
    s = Math.max(0, Math.floor(s));
    var m = Math.floor(s / 60), r = s % 60;
    return (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  setInterval(function () {
    document.querySelectorAll(".js-countdown").forEach(function (el) {
      if (!el.dataset.t0) { el.dataset.t0 = String(Date.now()); }
      var left = parseInt(el.dataset.remaining, 10);
      if (el.dataset.state === "running") { left -= (Date.now() - parseInt(el.dataset.t0, 10)) / 1000; }
      el.textContent = fmt(left);
      var up = el.parentNode.querySelector(".js-timeup");
      if (up && left <= 0) { up.hidden = false; }
    });
    document.querySelectorAll(".js-countup").forEach(function (el) {
      if (!el.dataset.t0) { el.dataset.t0 = String(Date.now()); }
      var s = parseInt(el.dataset.elapsed, 10);
      if (el.dataset.state === "running") { s += (Date.now() - parseInt(el.dataset.t0, 10)) / 1000; }
      el.textContent = fmt(s);
    });
  }, 1000);

  // Buttons that ask before they act (undo, drops): data-confirm="question".
  document.addEventListener("submit", function (ev) {
    var q = ev.target.getAttribute("data-confirm");
    if (q && !window.confirm(q)) { ev.preventDefault(); }
  });

  // The error page's "Back": go back in the history, so the form comes back with what was typed
  // (a plain link would load it empty).
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.js-back");
    if (a && window.history.length > 1) { ev.preventDefault(); window.history.back(); }
  });
  // Offline phones (issue 29): the service worker, the queue of entries made offline, "as of".
  var Q = window.agonQueue;
  var queueBox = document.getElementById("agon-queue");
  var staleBox = document.getElementById("agon-stale");
  var ENTRY = /^\/t\/[^/]+\/r\d+\/t\d+\/(result|confirm)$/;
  var OFFLINE_PAGE = /^\/(t\/[^/]+\/r\d+\/t\d+|p\/[^/]+(\/seat|\/rounds(\/\d+)?)?)$/;

  function hhmm(ms) {
    return new Date(ms).toLocaleTimeString(document.documentElement.lang || undefined, {
      hour: "2-digit", minute: "2-digit"
    });
  }
  function showStale(ms) {
    if (!staleBox) { return; }
    staleBox.textContent = staleBox.dataset.text.replace("%(time)s", hhmm(ms));
    staleBox.hidden = false;
  }
  var updated = Date.now();
  var cached = document.body.getAttribute("data-stale-at");
  if (cached !== null) { showStale(parseInt(cached, 10) || updated); }
  document.addEventListener("htmx:afterSwap", function () {
    updated = Date.now();
    if (staleBox && cached === null) { staleBox.hidden = true; }
  });
  document.addEventListener("htmx:sendError", function () { showStale(updated); });

  function note(text, kind) {
    var p = document.createElement("p");
    p.className = "flash " + (kind || "ok");
    p.setAttribute("role", "status");
    p.textContent = text;
    queueBox.parentNode.insertBefore(p, queueBox.nextSibling);
  }
  function showQueue() {
    if (!Q || !queueBox) { return Promise.resolve([]); }
    return Q.all().then(function (all) {
      var mine = all.filter(function (e) { return e.page === location.pathname; });
      queueBox.textContent = "";
      if (!mine.length) { queueBox.hidden = true; return mine; }
      var head = document.createElement("p");
      head.className = "js-waiting";
      head.textContent = queueBox.dataset.waiting;
      var list = document.createElement("ul");
      mine.forEach(function (e) {
        var li = document.createElement("li"), player = "";
        e.fields.forEach(function (kv) { if (kv[0] === "player") { player = kv[1]; } });
        li.textContent = (/\/confirm$/.test(e.url)
          ? queueBox.dataset.confirm.replace("%(player)s", player)
          : queueBox.dataset.result) + " (" + hhmm(e.at) + ")";
        list.appendChild(li);
      });
      queueBox.appendChild(head);
      queueBox.appendChild(list);
      queueBox.hidden = false;
      return mine;
    });
  }
  var sending = false;
  function flush() {
    if (!Q || sending) { return; }
    sending = true;
    Q.all().then(function (all) {
      return all.reduce(function (done, e) {
        return done.then(function () { return send(e); });
      }, Promise.resolve());
    }).then(function () { sending = false; return showQueue(); }, function () { sending = false; });
  }
  function send(e) {
    var body = new URLSearchParams();
    e.fields.forEach(function (kv) { body.append(kv[0], kv[1]); });
    body.append("key", e.key);
    body.append("queued", "1");
    return fetch(e.url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json", "Idempotency-Key": e.key }
    }).then(function (r) {
      if (r.status >= 500) { return; }  // the server's trouble: kept, tried again
      return r.json().catch(function () {
        return { outcome: "refused", message: r.statusText || String(r.status) };
      }).then(function (answer) {
        if (answer.outcome === "locked") {  // the PIN again first: kept until then
          if (e.page === location.pathname && !document.querySelector(".js-locked")) {
            note(queueBox.dataset.refused.replace("%(reason)s", answer.message), "error js-locked");
          }
          return;
        }
        return Q.remove(e.key).then(function () {
          if (e.page !== location.pathname) { return; }
          if (r.ok) {
            try {
              sessionStorage.setItem("agon-sent", JSON.stringify([answer.message, answer.outcome]));
            } catch (x) { /* no storage: the page shows the state anyway */ }
            location.reload();
          } else {
            note(queueBox.dataset.refused.replace("%(reason)s", answer.message), "error");
          }
        });
      });
    }, function () { /* still offline: kept */ });
  }
  if (Q && queueBox) {
    try {
      var told = JSON.parse(sessionStorage.getItem("agon-sent") || "null");
      sessionStorage.removeItem("agon-sent");
      if (told) { note(told[0], told[1] === "sent" ? "ok" : "error"); }
    } catch (x) { /* no storage: nothing to tell */ }
    // An entry made without a connection stays on the phone; each one gets its key when made.
    document.addEventListener("submit", function (ev) {
      var form = ev.target, path = new URL(form.action, location.href).pathname;
      if (ev.defaultPrevented || !ENTRY.test(path)) { return; }
      // a new key for every submit (a form brought back by "Back" and sent again is a new entry)
      var k = form.querySelector("input[name=key]");
      if (!k) {
        k = document.createElement("input");
        k.type = "hidden"; k.name = "key";
        form.appendChild(k);
      }
      k.value = Q.uuid();
      if (navigator.onLine) { return; }
      ev.preventDefault();
      var fields = [];
      new FormData(form).forEach(function (v, name) { fields.push([name, String(v)]); });
      Q.put(Q.entry(path, fields, location.pathname)).then(showQueue);
    });
    window.addEventListener("online", flush);
    setInterval(function () { if (navigator.onLine) { flush(); } }, 5000);
    showQueue().then(function (mine) { if (mine.length && navigator.onLine) { flush(); } });
  }
  if ("serviceWorker" in navigator && OFFLINE_PAGE.test(location.pathname) && Q) {
    // The page as it came from the server, without its one-time messages, kept for opening it
    // offline (no second request: that would race the session's messages).
    var copy = document.documentElement.cloneNode(true);
    copy.querySelectorAll("main > .flash").forEach(function (el) { el.remove(); });
    var html = "<!doctype html>\n" + copy.outerHTML;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function () {
      if (cached === null) { return Q.keepHtml(location.href, html); }
    }).catch(function () { /* no worker (not a secure context): the pages work online */ });
  }

  // Live updates announced politely (issue 28): after htmx swaps new content in (the standings,
  // the projector's clock), its [data-announce] text goes to the page's polite live region when
  // it says something new. play.js does the same for a pushed game board.
  var lastNews = null;
  window.agonAnnounce = function (root) {
    var region = document.getElementById("live-news");
    var from = root && root.isConnected && root.querySelector ? root : document;
    var el = from.querySelector("[data-announce]");
    if (!region || !el) { return; }
    var text = el.getAttribute("data-announce") || el.textContent.trim();
    if (lastNews === null) { lastNews = text; }  // the first content is the page's own
    if (text && text !== lastNews) { region.textContent = text; }
    lastNews = text;
  };
  document.addEventListener("DOMContentLoaded", function () { window.agonAnnounce(document); });
  document.addEventListener("htmx:afterSwap", function (ev) { window.agonAnnounce(ev.detail.target); });
  document.addEventListener("htmx:afterSettle", function (ev) { window.agonAnnounce(ev.detail.target); });
})();
