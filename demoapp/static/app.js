// The tracker's client: renders the server's state and drives the dialog, menu and toast.
"use strict";
const $ = (sel) => document.querySelector(sel);
let state = { projects: [] };
let tab = "active";
let menuFor = null;
let cfg = { actionsLabel: "Project actions", controlDelayMs: 1500 };
let toastTimer = null;

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

async function load() {
  state = await api("/api/state");
  render();
}

function render() {
  const rows = $("#rows");
  rows.textContent = "";
  const shown = state.projects.filter((p) => p.archived === (tab === "archived"));
  for (const p of shown) {
    const tr = document.createElement("tr");
    const name = document.createElement("td");
    name.textContent = p.name;
    const prio = document.createElement("td");
    const badge = document.createElement("span");
    badge.className = "badge " + p.priority;
    badge.textContent = p.priority;
    prio.append(badge);
    const vis = document.createElement("td");
    vis.textContent = p.private ? "Private" : "Team";
    const act = document.createElement("td");
    if (!p.archived) {
      const b = document.createElement("button");
      b.className = "kebab";
      b.setAttribute("aria-label", cfg.actionsLabel);
      b.setAttribute("aria-haspopup", "menu");
      b.setAttribute("aria-expanded", "false");
      b.textContent = "⋯";
      b.addEventListener("click", (e) => { e.stopPropagation(); openMenu(b, p.name); });
      act.append(b);
    }
    tr.append(name, prio, vis, act);
    rows.append(tr);
  }
  $("#empty").hidden = shown.length > 0;
  for (const [id, which] of [["#tab-active", "active"], ["#tab-archived", "archived"]]) {
    $(id).setAttribute("aria-selected", String(tab === which));
  }
}

function openDialog(id, focus) {
  $("#backdrop").hidden = false;
  $(id).hidden = false;
  $(focus).focus();
}

function closeDialogs() {
  $("#backdrop").hidden = true;
  $("#new-dialog").hidden = true;
  $("#rename-dialog").hidden = true;
  $("#new-error").hidden = true;
}

function openMenu(button, name) {
  const menu = $("#row-menu");
  if (menuFor === name && !menu.hidden) { closeMenu(); return; }
  closeMenu();
  menuFor = name;
  const r = button.getBoundingClientRect();
  menu.style.top = window.scrollY + r.bottom + 4 + "px";
  menu.style.left = window.scrollX + r.right - 140 + "px";
  menu.hidden = false;
  button.setAttribute("aria-expanded", "true");
}

function closeMenu() {
  $("#row-menu").hidden = true;
  document.querySelectorAll(".kebab[aria-expanded=true]").forEach((b) => b.setAttribute("aria-expanded", "false"));
}

function toast(text) {
  const t = $("#toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}

$("#new-project").addEventListener("click", () => {
  $("#new-form").reset();
  openDialog("#new-dialog", "#project-name");
});
$("#cancel").addEventListener("click", closeDialogs);
$("#rename-cancel").addEventListener("click", closeDialogs);
$("#backdrop").addEventListener("click", closeDialogs);
document.addEventListener("keydown", (e) => { if (e.key === "Escape") { closeDialogs(); closeMenu(); } });
document.addEventListener("click", (e) => { if (!$("#row-menu").contains(e.target)) closeMenu(); });

$("#new-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target;
  try {
    await api("/api/projects", { name: f.name.value, priority: f.priority.value, private: f.private.checked });
  } catch (err) {
    $("#new-error").textContent = err.message;
    $("#new-error").hidden = false;
    return;
  }
  closeDialogs();
  tab = "active";
  await load();
  toast("Project created");
});

$("#row-menu").addEventListener("click", async (e) => {
  const item = e.target.closest("[role=menuitem]");
  if (!item) return;
  const name = menuFor;
  closeMenu();
  if (item.dataset.action === "archive") {
    await api("/api/projects/archive", { name });
    await load();
    toast("Project archived");
  } else {
    $("#new-name").value = name;
    openDialog("#rename-dialog", "#new-name");
  }
});

$("#rename-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  await api("/api/projects/rename", { name: menuFor, newName: $("#new-name").value });
  closeDialogs();
  await load();
  toast("Project renamed");
});

$("#tab-active").addEventListener("click", () => { tab = "active"; render(); });
$("#tab-archived").addEventListener("click", () => { tab = "archived"; render(); });

api("/api/config").then((c) => {
  cfg = c;
  load();
  // The "Import" button appears only after a delay, like controls that wait for a slow API.
  setTimeout(() => {
    const b = document.createElement("button");
    b.id = "import";
    b.textContent = "Import";
    b.addEventListener("click", () => toast("Nothing to import"));
    $("#import-slot").append(b);
  }, cfg.controlDelayMs);
});
