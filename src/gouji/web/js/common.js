// Small helpers shared by the pages: storage, toasts, element building.
const NAME_KEY = "gouji.name";
const ROOMS_KEY = "gouji.rooms";

/** localStorage that never throws (storage may be off): null when unavailable. */
export function lsGet(k) {
  try {
    return localStorage.getItem(k);
  } catch (e) {
    return null;
  }
}

/** Store `v` under `k` (null removes it); nothing happens where storage is off. */
export function lsSet(k, v) {
  try {
    if (v === null) localStorage.removeItem(k);
    else localStorage.setItem(k, v);
  } catch (e) {
    /* storage unavailable */
  }
}

export function loadName() {
  return lsGet(NAME_KEY) || "";
}

export function saveName(name) {
  if (name) lsSet(NAME_KEY, name);
}

/**
 * {token, name} remembered for a room, so a reload reclaims the seat. A competition seat
 * link keeps its own (`seat` 0…5 of the invitation): two links of one table opened in one
 * browser each keep their player's seat instead of the second reclaiming the first.
 */
export function loadRoom(code, seat = null) {
  try {
    return JSON.parse(lsGet(roomKey(code, seat)) || "null") || {};
  } catch (e) {
    return {};
  }
}

function roomKey(code, seat) {
  return "gouji.room." + code + (seat === null ? "" : "#" + (seat + 1));
}

export function saveRoom(code, data, seat = null) {
  lsSet(roomKey(code, seat), JSON.stringify(data));
  const list = recentRooms().filter((c) => c !== code);
  list.unshift(code);
  lsSet(ROOMS_KEY, JSON.stringify(list.slice(0, 8)));
}

export function recentRooms() {
  try {
    const v = JSON.parse(lsGet(ROOMS_KEY) || "[]");
    return Array.isArray(v) ? v.filter((c) => typeof c === "string") : [];
  } catch (e) {
    return [];
  }
}

/** Build an element: el("div", {class: "x", onclick: f}, child, "text", …). */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(e.dataset, v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/**
 * Make `nodes` the children of `box`, keeping the children that have not changed (same HTML):
 * a button is not swapped under the pointer by a state that did not change it, and an
 * animation plays once, when its element first appears.
 */
export function patch(box, nodes) {
  const old = [...box.children];
  nodes.forEach((n, k) => {
    const o = old[k];
    if (o && o.outerHTML === n.outerHTML) return;
    if (o) box.replaceChild(n, o);
    else box.append(n);
  });
  for (const o of old.slice(nodes.length)) o.remove();
}

/** A short message at the bottom; a `key` replaces the earlier toast of that key. */
/** Remove the toasts of `key` (e.g. a hint once its decision is over). */
export function dropToasts(key) {
  const box = document.getElementById("toasts");
  if (box) for (const old of box.querySelectorAll(`[data-key="${key}"]`)) old.remove();
}

export function toast(message, kind = "info", ms = 4000, key = null) {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts", class: "toasts" });
    document.body.append(box);
  }
  if (key) for (const old of box.querySelectorAll(`[data-key="${key}"]`)) old.remove();
  const item = el("div", { class: "toast " + kind, role: kind === "error" ? "alert" : "status", dataset: key ? { key } : undefined }, message);
  box.append(item);
  setTimeout(() => item.remove(), ms);
}
