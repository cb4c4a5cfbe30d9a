// observe lists the interactive elements a person can see and use on the page — in the
// document, in open shadow roots and in same-origin iframes — numbers them in document
// order, keeps them in window.__webagent for the actions that follow, and returns them with
// a fingerprint of the visible state. It runs in the page.
(limit) => {
  const SELECTOR = [
    "a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary",
    "[role=button]", "[role=link]", "[role=menuitem]", "[role=menuitemcheckbox]", "[role=menuitemradio]",
    "[role=tab]", "[role=checkbox]", "[role=radio]", "[role=switch]", "[role=option]", "[role=combobox]",
    "[role=textbox]", "[role=searchbox]", "[role=slider]", "[role=spinbutton]", "[role=treeitem]",
    "[contenteditable=''], [contenteditable=true]", "[onclick]", "[tabindex]:not([tabindex='-1'])", "[draggable=true]",
    // A group of radio buttons, which a person chooses from as from a list ("select Editor
    // under Role"): marked so, or a fieldset of radios named by its legend.
    "[role=radiogroup]", "fieldset:has(> legend):has(input[type=radio])",
  ].join(",");
  // Characters a person does not see (a zero-width space a page puts after "/" so that a
  // long name may break there, a soft hyphen) are no part of what they read.
  const clean = (s, n) => (s || "").replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, "").replace(/\s+/g, " ").trim().slice(0, n || 120);
  let textOf = (el) => clean(el.innerText || el.textContent);

  // A list of radio buttons a <label for> names by its id (Sympa's "List type:" for its
  // <ul id="list_type">) is a group chosen from as a list is, named by that label.
  const labelledGroups = new WeakSet();
  const implicitRole = (el) => {
    if (labelledGroups.has(el)) return "radiogroup";
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
      if (type === "file") return "button"; // it shows as a button that asks for a file
      return "textbox";
    }
    if (el.isContentEditable) return "textbox";
    if (tag === "fieldset") return "radiogroup"; // only a fieldset of radios is listed
    return "generic";
  };

  // The browser's own accessibility tree says what an element is and what it is called
  // (Chromium's computed role and accessible name, read with accessibility on for the
  // page): a submit input is a button, a field is what takes text, a label is its
  // control's name. Where the tree has no ARIA role for an element (a summary, a date
  // field, a cell with a click handler) or the browser does not expose it, the page alone
  // says it, below.
  const WIDGETS = new Set(["button", "link", "textbox", "searchbox", "combobox", "listbox", "checkbox", "radio", "switch",
    "slider", "spinbutton", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem"]);
  const axRole = (el) => {
    const r = typeof el.computedRole === "string" ? el.computedRole : "";
    return WIDGETS.has(r) ? r : "";
  };
  // An icon font's glyph (a private-use character) names nothing a person can read.
  const axName = (el) => typeof el.computedName === "string" ? clean(el.computedName.replace(/[\uE000-\uF8FF]/g, " ")) : "";

  // iconNodes hold the words an icon font draws as a glyph (Material Icons' and Material
  // Symbols' ligatures: "arrow_drop_down", "star", "people_alt" in an <i> or a <span> set
  // in that font): a person sees a picture, not the word, so the word is no part of a
  // name; it is a hint of the icon, as a class is.
  const ICON_FONT = /material[\s_-]*(icons|symbols)|icon|symbols/i;
  const iconNodes = [];
  for (const n of document.querySelectorAll("i, span, em")) {
    if (n.firstElementChild) continue;
    const t = (n.textContent || "").trim();
    if (!/^[a-z][a-z0-9_]{1,40}$/.test(t)) continue;
    // The font it is drawn in is the first of its stack: a text font's stack may name a
    // symbols font as a fallback ("Noto Sans Symbols").
    if (ICON_FONT.test(typeof n.className === "string" ? n.className : "") || ICON_FONT.test(getComputedStyle(n).fontFamily.split(",")[0])) iconNodes.push(n);
  }
  // An icon font may draw its word from the stylesheet (<i data-icon="arrow_drop_down">,
  // its ::after's content the attribute): no text in the page, but the word is in the
  // accessible name.
  const pseudoIcons = [];
  for (const n of document.querySelectorAll("i, span[class*=icon], [data-icon]")) {
    if (n.firstElementChild || (n.textContent || "").trim()) continue;
    for (const pseudo of ["::before", "::after"]) {
      const st = getComputedStyle(n, pseudo);
      const m = /^"([a-z][a-z0-9_]{1,40})"$/.exec(st.content || "");
      if (m && (ICON_FONT.test(st.fontFamily.split(",")[0]) || ICON_FONT.test(typeof n.className === "string" ? n.className : "") || n.hasAttribute("data-icon"))) {
        pseudoIcons.push({ n, word: m[1] });
        break;
      }
    }
  }
  const iconsIn = (el) => iconNodes.length ? iconNodes.filter((n) => el === n || el.contains(n)) : [];
  const pseudoIn = (el) => pseudoIcons.length ? pseudoIcons.filter((p) => el === p.n || el.contains(p.n)).map((p) => p.word) : [];
  const withoutWords = (name, words) => words.reduce((v, w) => clean(v.replace(new RegExp("(^|\\s)" + w + "(?=\\s|$)"), " ")), name);
  // plainText is an element's words without the ones its icons draw.
  const plainText = (el, icons) => {
    const parts = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      if (!icons.some((n) => n.contains(t))) parts.push(t.textContent);
    }
    return clean(parts.join(" "));
  };
  const squeeze = (v) => (v || "").replace(/\s+/g, "");
  if (iconNodes.length) {
    const withIcons = textOf;
    textOf = (el) => { const icons = iconsIn(el); return icons.length ? plainText(el, icons) : withIcons(el); };
  }

  // landmarkOf is the part of the page an element is in (a navigation bar, a sidebar, a
  // header, the main content): words in another part name none of its fields.
  const LANDMARKS = "nav, aside, header, footer, main, [role=navigation], [role=complementary], [role=banner], [role=contentinfo], [role=main], [role=dialog], [role=tree], [role=menubar]";
  const landmarkOf = (el) => el.closest(LANDMARKS);

  // Labels and aria references resolve within the element's own root (document or shadow).
  const byIds = (el, ids) => {
    const root = el.getRootNode();
    return ids.split(/\s+/).map((id) => root.getElementById ? root.getElementById(id) : null)
      .filter(Boolean).map(textOf).join(" ");
  };
  const labelOf = (el) => {
    const parts = [];
    const root = el.getRootNode();
    if (el.id && root.querySelectorAll) {
      for (const l of root.querySelectorAll(`label[for="${CSS.escape(el.id)}"]`)) parts.push(textOf(l));
    }
    // A label that wraps its control names it by its own words, not the control's (a
    // <select>'s options are text inside the label too).
    const wrap = el.closest("label");
    if (wrap) {
      const own = wrap.cloneNode(true);
      for (const c of own.querySelectorAll("select, textarea, input, button, datalist")) c.remove();
      parts.push(clean(own.textContent));
    }
    return clean(parts.join(" "));
  };

  const nameOf = (el, label) => {
    if (labelledGroups.has(el) && label) return label;
    const lb = el.getAttribute("aria-labelledby");
    if (lb) { const t = clean(byIds(el, lb)); if (t) return t; }
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
    const svgTitle = el.querySelector("svg title");
    return clean(el.getAttribute("title")) || (img ? clean(img.alt) : "") || (svgTitle ? textOf(svgTitle) : "") || label;
  };

  // hintsOf collects what names an icon-only control for a developer: id, classes, the
  // icon it uses, test ids. The resolver matches them only when nothing visible does.
  const hintsOf = (el) => {
    const parts = [el.id, typeof el.className === "string" ? el.className : "",
      el.getAttribute("name"), el.getAttribute("data-icon"), el.getAttribute("data-testid"),
      // What a script library makes of it: Bootstrap's data-toggle="tab" is a tab.
      el.getAttribute("data-toggle"), el.getAttribute("data-bs-toggle")];
    // A link in a list the page styles as a row of tabs (Bootstrap's "nav-tabs" or its
    // "nav-pills", a side column of them; a "tabs" or "tab-bar" list, ExtJS's
    // "x-tab-strip", an app's top menu bar) is one of its tabs, as people call them.
    for (let p = el.parentElement, i = 0; p && i < 3; p = p.parentElement, i++) {
      if (/(?:^|[\s_-])(?:nav-tabs|nav-pills|tabs|pills|tabbar|tab-bar|tabnav|tab-strip|tabstrip|navbar-nav|topmenu)(?:$|[\s_-])/i.test((typeof p.className === "string" ? p.className : "") + " " + p.id)) {
        parts.push("tab");
        break;
      }
    }
    // A field of a search form (role "search", or "search" in its form's id, class or
    // address: Gitit's <form action="/_search">) is a search box, whatever it is named.
    const box = /^(?:input|textarea)$/i.test(el.tagName) && (el.closest("[role=search]") || el.closest("form"));
    if (box && (box.getAttribute("role") === "search" ||
        /search/i.test([box.id, typeof box.className === "string" ? box.className : "", box.getAttribute("action"), box.getAttribute("name")].join(" ")))) parts.push("search");
    // A link whose one child is drawn as a button (<a><span class="pure-button">) is drawn
    // as a button.
    const only = el.children.length === 1 ? el.children[0] : null;
    if (only && typeof only.className === "string" && /(?:^|[\s_-])(?:btn|button)(?:$|[\s_-])/i.test(only.className)) parts.push(only.className);
    for (const n of el.querySelectorAll("use, [data-icon], i[class], span[class*=icon]")) {
      parts.push(n.getAttribute("href") || n.getAttribute("xlink:href") || "", n.getAttribute("data-icon") || "",
        typeof n.className === "string" ? n.className : "");
    }
    // An icon drawn by the stylesheet (a "×" in ::after) is the control's only glyph.
    if (!clean(el.textContent)) {
      for (const pseudo of ["::before", "::after"]) {
        const c = getComputedStyle(el, pseudo).content;
        if (c && c !== "none" && c !== "normal" && /^".{1,2}"$/u.test(c)) parts.push(c.slice(1, -1));
      }
    }
    return clean(parts.filter(Boolean).join(" "), 160);
  };

  // shown reports whether a person can see the element: rendered, not transparent, not
  // hidden by visibility.
  const shown = (el) => !el.checkVisibility || el.checkVisibility({ opacityProperty: true, visibilityProperty: true });

  // standIn is what a person sees and clicks for a checkbox or radio the page styles away
  // (no size, no opacity, clipped): the visible label that names it. Acting on the label
  // ticks the box; none, and the box is not there for a person.
  const hiddenBox = (el) => {
    if (el.tagName !== "INPUT" || !/^(checkbox|radio)$/i.test(el.type)) return false;
    if (!shown(el)) return true;
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) return true;
    const st = getComputedStyle(el);
    return st.clipPath === "inset(50%)" || (st.clip && st.clip.startsWith("rect(0") && st.position === "absolute");
  };
  // fileButton is the button a transparent file field lies over: its sibling in the same
  // wrapper.
  const fileButton = (el) => {
    const p = el.parentElement;
    return p ? Array.from(p.children).find((c) => c !== el && c.matches("button, [role=button]")) || null : null;
  };
  // labelsOf are the labels that name a box: its <label>s, and what aria-labelledby names.
  const labelsOf = (el) => {
    const ls = Array.from(el.labels || []);
    const root = el.getRootNode();
    for (const id of (el.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean)) {
      const n = root.getElementById ? root.getElementById(id) : null;
      if (n && !ls.includes(n)) ls.push(n);
    }
    return ls;
  };
  // overItsLabel: the box lies over a visible label of its own and is what a click at its
  // middle reaches.
  const overItsLabel = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4 || window !== el.ownerDocument.defaultView) return false;
    if (deepHit(r.left + r.width / 2, r.top + r.height / 2) !== el) return false;
    return labelsOf(el).some((l) => { const b = l.getBoundingClientRect(); return b.width >= 4 && b.height >= 4; });
  };
  const standIn = (el) => {
    for (const l of labelsOf(el)) {
      if (!shown(l)) continue;
      const r = l.getBoundingClientRect();
      if (r.width >= 4 && r.height >= 4) return l;
    }
    return null;
  };

  // repeats: a box with a class that a sibling box shares (an item of a list): the same
  // classes, or the same first class when the rest say the item's state (a note that
  // exists and one being edited, a row selected).
  const repeatsMemo = new Map();
  const firstClass = (el) => (typeof el.className === "string" ? el.className.trim().split(/\s+/)[0] : "");
  const repeats = (p) => {
    let v = repeatsMemo.get(p);
    if (v === undefined) {
      const cls = typeof p.className === "string" ? p.className.trim() : "";
      const first = firstClass(p);
      v = !!cls && !!p.parentElement && Array.from(p.parentElement.children).some((sib) => sib !== p && sib.tagName === p.tagName &&
        (sib.className === p.className || (first.length > 2 && firstClass(sib) === first)));
      repeatsMemo.set(p, v);
    }
    return v;
  };

  // drawnDialog is the title of the window a page draws over itself without ARIA (an
  // ExtJS window, a script's own pop-up): a box positioned fixed or absolute above the
  // page (a z-index), smaller than the viewport, whose header or title says what it is.
  // A menu or a list of suggestions, which has no title, is none.
  const drawnMemo = new Map();
  const drawnTitle = (p) => {
    const cs = getComputedStyle(p);
    if ((cs.position !== "fixed" && cs.position !== "absolute") || !(parseInt(cs.zIndex, 10) > 0)) return "";
    // A bar across the page (a fixed header) or down it (a sidebar) is the page's own.
    const r = p.getBoundingClientRect();
    if (r.width < 120 || r.height < 60 || r.width >= innerWidth * 0.9 || r.height >= innerHeight * 0.98) return "";
    const head = p.querySelector("h1,h2,h3,h4,legend,[class*=header],[class*=title],[class*=Header],[class*=Title]");
    if (!head || head.getBoundingClientRect().top - r.top > 60) return "";
    const title = clean(head.innerText);
    return title && title.length <= 60 && title.split(" ").length <= 6 ? title : "";
  };
  const drawnDialog = (el) => {
    for (let p = el.parentElement; p && p !== el.ownerDocument.body && p !== el.ownerDocument.documentElement; p = p.parentElement) {
      let v = drawnMemo.get(p);
      if (v === undefined) {
        v = drawnTitle(p);
        drawnMemo.set(p, v);
      }
      if (v) return v;
    }
    return "";
  };

  // editorLabel is what names a text editor a script draws (a contenteditable, no label
  // for it): the one label of the smallest box around it that holds a label, where that
  // box holds no other field ("Body" over Decap's markdown editor and its toolbar). ""
  // otherwise.
  const editorLabel = (el) => {
    let box = el.parentElement;
    for (let i = 0; box && i < 6 && box !== el.ownerDocument.body; i++, box = box.parentElement) {
      const labels = box.querySelectorAll("label");
      if (!labels.length) continue;
      const fields = [...box.querySelectorAll("input,textarea,select,[contenteditable=''],[contenteditable=true]")]
        .filter((f) => !/^(hidden|checkbox|radio|submit|button|reset|image)$/.test(f.type || "") && !(f !== el && el.contains(f)) && !(f !== el && f.contains(el)));
      if (labels.length !== 1 || fields.length !== 1 || fields[0] !== el) return "";
      const t = clean(labels[0].innerText, 60);
      return t.length <= 40 ? t : "";
    }
    return "";
  };

  // rowHead is what names a field a form lays out as a table's row: the row's first cell,
  // words alone (no control in it), when the field is in another of its cells and is the
  // row's one field one types or chooses in ("title | TEXT | [function] | [ ] null |
  // [value]": the value's field is "title"). "" otherwise.
  const rowHead = (el) => {
    const cell = el.closest("td,th"), tr = cell && cell.parentElement;
    if (!tr || tr.tagName !== "TR" || tr.cells.length < 2 || tr.cells[0] === cell) return "";
    const head = tr.cells[0];
    if (head.querySelector("input,select,textarea,button")) return "";
    const fields = [...tr.querySelectorAll("input,textarea,select")].filter((f) => !/^(hidden|checkbox|radio|submit|button|reset|image)$/.test(f.type || "") && f.tagName !== "SELECT");
    if (fields.length !== 1 || fields[0] !== el) return "";
    const t = clean(head.innerText, 60);
    return t.length <= 40 ? t : "";
  };

  // plainHead is a table's first row drawn as plain cells that heads its columns: two or
  // more cells of short words, none with a control, above rows of fields (an editable
  // table whose header cells are styled cells, not header cells). null otherwise.
  const plainHead = (table) => {
    const [first, ...rest] = table.rows;
    if (!first || first.cells.length < 2 || !rest.length) return null;
    const cells = [...first.cells];
    if (cells.some((c) => c.querySelector("input, select, textarea, button"))) return null;
    if (cells.filter((c) => { const t = clean(c.innerText, 60); return t && shortWords(t); }).length < 2) return null;
    return rest.some((r) => [...r.cells].some((c) => c.querySelector("input:not([type=hidden]), select, textarea"))) ? first : null;
  };

  // columnOf names the column of a table or grid the element's cell is in, by its
  // header's words ("Budgeted" for an amount in a budget's row): a table's header row (its
  // head, or a first row of header cells), counted with the cells' spans; a grid's column
  // headers, by aria-colindex or place. "" outside a cell, or in the header itself.
  const columnOf = (el) => {
    const cell = el.closest("td,th,[role=gridcell],[role=cell]");
    if (!cell) return "";
    if (cell.tagName === "TD" || cell.tagName === "TH") {
      const table = cell.closest("table"), tr = cell.parentElement;
      if (!table || !tr || tr.tagName !== "TR") return "";
      const head = table.tHead && table.tHead.rows.length ? table.tHead.rows[table.tHead.rows.length - 1] :
        [...table.rows].find((r) => r.cells.length > 1 && [...r.cells].every((c) => c.tagName === "TH")) || plainHead(table);
      if (!head || head === tr) return "";
      let at = 0;
      for (const c of tr.cells) { if (c === cell) break; at += c.colSpan || 1; }
      let k = 0;
      for (const h of head.cells) {
        if (at >= k && at < k + (h.colSpan || 1)) return clean(h.innerText, 40);
        k += h.colSpan || 1;
      }
      return "";
    }
    const grid = cell.closest("[role=grid],[role=treegrid],[role=table]"), row = cell.closest("[role=row]");
    if (!grid || !row) return "";
    const heads = [...grid.querySelectorAll("[role=columnheader]")];
    const ci = cell.getAttribute("aria-colindex");
    if (ci) { const h = heads.find((x) => x.getAttribute("aria-colindex") === ci); if (h) return clean(h.innerText, 40); }
    const i = [...row.querySelectorAll("[role=gridcell],[role=cell],[role=rowheader]")].filter((c) => c.closest("[role=row]") === row).indexOf(cell);
    return i >= 0 && heads[i] && !heads[i].getAttribute("aria-colindex") ? clean(heads[i].innerText, 40) : "";
  };

  // bandOf names the band of the page the element sits in, "header" or "footer": the
  // page's banner or content info (by role, or a <header>/<footer> that is no article's,
  // section's or other box's own, as the browser maps them), or a block whose id or class
  // is the site's header or footer. A dialog's own header or footer is no band of the page.
  const BAND_IDS = /^(?:site-|page-|main-|global-)?(header|footer)$/i;
  const bandOf = (el) => {
    if (el.closest("[role=dialog],[role=alertdialog],dialog")) return "";
    for (let p = el; p && p.nodeType === 1; p = p.parentElement) {
      const role = p.getAttribute("role");
      if (role === "banner") return "header";
      if (role === "contentinfo") return "footer";
      // Only a candidate is asked whether a box owns it (a walk up of its own).
      const outer = () => !(p.parentElement && p.parentElement.closest("article,aside,main,nav,section,[role=article],[role=complementary],[role=main],[role=navigation],[role=region]"));
      const tag = p.tagName.toLowerCase();
      if ((tag === "header" || tag === "footer") && !role && outer()) return tag;
      const m = BAND_IDS.exec(p.id || "") || [...p.classList].map((c) => BAND_IDS.exec(c)).find(Boolean);
      if (m && !/^page-header$/i.test(m[0]) && outer()) return m[1].toLowerCase();
    }
    return "";
  };

  // promptOf is the words a field with no name of its own is asked for by: the text just
  // before it in its box ("Please enter your reclaim code." above a dialog's one field, a
  // "Name:" before a bare input), climbing only through boxes that hold no other control.
  // Short text only, and none across another control.
  const CONTROLS = "input,select,textarea,button";
  const promptOf = (el) => {
    for (let node = el, depth = 0; node && depth < 3; node = node.parentElement, depth++) {
      if (depth > 0 && (node.matches("form,dialog,[role=dialog],body") || node.querySelectorAll(CONTROLS).length > 1)) return "";
      for (let s = node.previousSibling; s; s = s.previousSibling) {
        if (s.nodeType === 1 && (!shown(s) || !s.getClientRects().length)) continue;
        if (s.nodeType === 1 && (s.matches(CONTROLS) || s.querySelector(CONTROLS))) return "";
        const t = clean(s.nodeType === 1 ? s.innerText : s.nodeType === 3 ? s.textContent : "");
        if (t) return t.length <= 80 ? t : "";
      }
    }
    return "";
  };

  // contextOf names what the element sits in: a dialog or menu, and its row.
  const contextOf = (el) => {
    const out = {};
    const doc = el.ownerDocument;
    // A popover that holds controls (Bootstrap's, marked as a tooltip: a folder picker, a
    // list of choices) is the box a person calls a popup or a dialog.
    const popover = !el.closest("[role=dialog],[role=alertdialog],dialog,[role=menu],[role=listbox]") && el.closest("[role=tooltip]");
    // A page's menu bar drawn with no <nav> says what it is by its id or class ("menu",
    // "navbar", a list of class "nav"): it is the page's navigation.
    // A tree or a menu bar down the side of the page (an accounting app's menu of
    // folders) is its navigation too.
    const NAVS = "nav,[role=navigation],#menu,#nav,#navigation,#navbar,.navbar,ul.nav,[role=tree],[role=menubar]";
    // A navigation down the side of the page says so by its element or role, its id or
    // its class: "the sidebar" a person reads, "the menu" too.
    const SIDEBARS = "aside,[role=complementary],[id*=sidebar i],[class*=sidebar i],[class*=sidenav i],[class*=side-nav i],[class*=side-menu i],[id*=side-menu i]";
    // A toolbar says so by its role, or by its id or class ("toolbar", Etherpad's
    // "editbar"): "the Bold button in the toolbar".
    const TOOLBARS = "[role=toolbar],#toolbar,.toolbar,#editbar";
    const box = el.closest("[role=dialog],[role=alertdialog],dialog") || el.closest("[role=menu],[role=listbox]") || popover ||
      el.closest(NAVS + ",form," + TOOLBARS);
    if (box) {
      const lb = box.getAttribute("aria-labelledby");
      const kind = box === popover ? "dialog" : box.matches(NAVS) ? "nav" : box.matches(TOOLBARS) ? "toolbar" : box.getAttribute("role") || box.tagName.toLowerCase();
      // A toolkit may write a label it never had as "undefined": no name.
      const named = (lb ? byIds(box, lb) : box.getAttribute("aria-label") || "").replace(/^(undefined|null)$/, "");
      out.container = clean(kind + " " + named + (kind === "nav" && box.closest(SIDEBARS) ? " sidebar" : ""), 80);
    }
    if (!box || box.matches("form")) {
      // A form inside such a window is in both: "the form", "the Login window".
      const title = drawnDialog(el);
      if (title) out.container = clean("dialog " + title + (box ? " " + out.container : ""), 80);
    }
    const rows = "tr,[role=row],li,[role=listitem],article";
    let row = el.closest(rows);
    // A list item that holds the control alone (a list of an item's actions, each in its
    // own <li>) is no row: the item around that list is.
    // (A row of fields holds what they hold: an editable table's row is one.)
    while (row && row !== el && clean(row.innerText + " " + rowValues(row)) === clean(el.innerText)) row = row.parentElement && row.parentElement.closest(rows);
    if (!row || row === el) {
      // Or the clickable card it is part of, or else the item of a list it is in: the
      // nearest box that repeats beside it (a post among posts, a result among results).
      // A box that holds the control alone (a cell of a layout grid, one of an item's
      // controls each in a box of its own) is passed over for the one around it.
      row = null;
      const own = clean(el.innerText);
      for (let p = el.parentElement, i = 0; p && i < 6 && !row; p = p.parentElement, i++) {
        if (cards.has(p)) row = p;
      }
      for (let p = el.parentElement, i = 0; p && p !== doc.body && i < 8 && !row; p = p.parentElement, i++) {
        if (repeats(p) && clean(p.innerText) !== own) row = p;
      }
    }
    if (!row || row === el) {
      // Or the box it is in, named by its legend or its header ("Table options", "Create
      // database": a fieldset, a group, a region, a card): where a person says a field or a
      // "Go" is.
      row = el.closest("fieldset,[role=group],[role=region],.card");
    }
    if (row && row !== el) out.row = clean(spannedText(row) + " " + shownOf(row, iconNodes.length ? textOf(row) : row.innerText) + " " + rowValues(row), 120);
    return out;
  };

  // shownOf is a box's text as a person sees it: a drop-down inside it shows its chosen
  // option, not the others its text lists (a host menu's list of every host is not the
  // words of the box it sits in).
  const shownOf = (box, text) => {
    for (const sel of box.querySelectorAll("select")) {
      for (const o of sel.options) if (!o.selected && o.text.trim()) text = text.replace(o.text, " ");
    }
    return text;
  };

  // rowValues are what the text fields of a table's row hold: a row of an editable table
  // (a host list whose names are fields) is named by them, as a person reads it. Never a
  // secret field's.
  const TEXT_FIELDS = "input:not([type]),input[type=text],input[type=email],input[type=url],input[type=search],input[type=number],input[type=tel]";
  const rowValues = (row) => (/^(TR)$/.test(row.tagName) || row.getAttribute("role") === "row")
    ? [...row.querySelectorAll(TEXT_FIELDS)].map((f) => f.value).filter(Boolean).join(" ") : "";

  // spannedText is what a table row shares with the rows before it: the cells whose
  // rowspan reaches down into it (an application's path and name, written once beside its
  // two lines of commands). The record is both lines.
  const spannedText = (row) => {
    if (row.tagName !== "TR") return "";
    const parts = [];
    let k = 1;
    for (let p = row.previousElementSibling; p && k < 10; p = p.previousElementSibling, k++) {
      if (p.tagName !== "TR") break;
      for (const c of p.cells) if (c.rowSpan > k) parts.push(iconNodes.length ? textOf(c) : c.innerText);
    }
    return parts.join(" ");
  };

  // Collect candidates from the document, open shadow roots and same-origin iframes; dx,
  // dy map a frame's viewport into the top viewport.
  const candidates = [];
  const frames = [];
  // clickable reports an element that is a control only by behaviour: the page gave it a
  // click handler, or it starts a region with a pointer cursor. Such "weak" candidates
  // give way to a real control inside them.
  const SKIP = new Set(["HTML", "BODY", "HEAD", "SCRIPT", "STYLE", "svg", "path", "LABEL", "OPTION"]);
  const clickable = (el, marks) => {
    if (SKIP.has(el.tagName)) return false;
    if ((marks && marks.has(el)) || typeof el.onclick === "function" || typeof el.onmousedown === "function") return true;
    const view = el.ownerDocument.defaultView;
    if (view.getComputedStyle(el).cursor !== "pointer") return false;
    const up = el.parentElement;
    return !up || view.getComputedStyle(up).cursor !== "pointer";
  };
  // scriptMenuItem reports an item of a menu a script draws and listens to as a whole (a
  // file manager's context menu: <li class="menu-item"><label>Rename</label></li> in a
  // shown <ul class="menu">, its clicks heard by the list or the document): its class
  // says it is a menu's item, and a box around it says it is a menu.
  const MENU_ITEM = /(^|\s)(menu-item|menu__item|menuitem|context-menu-item|dropdown-item|popup-menu-item)(\s|$)/i;
  const scriptMenuItem = (el) => MENU_ITEM.test(typeof el.className === "string" ? el.className : "") &&
    !!el.parentElement && /(^|[\s_-])(menu|dropdown|popup)([\s_-]|$)/i.test(typeof el.parentElement.className === "string" ? el.parentElement.className : "");
  const collect = (root, dx, dy, frame) => {
    for (const el of root.querySelectorAll(SELECTOR)) candidates.push({ el, dx, dy, frame });
    for (const l of root.querySelectorAll("label[for]")) {
      const g = l.htmlFor && root.querySelector ? root.querySelector("#" + CSS.escape(l.htmlFor)) : null;
      if (g && !/^(INPUT|SELECT|TEXTAREA|BUTTON|METER|OUTPUT|PROGRESS)$/.test(g.tagName) && !g.matches(SELECTOR) &&
          g.querySelectorAll("input[type=radio]").length > 1 && !labelledGroups.has(g)) {
        labelledGroups.add(g);
        candidates.push({ el: g, dx, dy, frame });
      }
    }
    const win = (root.ownerDocument || root).defaultView || window;
    const marks = win.__webagentClicks;
    for (const el of root.querySelectorAll("*")) {
      if (!el.matches(SELECTOR) && (clickable(el, marks) || scriptMenuItem(el))) candidates.push({ el, dx, dy, frame, weak: true });
      if (el.shadowRoot) collect(el.shadowRoot, dx, dy, frame);
      if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (!doc || !doc.documentElement) continue; // cross-origin: not ours to read
        const r = el.getBoundingClientRect();
        const fx = dx + r.left + el.clientLeft, fy = dy + r.top + el.clientTop;
        frames.push(el);
        // A frame's nodes are kept in its own window: actions must run in their frame.
        doc.defaultView.__webagentLocal = {};
        collect(doc, fx, fy, el);
      }
    }
  };
  collect(document, 0, 0, null);

  // deepHit finds what a click at (x, y) of the top viewport reaches, through shadow roots
  // and same-origin iframes.
  const deepHit = (x, y) => {
    let doc = document, hit = document.elementFromPoint(x, y);
    for (let i = 0; hit && i < 20; i++) {
      if (hit.shadowRoot) {
        const inner = hit.shadowRoot.elementFromPoint(x, y);
        if (inner && inner !== hit) { hit = inner; continue; }
      }
      if ((hit.tagName === "IFRAME" || hit.tagName === "FRAME")) {
        let inner = null;
        try { inner = hit.contentDocument; } catch (e) { inner = null; }
        if (inner) {
          const r = hit.getBoundingClientRect();
          x -= r.left + hit.clientLeft; y -= r.top + hit.clientTop;
          doc = inner;
          const h = inner.elementFromPoint(x, y);
          if (h) { hit = h; continue; }
        }
      }
      break;
    }
    return hit;
  };
  // inside reports whether node is el or within it, across shadow boundaries.
  const inside = (node, el) => {
    for (let n = node; n; n = n.parentNode || n.host) if (n === el) return true;
    return false;
  };

  // One control a person sees is one candidate: a weak candidate with a candidate inside
  // it (a clickable card around its buttons, a row around its link) gives way to what is
  // inside, and so does any control that only wraps one of the same name (a tree item
  // around its link).
  const inCandidates = new Set(candidates.map((c) => c.el));
  const weakOnes = new Set(candidates.filter((c) => c.weak).map((c) => c.el));
  const nameKey = (el) => clean(el.innerText || el.textContent || el.getAttribute("aria-label"), 200).toLowerCase();
  // A small card with text of its own (an email in a list: its sender and subject beside
  // its star and trash icons) is a control too, and it stays.
  // One heading is the card's own title when it comes first and holds no control (a
  // workflow in a list: its name as a heading, then its tags, its owner and its "⋮"); a
  // box with more headings, or one further in, is a section of the page.
  const titled = (el) => {
    const heads = el.querySelectorAll("h1, h2, h3, h4, h5, h6");
    if (heads.length !== 1 || [...inCandidates].some((d) => heads[0].contains(d))) return false;
    const all = clean(el.innerText || el.textContent, 400), head = clean(heads[0].innerText || heads[0].textContent, 200);
    return head !== "" && all.startsWith(head);
  };
  const card = (c, found) => {
    // The controls a person sees in it: not one the page hides, nor a box that only
    // holds another (a span with a handler around the "⋮" button).
    const inner = found.filter((d) => d.getClientRects().length > 0 && !found.some((o) => o !== d && d.contains(o)));
    const title = c.el.querySelector("h1, h2, h3, h4, h5, h6") ? titled(c.el) : null;
    if (title === false || inner.length > (title ? 6 : 3) || /^(SECTION|MAIN|FORM|NAV|UL|OL|TABLE|BODY|HTML|ARTICLE|ASIDE|HEADER|FOOTER)$/.test(c.el.tagName)) return false;
    const all = clean(c.el.innerText || c.el.textContent, 400);
    if (all.length > 300) return false;
    let own = all.toLowerCase();
    for (const d of inner) { const k = nameKey(d); if (k) own = own.replace(k, " "); }
    return own.replace(/\s+/g, "").length >= 3;
  };
  // A tab, menu item or option the page writes as a list item around its link is one
  // control: the link, which takes the click, carries the item's role and state.
  const ITEMS = new Set(["tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem"]);
  const LISTS = new Set(["listbox", "combobox"]);
  const roleOf = (el) => axRole(el) || (el.isContentEditable && !el.getAttribute("role") ? "textbox" : "") ||
    clean(el.getAttribute("role")).split(" ")[0] || implicitRole(el);
  const carried = new Map();
  const wraps = (c) => {
    const inner = [];
    for (const d of c.el.querySelectorAll("*")) {
      if (!inCandidates.has(d) || d === c.el) continue;
      // A box with a handler around a card of the same words (a list's draggable
      // wrapper) is that card.
      // A list drawn as a box (a toolkit's select: a table of role listbox) shows its
      // chosen option inside it by the same words: the list stays, the control a label
      // names and a choice is made in.
      if ((!c.weak || weakOnes.has(d)) && nameKey(d) === nameKey(c.el) && nameKey(d) !== "" && !(LISTS.has(roleOf(c.el)) && roleOf(d) === "option")) {
        if (ITEMS.has(roleOf(c.el))) carried.set(d, c.el);
        return true;
      }
      inner.push(d);
    }
    return c.weak && inner.length > 0 && !card(c, inner);
  };
  const kept = candidates.filter((c) => !wraps(c));
  const cards = new Set(kept.filter((c) => c.weak).map((c) => c.el));

  // currentMark reports a control the page marks as the one it shows now: aria-current
  // (a page, a step, a location), a tab selected, or a navigation's item written as the
  // active one by its class ("nav-item active", "current", "selected"): a click on it can
  // only lead where the page already is.
  const CURRENT = /^(active|current|selected|is-active|is-current|is-selected|router-link-exact-active)$/;
  const currentMark = (el) => {
    const cur = (el.getAttribute("aria-current") || "").toLowerCase();
    if (cur && cur !== "false") return true;
    const role = el.getAttribute("role");
    if (role === "tab") return el.getAttribute("aria-selected") === "true";
    if (!/^(A|BUTTON)$/.test(el.tagName) && role !== "link" && role !== "menuitem") return false;
    if (!el.closest("nav,[role=navigation],[role=tablist],[role=menubar],.nav,.navbar,.tabs,.nav-tabs,.nav-pills,.menu,#menu,#nav,#navbar")) return false;
    const marked = (x) => !!x && [...x.classList].some((c) => CURRENT.test(c));
    const li = el.parentElement && el.parentElement.tagName === "LI" ? el.parentElement : null;
    return marked(el) || marked(li);
  };

  // destOf is where a control leads: a link's address, a submit button's form (method,
  // action, hidden fields and the button's own name and value). Two controls alike in
  // role, name and destination are one control shown twice (a toolbar repeated below a
  // page). A link that leads nowhere of its own ("#", javascript:) has no destination: what
  // it does is its script's, which the page does not tell.
  // It is kept as a digest: an address or a form's hidden fields may carry what a run
  // typed (a search) or a session's token, which no observation stores.
  const digest = (s) => {
    let d = 2166136261 >>> 0;
    for (let k = 0; k < s.length; k++) { d ^= s.charCodeAt(k); d = Math.imul(d, 16777619) >>> 0; }
    return d.toString(16);
  };
  const destOf = (el) => {
    if (el.tagName === "A") {
      const href = el.getAttribute("href") || "";
      if (!href || href === "#" || /^javascript:/i.test(href)) return "";
      return digest(el.href);
    }
    const type = (el.getAttribute("type") || (el.tagName === "BUTTON" ? "submit" : "")).toLowerCase();
    if (!["BUTTON", "INPUT"].includes(el.tagName) || !["submit", "image"].includes(type) || !el.form) return "";
    const hidden = Array.from(el.form.querySelectorAll("input[type=hidden]")).map((h) => h.name + "=" + h.value).join("&");
    return digest(["form", el.formMethod || el.form.method, el.formAction || el.form.action, hidden, (el.name || "") + "=" + (el.value || "")].join(" "));
  };

  // sectionOf is the heading of the section the element is in: the nearest heading before
  // it among its own and its boxes' earlier siblings ("Set permission" over the form under
  // it, "Networks" over a list and its "Add" link). A person says a control is "in the
  // Networks section" or "under Set permission".
  const HEADINGS = "h1, h2, h3, h4, h5, h6, legend, [role=heading]";
  // titleRow is a table row that titles the rows after it, as pages laid out in tables
  // write a section's heading: one cell across the table, words and no control.
  const titleRow = (c) => c.tagName === "TR" && c.cells.length === 1 && c.cells[0].colSpan > 1 &&
    !c.querySelector("input, select, textarea, button, a[href]") && clean(c.innerText).length <= 80;
  const sectionOf = (el) => {
    let child = el;
    for (let p = el.parentElement, i = 0; p && child !== el.ownerDocument.body && i < 10; child = p, p = p.parentElement, i++) {
      let n = 0;
      for (let c = child.previousElementSibling; c && n < 20; c = c.previousElementSibling, n++) {
        const h = c.matches(HEADINGS) || titleRow(c) ? c : null;
        if (h) { const t = clean(h.innerText || h.textContent, 80); if (t) return t; }
      }
    }
    return "";
  };

  // groupLabel is the label a form draws beside its one control without tying it (a
  // <label for> whose id is on nothing, Bootstrap's form-group): the nearest box around
  // the control that holds no other visible control and one label that names no control
  // of its own. Its words name the control, as a person reads the form.
  // prompt is the words a list shows to ask for a choice ("Choose an action", "-- Select
  // a country --"), or "".
  const prompt = (t) => {
    const p = clean(t).replace(/^-+\s*|\s*-+$/g, "");
    return /^(choose|select|pick)\b/i.test(p) && p.length <= 40 ? p : "";
  };

  const groupLabel = (el) => {
    const controls = "input:not([type=hidden]), select, textarea, button";
    for (let p = el.parentElement, i = 0; p && i < 4 && p !== el.ownerDocument.body; p = p.parentElement, i++) {
      if (Array.from(p.querySelectorAll(controls)).some((c) => c !== el && !el.contains(c) && shown(c))) return "";
      const free = Array.from(p.querySelectorAll("label")).filter((l) => !l.control && !l.contains(el) &&
        (l.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
      if (free.length > 1) return "";
      if (free.length === 1) {
        const t = clean(free[0].innerText || free[0].textContent, 60);
        return t.length <= 40 ? t.replace(/:$/, "") : "";
      }
    }
    return "";
  };

  // LINE_ENDS are what ends the words of a field's own line, read sibling by sibling from
  // it: another control, a line break or a block.
  const LINE_ENDS = "input, select, textarea, button, br, hr, p, div, li, tr, td, table, ul, ol, h1, h2, h3, h4, h5, h6, legend, label, fieldset, section";
  // shortWords reports whether t may name a field: a few words, not a sentence.
  const shortWords = (t) => !!t && t.length <= 40 && !/[.!?]\s*$/.test(t);

  // wordsAfter is the text just after el on its own line, up to the next control or line
  // break: short words, not a sentence; "" when there are none.
  const wordsAfter = (el) => {
    let after = "";
    for (let n = el.nextSibling; n; n = n.nextSibling) {
      if (n.nodeType === 3) { after += n.textContent; continue; }
      if (n.nodeType !== 1) continue;
      if (n.matches(LINE_ENDS) || n.querySelector("input, select, textarea, button")) break;
      after += n.innerText || n.textContent;
    }
    after = clean(after);
    return shortWords(after) ? after.replace(/:$/, "") : "";
  };

  // outerTable is the outermost table el is in, or null.
  const outerTable = (el) => {
    let top = null;
    for (let t = el.closest("table"); t; t = t.parentElement && t.parentElement.closest("table")) top = t;
    return top;
  };

  // leadWords are the words a cell begins with, before its first control or the line
  // break after them: short words, or "".
  const leadWords = (cell, controls) => {
    let words = "";
    for (const n of cell.childNodes) {
      if (n.nodeType === 1 && (n.matches(controls) || n.querySelector(controls) || n.matches("br, p, div, hr"))) break;
      if (n.nodeType === 1 || n.nodeType === 3) words += n.textContent;
    }
    words = clean(words);
    return shortWords(words) ? words.replace(/:$/, "") : "";
  };

  // nearbyText names a field with no label by the text just left of it or just above it,
  // as a person reads a form.
  const nearbyText = (el, inViewport) => {
    const r = el.getBoundingClientRect();
    const doc = el.ownerDocument;
    const probe = (x, y) => {
      if (x < 0 || y < 0) return "";
      const hit = doc.elementFromPoint(x, y);
      if (!hit || hit === el || hit.contains(el) || el.contains(hit) || hit === doc.body || hit === doc.documentElement) return "";
      if (landmarkOf(hit) !== landmarkOf(el)) return "";
      if (hit.matches && hit.matches("input, select, textarea, button")) return "";
      // A label is short: a paragraph above the field (an instruction, a heading with
      // a sentence) names nothing.
      const t = clean(hit.innerText || hit.textContent, 400);
      return shortWords(t) ? t : "";
    };
    // The words just before it in its own paragraph ("Name of new wiki page: [field]",
    // "[Expire sessions] with idle ≥ [field] minutes"), back to the control or the line
    // break before them: nearer than anything a probe to its left may reach past them, and
    // read out of the viewport too, where no point can be probed.
    // A field alone on its line reads the line just above it: "Title:<br>[field]".
    let before = "", above = false;
    for (let n = el.previousSibling; n; n = n.previousSibling) {
      if (n.nodeType === 3) { before = n.textContent + before; continue; }
      if (n.nodeType !== 1) continue;
      if (n.matches("br") && !above && !clean(before)) { above = true; continue; }
      if (n.matches(LINE_ENDS) || n.querySelector("input, select, textarea, button")) break;
      before = (n.innerText || n.textContent) + before;
    }
    before = clean(before);
    if (shortWords(before)) return before.replace(/:$/, "");
    // A tall box (a text area, a list shown open) has its label beside its first line.
    const midY = r.height > 60 ? r.top + 14 : r.top + r.height / 2;
    // Leftwards, past the controls beside it in its row (a form that puts a function's
    // list between a column's name and its field): the words that name the row name both.
    // Never out of the field's own table: a menu beside a form names none of its fields.
    const row = el.closest("tr"), table = outerTable(el);
    for (let x = r.left - 8, n = 0; inViewport && x >= 0 && n < 8 && r.left - x <= 400; n++) {
      const hit = doc.elementFromPoint(x, midY);
      if (table && hit && !table.contains(hit)) break;
      const controls = "input, select, textarea, button";
      // A control, or the cell that holds one (a list's options are text too): passed over,
      // but for the words that begin a cell of its row before a control of that cell (a
      // setting's name above its "Override" box names the setting's field beside it).
      if (hit && hit !== el && !hit.contains(el) && hit.matches && (hit.matches(controls) || hit.querySelector(controls))) {
        const cell = hit.closest("td, th");
        const lead = cell && row && cell.parentElement === row && !cell.contains(el) ? leadWords(cell, controls) : "";
        if (lead) return lead;
        x = hit.getBoundingClientRect().left - 8;
        continue;
      }
      const t = probe(x, midY);
      if (t) return t.replace(/:$/, "");
      x -= n < 3 ? 16 : 48;
    }
    // Above it, within its own table row: the row above is another item (a list's filter
    // row names no user's checkbox).
    for (const dy of inViewport ? [6, 16, 28] : []) {
      const x = r.left + Math.min(8, r.width / 2), y = r.top - dy;
      const hit = row && x >= 0 && y >= 0 ? doc.elementFromPoint(x, y) : null;
      if (row && (!hit || hit.closest("tr") !== row)) continue;
      const t = probe(x, y);
      if (t) return t.replace(/:$/, "");
    }
    // Below the fold no point can be probed: the box just before the field's own box in
    // its row (a grid's label cell), with words and no control of its own, names it as
    // it would in sight.
    if (!inViewport) {
      const controls = "input, select, textarea, button";
      for (let a = el, up = 0; a && a.parentElement && up < 6; a = a.parentElement, up++) {
        // The field with its own small buttons (add a value, remove it) is still one field.
        if (a !== el && a.querySelectorAll("select, textarea, input:not([type=button]):not([type=submit]):not([type=image])").length > 1) break;
        const prev = a.previousElementSibling;
        if (!prev) continue;
        if (prev.matches(controls) || prev.querySelector(controls)) break;
        const t = clean(prev.innerText || prev.textContent, 400);
        if (shortWords(t)) return t.replace(/:$/, "");
        if (t) break;
      }
    }
    return "";
  };

  // underSuggestions: a field under the list of suggestions the focused field opened (an
  // autocomplete's list over the next field of the form). A person tabs past the list to
  // it; the field is there, and typing reaches it without a click.
  const underSuggestions = (el, hit) => {
    const act = el.ownerDocument.activeElement;
    if (!["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) || !act || act === el || !["INPUT", "TEXTAREA"].includes(act.tagName)) return false;
    const list = hit.closest("[role=listbox],ul,ol");
    return !!list && !list.contains(el) && (list.contains(act) || (!!list.parentElement && list.parentElement.contains(act)) ||
      (act.getAttribute("aria-controls") || act.getAttribute("aria-owns") || "").split(/\s+/).includes(list.id));
  };

  // scrolledAway: the element's centre is outside a box it is in that scrolls its content
  // that way. A box that only clips that way (a collapsed section of a side menu: no height,
  // overflow-y hidden, whose overflow-x therefore computes to auto) hides it: no scroll
  // brings it into sight, and what a click there reaches is something else.
  const scrollsMemo = new Map();
  const scrolls = (p) => {
    let v = scrollsMemo.get(p);
    if (v === undefined) {
      const st = getComputedStyle(p);
      v = { x: /(auto|scroll)/.test(st.overflowX), y: /(auto|scroll)/.test(st.overflowY) };
      scrollsMemo.set(p, v);
    }
    return v;
  };
  const scrolledAway = (el) => {
    const r = el.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    for (let p = el.parentElement; p && p !== el.ownerDocument.body && p !== el.ownerDocument.documentElement; p = p.parentElement) {
      const s = scrolls(p);
      if (!s.x && !s.y) continue;
      const b = p.getBoundingClientRect();
      if ((s.x && b.width >= 1 && (cx < b.left || cx > b.right)) || (s.y && b.height >= 1 && (cy < b.top || cy > b.bottom))) return true;
    }
    return false;
  };

  const vw = window.innerWidth, vh = window.innerHeight;
  const seen = new Set();
  const elements = [];
  const nodes = [];
  for (const { el, dx, dy, frame, weak } of kept) {
    if (seen.has(el)) continue;
    seen.add(el);
    // node is what a person sees and acts on: the element, or a hidden box's label.
    let node = el;
    // A box made transparent over its own label (a menu's "More" drawn as a label, the
    // box on top of it taking the click) is itself what a person clicks.
    let clear = false;
    if (hiddenBox(el)) {
      clear = overItsLabel(el);
      node = clear ? el : standIn(el);
      if (!node) continue;
    }
    // A file field the page makes transparent over its own button ("Import") is that
    // button: it takes the click, and the button it covers names it.
    const fileOver = el.tagName === "INPUT" && el.type === "file" && getComputedStyle(el).opacity === "0" && fileButton(el);
    if (!fileOver && !clear && !shown(node)) continue;
    const r = node.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const left = r.left + dx, top = r.top + dy;
    // Placed wholly before the page's start (left: -9999em, a list's row actions until the
    // row is hovered): no scroll brings it into sight.
    if (left + scrollX + r.width <= 0 || top + scrollY + r.height <= 0) continue;
    const cx = left + r.width / 2, cy = top + r.height / 2;
    let inViewport = cx >= 0 && cy >= 0 && cx < vw && cy < vh;
    if (inViewport && scrolledAway(el)) {
      // Out of sight in a box that scrolls (a feed, a list): it is there, a scroll away,
      // not covered.
      inViewport = false;
    }
    if (inViewport) {
      const hit = deepHit(cx, cy);
      // Covered: what a click at its centre would reach is neither it nor inside it. A
      // control inside its own label counts as itself.
      if (hit && !inside(hit, node) && !(hit.tagName === "LABEL" && inside(el, hit)) && !underSuggestions(el, hit)) continue;
    }
    const carrier = carried.get(el);
    let role = roleOf(carrier || el);
    // A slider's handle a widget library draws (jQuery UI's, noUiSlider's) without the
    // ARIA role is a slider all the same.
    if ((role === "generic" || role === "clickable") && /(^|[\s_-])(slider[-_]{0,2}handle|slider[-_]{0,2}thumb|noUi-handle)(\s|$)/i.test(el.className || "")) role = "slider";
    if (weak && role === "generic") role = scriptMenuItem(el) ? "menuitem" : "clickable";
    const tag = el.tagName.toLowerCase();
    let label = labelOf(el);
    // A box with a label of its own that says nothing (a styled circle) is named by none:
    // the text near it belongs to something else (the row above).
    const boxLabelled = el.labels && el.labels.length > 0 && /^(checkbox|radio)$/i.test(el.type || "");
    // A box with no label at all is named by the words just after it on its line, as a
    // form writes one ("[ ] Remember me", "( ) Yearly"): not by the words before it (the
    // box before's) nor by its group's name (that names the group).
    if (!label && !boxLabelled && tag === "input" && /^(checkbox|radio)$/i.test(el.type || "") && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby")) {
      label = wordsAfter(el);
    }
    if (!label && ["input", "select", "textarea"].includes(tag) && !/^(submit|reset|button|image|hidden)$/.test(el.type || "") &&
      !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby")) {
      label = groupLabel(el);
    }
    // A list with no label of its own that asks to be chosen from ("Choose an action",
    // its first option, selected, worth nothing) is named by that prompt, the words a
    // person reads on it, before any words near it.
    if (!label && tag === "select" && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby") && el.selectedIndex === 0 && el.options.length > 1 &&
      /^(|0|-1|none)$/i.test(el.options[0].value)) {
      label = prompt(el.options[0].text);
    }
    if (!label && ["input", "select", "textarea"].includes(tag) && !/^(submit|reset|button|image|hidden|checkbox|radio)$/.test(el.type || "") &&
      !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby")) {
      label = rowHead(el);
    }
    if (!label && el.isContentEditable && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby")) label = editorLabel(el);
    if (!label && !boxLabelled && ["input", "select", "textarea"].includes(tag) && !/^(submit|reset|button|image)$/.test(el.type || "") && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby") && !frame &&
      (inViewport || !el.getAttribute("placeholder"))) {
      // Below the fold, only the words before it in the page can name it, and they are
      // not read over the placeholder it shows of its own.
      label = nearbyText(el, inViewport);
    }
    // A list a script draws as a button that shows its choice (bootstrap-select's, over
    // the <select> it hides) is named by its label, as the list it stands for would be,
    // not by the choice it shows: that is its value.
    const drawnList = role === "combobox" && !["input", "select", "textarea"].includes(tag) &&
      !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby") && !label;
    if (drawnList) label = groupLabel(el) || prompt(textOf(el)) || (!frame ? nearbyText(el, inViewport) : "");
    const type = tag === "input" ? (el.getAttribute("type") || "text").toLowerCase() : "";
    const secret = type === "password" || el.getAttribute("autocomplete") === "one-time-code";
    const fb = fileOver ? fileButton(el) : null;
    const e = {
      index: elements.length,
      tag, role,
      name: fb ? axName(fb) || nameOf(fb, labelOf(fb)) || textOf(fb) : (type !== "file" && axName(el)) || nameOf(el, label),
      text: textOf(el),
      box: { x: Math.round(left + scrollX), y: Math.round(top + scrollY), w: Math.round(r.width), h: Math.round(r.height) },
    };
    // What an icon font draws names nothing; a control that is only an icon keeps the
    // icon's word as its name, as a person would call the picture.
    const icons = iconsIn(fb || el), drawn = pseudoIn(fb || el);
    if (icons.length && e.name && squeeze(e.name) === squeeze(clean((fb || el).textContent))) {
      const plain = plainText(fb || el, icons);
      if (plain) e.name = plain;
    }
    if (drawn.length && e.name) {
      const name = withoutWords(e.name, drawn);
      if (name) e.name = name;
    }
    if (type) e.type = type;
    if (label) e.label = label;
    if (drawnList && label) { e.value = e.name; e.name = label; }
    const ph = clean(el.getAttribute("placeholder")); if (ph) e.placeholder = ph;
    const ti = clean(el.getAttribute("title")); if (ti) e.title = ti;
    if (!e.name && !label && !ph && !ti && /^(input|textarea|select)$/.test(tag) && !el.getAttribute("aria-label")) {
      const pr = promptOf(el); if (pr) e.prompt = pr;
    }
    if (el.id) e.id = el.id;
    const hints = clean([hintsOf(el)].concat(icons.map((n) => n.textContent.trim()), drawn).join(" "), 200); if (hints) e.hints = hints;
    if (tag === "select") {
      e.value = clean(el.selectedOptions[0] ? el.selectedOptions[0].label : "");
      e.options = Array.from(el.options).slice(0, 30).map((o) => clean(o.label, 60));
    } else if ("value" in el && tag !== "button" && type !== "checkbox" && type !== "radio") {
      e.value = secret ? (el.value ? "••••" : "") : clean(String(el.value), 200);
    } else if (el.hasAttribute("aria-valuenow")) {
      // A slider or spin button the page draws says its value so.
      e.value = clean(el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow"));
    }
    if (secret) e.secret = true;
    if (type === "checkbox" || type === "radio") e.checked = el.checked;
    else if (el.hasAttribute("aria-checked")) e.checked = el.getAttribute("aria-checked") === "true";
    if (el.hasAttribute("aria-expanded")) e.expanded = el.getAttribute("aria-expanded") === "true";
    if (el.hasAttribute("aria-selected")) e.selected = el.getAttribute("aria-selected") === "true";
    else if (carrier && carrier.hasAttribute("aria-selected")) e.selected = carrier.getAttribute("aria-selected") === "true";
    const dest = destOf(el); if (dest) e.dest = dest;
    if (el.tagName === "A" && !!dest && el.href.split("#")[0] === el.ownerDocument.location.href.split("#")[0]) e.here = true;
    if (currentMark(carrier || el)) e.here = true;
    if (el.disabled || el.getAttribute("aria-disabled") === "true") e.disabled = true;
    if (!inViewport) e.offscreen = true;
    if (el === el.ownerDocument.activeElement || (el.getRootNode().activeElement === el)) e.focused = true;
    if (frame) e.frame = clean(frame.getAttribute("title") || frame.id || frame.getAttribute("src"), 80);
    if (el.getRootNode() instanceof ShadowRoot) e.shadow = true;
    const ctx = contextOf(el);
    if (ctx.container) e.container = ctx.container;
    const band = bandOf(el); if (band) e.band = band;
    if (ctx.row) e.row = ctx.row;
    const column = columnOf(el); if (column) e.column = column;
    const section = sectionOf(el); if (section) e.section = section;
    if (node !== el) e.standIn = "label";
    elements.push(e);
    nodes.push(node);
  }
  // More controls than the cap: keep what a person looks at first — an open dialog or
  // menu, then what is in the viewport, then the rest in page order — and say the list
  // was cut. The kept ones stay in page order and are numbered afresh.
  const truncated = elements.length > limit;
  let keep = elements.map((e, i) => i);
  if (truncated) {
    const rank = (e) => (/^(dialog|alertdialog|menu|listbox)\b/.test(e.container || "") ? 0 : e.offscreen ? 2 : 1);
    keep = keep.sort((a, b) => rank(elements[a]) - rank(elements[b]) || a - b).slice(0, limit).sort((a, b) => a - b);
  }
  const list = [];
  const live = [];
  for (const i of keep) {
    const e = elements[i], el = nodes[i];
    e.index = list.length;
    list.push(e);
    const local = el.ownerDocument !== document;
    live.push(local ? null : el);
    // A frame's nodes are kept in its own window: actions must run in their frame.
    if (local) el.ownerDocument.defaultView.__webagentLocal[e.index] = el;
  }
  // The live nodes, in the order of the returned list, for the actions that follow; null
  // for a node that lives in an iframe's window.
  window.__webagent = { nodes: live };
  // fingerprint: what a person would notice changing — the URL, the controls, their
  // states, places and sizes, the page's text (the frames' too) and how a rich-text box styles its text.
  let h = 2166136261 >>> 0;
  const mix = (s) => { for (let k = 0; k < s.length; k++) { h ^= s.charCodeAt(k); h = Math.imul(h, 16777619) >>> 0; } };
  mix(location.href);
  for (const e of elements) mix([e.role, e.name, e.value, e.checked, e.expanded, e.selected, e.disabled, e.box.x >> 3, e.box.y >> 3, e.box.w >> 3, e.box.h >> 3].join("|"));
  // A row marked as the one selected (a file manager's current file, a list's selected
  // item: by its class, as such pages mark it, or aria-selected) is a state a person sees,
  // however little of the page its colour covers.
  const ROW_MARK = /(^|[\s_-])(selected|current|is-selected|is-current)([\s_-]|$)/i;
  for (const el of live) {
    const row = el && el.closest ? el.closest("tr,li,[role=row],[role=option]") : null;
    if (row) mix(row.getAttribute("aria-selected") === "true" || ROW_MARK.test(typeof row.className === "string" ? row.className : "") ? "+" : "-");
  }
  mix(clean(document.body ? document.body.innerText : "", 20000));
  // A rich-text box's styles are what its words look like (a word made bold changes no
  // text): its markup is part of what a person sees.
  for (const el of live) if (el && el.isContentEditable) mix(el.innerHTML.slice(0, 20000));
  for (const f of frames) { try { mix(clean(f.contentDocument.body.innerText, 5000)); } catch (err) { /* gone */ } }
  // blocks: the text a person reads first — headings, and what the page announces (alerts,
  // status lines and toasts, error messages) — wherever it sits, for the model; capped.
  const blocks = [], taken = [];
  const kindOf = (el) => {
    const role = el.getAttribute("role") || "", live = el.getAttribute("aria-live") || "";
    if (/^h[1-3]$/i.test(el.tagName) || role === "heading") return "heading";
    if (role === "alert" || live === "assertive") return "alert";
    if (role === "status" || live === "polite" || /toast|snackbar|notification/i.test(el.className)) return "status";
    return "error";
  };
  for (const el of document.querySelectorAll("h1,h2,h3,[role=heading],[role=alert],[role=status],[aria-live=polite],[aria-live=assertive]," +
      "[class*=toast],[class*=snackbar],[class*=error-message],[class*=errorMessage],.error,.invalid-feedback")) {
    if (blocks.length >= 16) break;
    if (taken.some((t) => t.contains(el))) continue;
    const r = el.getBoundingClientRect();
    const text = clean(el.innerText, 200);
    if (!text || r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
    const b = { kind: kindOf(el), text };
    if (r.bottom <= 0) b.where = "above"; else if (r.top >= vh) b.where = "below";
    blocks.push(b);
    taken.push(el);
  }
  return {
    url: location.href, title: document.title, elements: list, truncated, total: elements.length, blocks,
    fingerprint: h.toString(16), scrollX: Math.round(scrollX), scrollY: Math.round(scrollY),
    scrollMax: Math.max(0, Math.round(document.documentElement.scrollHeight - vh)),
  };
}
