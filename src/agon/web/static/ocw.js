// One Card Wonder online (issue 28): a leader's interruption is a dialog everybody at the table
// sees. Shown in place by the server; here it opens as a modal once per leader (remembered for
// this tab), takes the focus, and gives it back on "OK" or Escape (to where it was, else to the
// first move). Runs on load and on every pushed board (play.js: "agon:board").
(function () {
  "use strict";
  var KEY = "agon-ocw-leader-seen";

  function seen() {
    try { return JSON.parse(window.sessionStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function remember(key) {
    try { window.sessionStorage.setItem(KEY, JSON.stringify(seen().concat([key]).slice(-50))); } catch (e) { /* private mode */ }
  }

  function leader() {
    var dialog = document.getElementById("ocw-leader");
    if (!dialog || typeof dialog.showModal !== "function") { return; }
    var key = (document.getElementById("play") || {}).getAttribute ?
      document.getElementById("play").getAttribute("data-frag") + " " + dialog.getAttribute("data-key") : dialog.getAttribute("data-key");
    dialog.removeAttribute("open");  // not close(): its "close" event would come later
    if (seen().indexOf(key) >= 0) { return; }
    var before = document.activeElement;
    var ok = dialog.querySelector(".js-leader-close");
    ok.hidden = false;
    dialog.addEventListener("close", function () {
      if (!dialog.isConnected) { return; }  // a pushed board replaced it: the new one shows
      remember(key);
      var back = before && before.isConnected && before !== document.body ? before :
        document.querySelector(".moves-form button.move");
      if (back) { back.focus(); }
    }, { once: true });
    ok.addEventListener("click", function () { dialog.close(); });
    dialog.showModal();
    ok.focus();
  }

  document.addEventListener("DOMContentLoaded", leader);
  document.addEventListener("agon:board", leader);
})();
