// agon online play: live updates (server-sent events) and moves without reloading.
// No inline scripts; without JavaScript the pages still work (forms post, pages reload).
(function () {
  "use strict";

  function copyButtons() {
    document.querySelectorAll(".js-copy").forEach(function (b) {
      b.addEventListener("click", function () {
        var text = b.getAttribute("data-copy");
        var done = function () { b.textContent = b.getAttribute("data-done"); };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(done, function () {});
        } else {
          var input = b.closest(".seat-card").querySelector(".seat-url");
          input.select();
          try { document.execCommand("copy"); done(); } catch (e) { /* select is enough */ }
        }
      });
    });
    document.querySelectorAll(".js-share").forEach(function (b) {
      if (!navigator.share) { return; }
      b.hidden = false;
      b.addEventListener("click", function () {
        navigator.share({ title: b.getAttribute("data-title"), url: b.getAttribute("data-share") })
          .catch(function () {});
      });
    });
  }

  function table(root) {
    var fragUrl = root.getAttribute("data-frag");
    var eventsUrl = root.getAttribute("data-events");
    var msg = document.getElementById("play-msg");
    var live = document.getElementById("play-live");
    var busy = false, again = false, source = null, pollTimer = null;

    function board() { return document.getElementById("board"); }
    function version() { var b = board(); return b ? b.getAttribute("data-version") : ""; }
    function show(text) { msg.textContent = text; msg.hidden = !text; }

    function key(d) { return d.id ? "#" + d.id : d.className; }

    // Where the keyboard was on the board: the same control on the new board (a card's
    // disclosure, a move), else the hand's heading (focus never falls back to the page's top)
    function focusKey() {
      var el = document.activeElement;
      if (!el || el === document.body) { return { home: posting }; }
      if (!board().contains(el)) { return null; }
      if (el.id) { return { sel: "#" + el.id }; }
      if (el.tagName === "SUMMARY" && el.parentNode.id) { return { sel: "#" + el.parentNode.id + " > summary" }; }
      if (el.tagName === "BUTTON" && el.value) { return { sel: 'button[value="' + el.value.replace(/"/g, "") + '"]' }; }
      return { home: true };
    }

    function refocus(fresh, focus) {
      if (!focus) { return; }
      var el = focus.sel ? fresh.querySelector(focus.sel) : null;
      if (el && !el.disabled) { el.focus(); return; }
      if (!focus.home && !focus.sel) { return; }
      var home = fresh.querySelector("#hand-title") || fresh.querySelector(".end h2") ||
        fresh.querySelector("h2:not(.vh)");
      if (home) {
        if (!home.hasAttribute("tabindex")) { home.setAttribute("tabindex", "-1"); }
        home.focus();
      }
    }

    // live updates are announced politely (what the last turn was; whether it is my turn)
    function announce(fresh, said) {
      var news = document.getElementById("play-news");
      var text = fresh.getAttribute("data-announce");
      if (news && text && text !== said) { news.textContent = text; }
    }

    function swap(html) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      var fresh = holder.querySelector("#board");
      if (!fresh || !board()) { return; }
      // answers may cross: never go back to an older state than the one shown
      var now = parseInt(board().getAttribute("data-version"), 10);
      var got = parseInt(fresh.getAttribute("data-version"), 10);
      if (got < now) { return; }
      // what the reader opened (the table's story, the other cities, a card of the hand) stays
      // open: a disclosure with an id by its id, the others by their class
      var open = {};
      board().querySelectorAll("details[class]").forEach(function (d) { if (d.open) { open[key(d)] = true; } });
      var focus = focusKey();
      var said = board().getAttribute("data-announce");
      board().replaceWith(fresh);
      fresh.querySelectorAll("details[class]").forEach(function (d) { if (open[key(d)]) { d.open = true; } });
      refocus(fresh, focus);
      announce(fresh, said);
      if (fresh && fresh.getAttribute("data-over") === "true" && source) { source.close(); source = null; }
      if (window.agonAnnounce) { window.agonAnnounce(fresh); }  // politely, to screen readers
      document.dispatchEvent(new CustomEvent("agon:board"));  // ocw.js: a leader's dialog
    }

    // The highest version announced by a push (or -1: unknown, fetch on demand). Every push
    // carries its version as the event id; the board is fetched only when a push names a version
    // newer than the one shown, once per version however many pushes arrive meanwhile — the
    // answer to this page's own move already shows that version, so its push fetches nothing.
    var target = -1;
    // a move of this page is on its way: its answer will show the new version, the pushes wait
    var posting = false;

    function shown() { var v = parseInt(version(), 10); return isNaN(v) ? -1 : v; }

    function refresh() {
      if (busy) { again = true; return; }
      busy = true;
      fetch(fragUrl, { headers: { "Accept": "text/html" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html) { swap(html); } })
        .catch(function () {})
        .then(function () {
          var more = again && (target < 0 || target > shown());
          busy = false;
          again = false;
          if (more) { refresh(); }
        });
    }

    function announced(ev) {
      var v = parseInt(ev.lastEventId, 10);
      if (isNaN(v)) { refresh(); return; }
      if (v > target) { target = v; }
      if (!posting && v > shown()) { refresh(); }
    }

    function posted() {
      posting = false;
      if (target > shown()) { refresh(); }
    }

    function connect() {
      if (!eventsUrl || !window.EventSource) { poll(); return; }
      source = new EventSource(eventsUrl);
      source.addEventListener("state", announced);
      // the seat was given to a bot: this link no longer works; the page says so
      source.addEventListener("revoked", function () { source.close(); location.reload(); });
      // (re)connected: the stream's first push names the current version, which decides
      source.onopen = function () { live.hidden = true; };
      source.onerror = function () {
        if (board() && board().getAttribute("data-over") === "true") { return; }
        if (source && source.readyState === EventSource.CLOSED) {  // refused: poll instead
          source = null;
          poll();
          return;
        }
        live.textContent = root.getAttribute("data-msg-offline");
        live.hidden = false;
      };
    }

    function poll() {
      if (pollTimer) { return; }
      pollTimer = setInterval(function () {
        if (board() && board().getAttribute("data-over") === "true") { clearInterval(pollTimer); return; }
        refresh();
      }, 3000);
    }

    document.addEventListener("submit", function (ev) {
      var form = ev.target;
      if (!form.classList || !form.classList.contains("moves-form")) { return; }
      ev.preventDefault();
      var data = new URLSearchParams(new FormData(form));
      if (ev.submitter && ev.submitter.name) { data.set(ev.submitter.name, ev.submitter.value); }
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      posting = true;
      fetch(form.getAttribute("action"), {
        method: "POST",
        body: data,
        headers: { "Accept": "text/html", "X-Requested-With": "fetch" }
      }).then(function (r) {
        return r.text().then(function (text) { return { status: r.status, text: text }; });
      }).then(function (res) {
        if (res.status === 200) { show(""); swap(res.text); posted(); return; }
        if (res.status === 409) { show(root.getAttribute("data-msg-stale")); posting = false; refresh(); return; }
        show(res.text);
        form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        posted();
      }).catch(function () {
        form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        posted();
      });
    });

    connect();
    // a safety net: a missed push costs at most a few seconds
    setInterval(function () { if (!busy && document.visibilityState === "visible" && !source) { refresh(); } }, 10000);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { refresh(); }
    });
    return version;
  }

  // The lobby: the variant choice belongs to One Card Wonder only; a seed may be chosen only for
  // one person against bots (with two or more people the server draws it and refuses a chosen one).
  function lobby(form) {
    var box = form.querySelector(".ocw-only");
    var seed = form.querySelector(".seed-choice");
    function update() {
      var checked = form.querySelector("input[name=game]:checked");
      box.hidden = !checked || checked.value !== "ocw";
      if (seed) {
        var people = 0;
        form.querySelectorAll("select[name^=kind-]").forEach(function (s) {
          if (s.value === "human") { people += 1; }
        });
        seed.hidden = people >= 2;
        seed.querySelector("input").disabled = people >= 2;
      }
    }
    form.addEventListener("change", update);
    update();
  }

  document.addEventListener("DOMContentLoaded", function () {
    copyButtons();
    var form = document.getElementById("lobby");
    if (form) { lobby(form); }
    var root = document.getElementById("play");
    if (root) { table(root); }
  });
})();
