// observe lists the interactive elements a person can see and use on the page, numbers
// them in document order, keeps them in window.__webagent for the actions that follow, and
// returns them with a fingerprint of the visible state. It runs in the page.
(limit) => {
  const SELECTOR = [
    "a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary",
    "[role=button]", "[role=link]", "[role=menuitem]", "[role=menuitemcheckbox]", "[role=menuitemradio]",
    "[role=tab]", "[role=checkbox]", "[role=radio]", "[role=switch]", "[role=option]", "[role=combobox]",
    "[role=textbox]", "[role=searchbox]", "[role=slider]", "[role=spinbutton]", "[role=treeitem]",
    "[contenteditable=''], [contenteditable=true]", "[onclick]", "[tabindex]:not([tabindex='-1'])",
  ].join(",");
  const clean = (s, n) => (s || "").replace(/\s+/g, " ").trim().slice(0, n || 120);
  const textOf = (el) => clean(el.innerText || el.textContent);
  const byId = (ids) => ids.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean).map(textOf).join(" ");

  const implicitRole = (el) => {
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || "text").toLowerCase();
    if (tag === "a") return "link";
    if (tag === "button" || tag === "summary") return "button";
    if (tag === "select") return el.multiple ? "listbox" : "combobox";
    if (tag === "textarea") return "textbox";
    if (tag === "input") {
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      if (type === "checkbox") return "checkbox";
      if (type === "radio") return "radio";
      if (type === "range") return "slider";
      if (type === "number") return "spinbutton";
      if (type === "search") return "searchbox";
      return "textbox";
    }
    if (el.isContentEditable) return "textbox";
    return "generic";
  };

  const labelOf = (el) => {
    const parts = [];
    if (el.id) {
      for (const l of document.querySelectorAll(`label[for="${CSS.escape(el.id)}"]`)) parts.push(textOf(l));
    }
    const wrap = el.closest("label");
    if (wrap) parts.push(clean(wrap.innerText));
    return clean(parts.join(" "));
  };

  const nameOf = (el, role, label) => {
    const lb = el.getAttribute("aria-labelledby");
    if (lb) { const t = clean(byId(lb)); if (t) return t; }
    const al = clean(el.getAttribute("aria-label"));
    if (al) return al;
    const tag = el.tagName.toLowerCase();
    if (["input", "select", "textarea"].includes(tag)) {
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (["button", "submit", "reset"].includes(type)) return clean(el.value);
      return label || clean(el.getAttribute("placeholder")) || clean(el.getAttribute("title"));
    }
    const t = textOf(el);
    if (t) return t;
    const img = el.querySelector("img[alt]");
    return clean(el.getAttribute("title")) || (img ? clean(img.alt) : "") || label;
  };

  // contextOf names what the element sits in: a dialog or menu, and its row.
  const contextOf = (el) => {
    const out = {};
    const box = el.closest("[role=dialog],[role=alertdialog],dialog,[role=menu],[role=listbox],nav,form");
    if (box) {
      const lb = box.getAttribute("aria-labelledby");
      out.container = clean((box.getAttribute("role") || box.tagName.toLowerCase()) + " " +
        (lb ? byId(lb) : box.getAttribute("aria-label") || ""), 80);
    }
    const row = el.closest("tr,[role=row],li,[role=listitem],article");
    if (row && row !== el) out.row = clean(row.innerText, 120);
    return out;
  };

  const vw = window.innerWidth, vh = window.innerHeight;
  const seen = new Set();
  const elements = [];
  const nodes = [];
  for (const el of document.querySelectorAll(SELECTOR)) {
    if (seen.has(el)) continue;
    seen.add(el);
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const inViewport = cx >= 0 && cy >= 0 && cx < vw && cy < vh;
    if (inViewport) {
      const hit = document.elementFromPoint(cx, cy);
      // Covered: what a click at its centre would reach is neither it nor inside it. A
      // control inside its own label counts as itself.
      if (hit && hit !== el && !el.contains(hit) && !(hit.tagName === "LABEL" && hit.contains(el))) continue;
    }
    const role = clean(el.getAttribute("role")) || implicitRole(el);
    const label = labelOf(el);
    const tag = el.tagName.toLowerCase();
    const type = tag === "input" ? (el.getAttribute("type") || "text").toLowerCase() : "";
    const secret = type === "password" || el.getAttribute("autocomplete") === "one-time-code";
    const e = {
      index: elements.length,
      tag, role,
      name: nameOf(el, role, label),
      text: textOf(el),
      box: { x: Math.round(r.left + scrollX), y: Math.round(r.top + scrollY), w: Math.round(r.width), h: Math.round(r.height) },
    };
    if (type) e.type = type;
    if (label) e.label = label;
    const ph = clean(el.getAttribute("placeholder")); if (ph) e.placeholder = ph;
    const ti = clean(el.getAttribute("title")); if (ti) e.title = ti;
    if (el.id) e.id = el.id;
    const cls = clean(typeof el.className === "string" ? el.className : "", 80); if (cls) e.classes = cls;
    if (tag === "select") {
      e.value = clean(el.selectedOptions[0] ? el.selectedOptions[0].label : "");
      e.options = Array.from(el.options).slice(0, 30).map((o) => clean(o.label, 60));
    } else if ("value" in el && tag !== "button" && type !== "checkbox" && type !== "radio") {
      e.value = secret ? (el.value ? "••••" : "") : clean(String(el.value), 200);
    }
    if (type === "checkbox" || type === "radio") e.checked = el.checked;
    else if (el.hasAttribute("aria-checked")) e.checked = el.getAttribute("aria-checked") === "true";
    if (el.hasAttribute("aria-expanded")) e.expanded = el.getAttribute("aria-expanded") === "true";
    if (el.hasAttribute("aria-selected")) e.selected = el.getAttribute("aria-selected") === "true";
    if (el.disabled || el.getAttribute("aria-disabled") === "true") e.disabled = true;
    if (!inViewport) e.offscreen = true;
    if (el === document.activeElement) e.focused = true;
    const ctx = contextOf(el);
    if (ctx.container) e.container = ctx.container;
    if (ctx.row) e.row = ctx.row;
    elements.push(e);
    nodes.push(el);
  }
  // The live nodes, in the order of the returned list, for the actions that follow.
  window.__webagent = { nodes: nodes.slice(0, limit) };
  const truncated = elements.length > limit;
  const list = truncated ? elements.slice(0, limit) : elements;
  // fingerprint: what a person would notice changing — the URL, the controls and their
  // states, and the page's text.
  let h = 2166136261 >>> 0;
  const mix = (s) => { for (let k = 0; k < s.length; k++) { h ^= s.charCodeAt(k); h = Math.imul(h, 16777619) >>> 0; } };
  mix(location.href);
  for (const e of elements) mix([e.role, e.name, e.value, e.checked, e.expanded, e.selected, e.disabled, e.box.x >> 3, e.box.y >> 3].join("|"));
  mix(clean(document.body ? document.body.innerText : "", 20000));
  return {
    url: location.href, title: document.title, elements: list, truncated, total: elements.length,
    fingerprint: h.toString(16), scrollX: Math.round(scrollX), scrollY: Math.round(scrollY),
    scrollMax: Math.max(0, Math.round(document.documentElement.scrollHeight - vh)),
  };
}
