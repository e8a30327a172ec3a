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
  var current = 0;

  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach(function (step, i) { step.hidden = i !== current; });
    links.forEach(function (link, i) { link.classList.toggle("current", i === current); });
    prev.disabled = current === 0;
    next.disabled = current === steps.length - 1;
    counter.textContent = (current + 1) + " / " + steps.length;
    if (history.replaceState) { history.replaceState(null, "", "#etape-" + current); }
  }

  root.querySelector("[data-controls]").hidden = false;
  root.classList.add("js");
  prev.addEventListener("click", function () { show(current - 1); });
  next.addEventListener("click", function () { show(current + 1); });
  links.forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      show(parseInt(link.getAttribute("data-goto"), 10));
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, textarea, select")) { return; }
    if (event.key === "ArrowRight") { show(current + 1); }
    if (event.key === "ArrowLeft") { show(current - 1); }
  });
  var match = /^#etape-(\d+)$/.exec(window.location.hash);
  show(match ? parseInt(match[1], 10) : 0);
})();
