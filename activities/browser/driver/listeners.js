// listeners runs in every frame before the page's own scripts and remembers which elements
// the page gives a click handler (addEventListener, as frameworks and jQuery do): a
// <span> or <div> a person can click is a control, though nothing in its markup says so.
(() => {
  if (window.__webagentClicks) return;
  const marked = new WeakSet();
  Object.defineProperty(window, "__webagentClicks", { value: marked });
  const kinds = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup", "dblclick", "contextmenu", "touchstart"]);
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (kinds.has(type) && this instanceof Element) marked.add(this);
    return add.call(this, type, listener, options);
  };
})();

// The time of the last input the page received from outside (a real click or key), for a
// WAIT that counts from the last action: the browser dispatches an action's events some
// time after it is asked to (the first action on a page takes longest).
(() => {
  if ("__webagentInputAt" in window) return;
  let last = 0;
  for (const k of ["mousedown", "click", "keydown", "input", "change"]) {
    window.addEventListener(k, (e) => { if (e.isTrusted) last = Date.now(); }, true);
  }
  Object.defineProperty(window, "__webagentInputAt", { get: () => last });
})();

// When the page last asked for a new window (window.open, a link or form with a target):
// the window's own event can come after the page is quiet again, and a step waits for it.
(() => {
  if ("__webagentOpenedAt" in window) return;
  let last = 0;
  const open = window.open;
  window.open = function (...args) { last = Date.now(); return open.apply(this, args); };
  window.addEventListener("click", (e) => {
    const t = e.target && e.target.closest && e.target.closest("a[target], area[target], form[target], button[formtarget], input[formtarget]");
    if (t && !/^_(self|top|parent)$/i.test(t.getAttribute("target") || t.getAttribute("formtarget") || "")) last = Date.now();
  }, true);
  window.addEventListener("submit", (e) => {
    const f = e.target;
    if (f && f.target && !/^_(self|top|parent)$/i.test(f.target)) last = Date.now();
  }, true);
  Object.defineProperty(window, "__webagentOpenedAt", { get: () => last });
})();
