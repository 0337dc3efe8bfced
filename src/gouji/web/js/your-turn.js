// Your turn, even in another tab (docs/decisions.md D98). While the table's page is hidden
// (Page Visibility API) and a decision is the player's own, the tab's title and icon say so,
// and, if the player turned it on (the top bar's switch), a system notification too; the
// permission is asked only then. All goes back once the page is seen again. Nothing on
// 托管 (the server decides), nor for the page's automatic pass (自动过牌).
import { el, lsGet, lsSet, toast } from "./common.js";
import { getLang } from "./i18n.js";
import { table, whenTable } from "./state.js";

const NOTIFY_KEY = "gouji.notify";
const AUTO_KEY = "gouji.autopass"; // table-decisions.js's 自动过牌 switch
const TURN_ICON = "/static/icons/icon-turn.svg";

const WORDS = {
  zh: {
    title: "【轮到你了】{0}",
    on: "通知：开",
    off: "通知：关",
    hint: "轮到你、而这个页面不在眼前时，发一条系统通知",
    note_title: "轮到你了",
    note_body: "够级 房间 {0}：该你做决定了",
    denied: "浏览器没有允许通知：可在网站设置里打开",
    none: "这个浏览器不能发通知",
  },
  en: {
    title: "Your turn — {0}",
    on: "Notify: on",
    off: "Notify: off",
    hint: "A system notification when it is your turn and this page is out of sight",
    note_title: "Your turn",
    note_body: "Gouji room {0}: your decision",
    denied: "The browser does not allow notifications: allow them in the site's settings",
    none: "This browser cannot show notifications",
  },
};

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
const T = { marked: false, title: "", icons: [], was: false };

function w(key, arg = "") {
  return (WORDS[getLang()][key] || WORDS.en[key]).replace("{0}", arg);
}

/** Whether the page's seat has a decision to make now (as table.js offers it). */
export function myDecision(S) {
  const v = S.view;
  if (!v || S.seat === null || S.seat === undefined) return false;
  const seat = S.room && S.room.seats ? S.room.seats[S.seat] : null;
  if (seat && seat.trust) return false; // 托管 decides
  let acts = v.legal_actions || [];
  const m = v.match;
  if (!acts.length && m && m.prompt && m.prompt_to === S.seat) acts = [m.prompt];
  if (!acts.length) return false;
  const autoPass = lsGet(AUTO_KEY) !== "0";
  return !(autoPass && acts.length === 1 && acts[0] === "pass");
}

// ------------------------------------------------------------------ title and icon
function mark() {
  if (!T.marked) {
    T.title = document.title;
    T.icons = [...document.querySelectorAll('link[rel~="icon"]')].map((l) => [l, l.getAttribute("href"), l.getAttribute("type")]);
  }
  T.marked = true;
  document.title = w("title", T.title);
  for (const [l] of T.icons) {
    l.setAttribute("href", TURN_ICON);
    l.setAttribute("type", "image/svg+xml");
  }
}

function unmark() {
  if (!T.marked) return;
  T.marked = false;
  document.title = T.title;
  for (const [l, href, type] of T.icons) {
    l.setAttribute("href", href);
    if (type) l.setAttribute("type", type);
    else l.removeAttribute("type");
  }
}

// ------------------------------------------------------------------ the notification
function notifyOn() {
  return lsGet(NOTIFY_KEY) === "1" && "Notification" in window && Notification.permission === "granted";
}

function notify() {
  if (!notifyOn()) return;
  const title = w("note_title");
  const opts = {
    body: w("note_body", code),
    icon: "/static/icons/icon-192.png",
    tag: "gouji-turn-" + code,
    renotify: true,
    data: { url: location.pathname + location.search },
  };
  const plain = () => {
    try {
      const n = new Notification(title, opts);
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch (e) {
      /* a browser that shows them only through the service worker, and has none */
    }
  };
  if (navigator.serviceWorker && navigator.serviceWorker.controller) {
    navigator.serviceWorker.ready.then((reg) => reg.showNotification(title, opts)).catch(plain);
  } else plain();
}

/** The page is seen again: its notification is old news. */
function clearNotes() {
  if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return;
  navigator.serviceWorker.ready
    .then((reg) => reg.getNotifications({ tag: "gouji-turn-" + code }))
    .then((list) => list.forEach((n) => n.close()))
    .catch(() => {});
}

function toggleNotify() {
  if (lsGet(NOTIFY_KEY) === "1") {
    lsSet(NOTIFY_KEY, null);
    renderButton();
    return;
  }
  if (!("Notification" in window)) {
    toast(w("none"), "error");
    return;
  }
  const granted = (p) => {
    if (p === "granted") lsSet(NOTIFY_KEY, "1");
    else toast(w("denied"), "error", 6000);
    renderButton();
  };
  if (Notification.permission !== "default") granted(Notification.permission);
  else Promise.resolve(Notification.requestPermission()).then(granted, () => granted("denied"));
}

function renderButton() {
  const b = document.getElementById("notify");
  if (!b) return;
  const on = notifyOn();
  b.textContent = on ? w("on") : w("off");
  b.title = w("hint");
  b.classList.toggle("off", !on);
  b.setAttribute("aria-pressed", String(on));
  const S = table.state;
  b.classList.toggle("hidden", !("Notification" in window) || S.seat === null);
}

// ------------------------------------------------------------------ start
function onState() {
  const now = myDecision(table.state);
  if (now && document.hidden) {
    mark();
    if (!T.was) notify(); // it has just become the player's decision
  } else if (!now) unmark();
  T.was = now;
  renderButton();
}

function onVisibility() {
  if (!document.hidden) {
    unmark();
    clearNotes();
  } else if (myDecision(table.state)) mark(); // left while it is the player's turn
}

function start() {
  const lang = document.getElementById("lang");
  if (lang) {
    lang.before(el("button", { type: "button", id: "notify", class: "small off", onclick: toggleNotify }));
    lang.addEventListener("click", () => {
      renderButton();
      if (T.marked) document.title = w("title", T.title);
    });
  }
  table.listeners.push((msg) => {
    if (msg.type === "state" || msg.type === "welcome" || msg.type === "replaced") onState();
  });
  document.addEventListener("visibilitychange", onVisibility);
  renderButton();
}

whenTable(start);
