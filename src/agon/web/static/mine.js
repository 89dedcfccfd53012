// "My games" (docs/online-play.md): the seat links this browser has opened, kept in localStorage
// ("agon-seats": [{game_id, token, name, at}]). On a seat page (/play/<id>?token=...) the seat is
// remembered; on /play/mine the list is shown and checked every few seconds with POST
// /api/play/turns (the tokens travel in the body only). Web Notifications: asked on a click
// only, shown when it becomes my turn while the page is hidden.
(function () {
  "use strict";
  var KEY = "agon-seats";
  var POLL_MS = 5000;

  function load() {
    try {
      var list = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list.filter(function (s) { return s && s.game_id && s.token; }) : [];
    } catch (e) { return []; }
  }
  function save(list) {
    try { window.localStorage.setItem(KEY, JSON.stringify(list.slice(-50))); } catch (e) { /* private mode */ }
  }

  // A seat page: remember its link.
  var m = window.location.pathname.match(/^\/play\/([A-Za-z0-9_-]+)$/);
  var token = new URLSearchParams(window.location.search).get("token");
  if (m && token) {
    var list = load().filter(function (s) { return !(s.game_id === m[1] && s.token === token); });
    list.push({ game_id: m[1], token: token, at: Date.now() });
    save(list);
    return;
  }

  var root = document.getElementById("mine");
  if (!root) { return; }
  var ul = document.getElementById("mine-list");
  var empty = document.getElementById("mine-empty");
  var err = document.getElementById("mine-error");
  var notifyBtn = document.getElementById("mine-notify");
  var notifyState = document.getElementById("mine-notify-state");
  var wasMyTurn = {};
  var first = true;

  if ("Notification" in window && window.Notification.permission !== "granted") {
    notifyBtn.hidden = false;
    notifyBtn.addEventListener("click", function () {  // a user gesture: may ask now
      window.Notification.requestPermission().then(function (p) {
        notifyBtn.hidden = p === "granted";
        notifyState.textContent = p;
      });
    });
  }

  function notify(seat) {
    if (!("Notification" in window) || window.Notification.permission !== "granted") { return; }
    if (!document.hidden) { return; }
    try {
      new window.Notification(root.dataset.msgNotify.replace("%(game)s", seat.name || seat.game_id), {
        tag: "agon-" + seat.game_id
      });
    } catch (e) { /* some browsers allow notifications from service workers only */ }
  }

  function render(seats, answers) {
    ul.textContent = "";
    empty.hidden = seats.length > 0;
    seats.forEach(function (s, i) {
      var a = answers[i] || { valid: false };
      var li = document.createElement("li");
      li.className = "seat-card mine-seat" + (a.to_act ? " my-turn" : "");
      li.dataset.game = s.game_id;
      var name = document.createElement("strong");
      name.className = "pname";
      name.textContent = (a.game === "ocw" ? "One Card Wonder" : a.game === "7w" ? "7 Wonders" : "") +
        (a.name ? " · " + a.name : "");
      li.appendChild(name);
      var state = document.createElement("span");
      state.className = "mine-state";
      state.textContent = " " + (!a.valid ? root.dataset.msgGone : a.over ? root.dataset.msgOver :
        a.to_act ? root.dataset.msgTurn : root.dataset.msgWait);
      if (a.to_act) { state.className += " turn"; }
      li.appendChild(state);
      if (a.valid) {
        var open = document.createElement("a");
        open.className = "button";
        open.href = "/play/" + encodeURIComponent(s.game_id) + "?token=" + encodeURIComponent(s.token);
        open.textContent = root.dataset.msgOpen;
        li.appendChild(document.createTextNode(" "));
        li.appendChild(open);
      }
      var forget = document.createElement("button");
      forget.type = "button";
      forget.className = "secondary";
      forget.textContent = root.dataset.msgForget;
      forget.addEventListener("click", function () {
        save(load().filter(function (x) { return !(x.game_id === s.game_id && x.token === s.token); }));
        check();
      });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(forget);
      ul.appendChild(li);
      var key = s.game_id + " " + s.token;
      if (a.to_act && !wasMyTurn[key] && !first) { notify(a); }
      wasMyTurn[key] = !!a.to_act;
    });
    first = false;
  }

  function check() {
    var seats = load();
    if (!seats.length) { render([], []); return; }
    fetch("/api/play/turns", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seats: seats.map(function (s) { return { game_id: s.game_id, token: s.token }; }) }),
      credentials: "omit",
      cache: "no-store"
    }).then(function (r) {
      if (!r.ok) { throw new Error(String(r.status)); }
      return r.json();
    }).then(function (body) {
      err.hidden = true;
      render(seats, body.seats || []);
    }).catch(function () { err.hidden = false; });
  }

  check();
  setInterval(check, POLL_MS);
})();
