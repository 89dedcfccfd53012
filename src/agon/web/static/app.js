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
