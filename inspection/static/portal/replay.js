// Step forward and back through a round's replay. Without this script every
// step is shown one under the other.
(function () {
  "use strict";
  var root = document.querySelector("[data-stepper]");
  if (!root) { return; }
  var steps = Array.prototype.slice.call(root.querySelectorAll("[data-step]"));
  var links = Array.prototype.slice.call(root.querySelectorAll("[data-goto]"));
  var prev = root.querySelector("[data-prev]");
  var next = root.querySelector("[data-next]");
  var counter = root.querySelector("[data-counter]");
  var live = root.querySelector("[data-live]");
  var current = 0;

  function announce() {
    if (!live) { return; }
    var title = steps[current].getAttribute("data-title") || "";
    live.textContent = (live.getAttribute("data-template") || "{n} / {total} : {title}")
      .replace("{n}", String(current + 1))
      .replace("{total}", String(steps.length))
      .replace("{title}", title);
  }

  function show(index, speak) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach(function (step, i) { step.hidden = i !== current; });
    links.forEach(function (link, i) {
      link.classList.toggle("current", i === current);
      if (i === current) { link.setAttribute("aria-current", "step"); } else { link.removeAttribute("aria-current"); }
    });
    // At either end the button says it is unavailable but keeps the focus: moved to the
    // other button, the next Enter would walk back the step just reached.
    prev.setAttribute("aria-disabled", String(current === 0));
    next.setAttribute("aria-disabled", String(current === steps.length - 1));
    counter.textContent = (current + 1) + " / " + steps.length;
    if (speak) { announce(); }
    if (history.replaceState) { history.replaceState(null, "", "#etape-" + current); }
  }

  root.querySelector("[data-controls]").hidden = false;
  root.classList.add("js");
  prev.addEventListener("click", function () { show(current - 1, true); });
  next.addEventListener("click", function () { show(current + 1, true); });
  links.forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      show(parseInt(link.getAttribute("data-goto"), 10), true);
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, textarea, select")) { return; }
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "ArrowRight") { show(current + 1, true); }
    if (event.key === "ArrowLeft") { show(current - 1, true); }
  });
  var match = /^#etape-(\d+)$/.exec(window.location.hash);
  show(match ? parseInt(match[1], 10) : 0, false);
})();
