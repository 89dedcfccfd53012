// The replay page (issue 28): the arrow keys step back and forth (the links do the same), Home and
// End go to the first and the last move. Not while typing in a field.
(function () {
  "use strict";
  var keys = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var target = e.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    var id = keys[e.key];
    if (!id) return;
    var link = document.getElementById(id);
    if (!link || link.getAttribute("aria-disabled") === "true") return;
    e.preventDefault();
    window.location.assign(link.href);
  });
})();
