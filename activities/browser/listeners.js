// listeners runs in every frame before the page's own scripts and remembers which elements
// the page gives a click handler (addEventListener, as frameworks and jQuery do): a
// <span> or <div> a person can click is a control, though nothing in its markup says so.
(() => {
  if (window.__webagentClicks) return;
  const marked = new WeakSet();
  Object.defineProperty(window, "__webagentClicks", { value: marked });
  const kinds = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup", "dblclick", "touchstart"]);
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (kinds.has(type) && this instanceof Element) marked.add(this);
    return add.call(this, type, listener, options);
  };
})();
