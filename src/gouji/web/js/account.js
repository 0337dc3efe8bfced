// The account page (/account): sign up and log in for a guest; for an account holder the
// links to their 战绩 and the 排行榜, a new password, log out, and deleting the account (its
// games stay under 匿名玩家). Every refusal is said in the page's language by its code.
import { applyStatic, getLang, setLang, t } from "./i18n.js";
import { saveName } from "./common.js";
import { call, me, playerUrl, setMe } from "./account-api.js";
import { showAccount } from "./account-header.js";
import { refusalWords } from "./account-words.js";

const $ = (id) => document.getElementById(id);
const NAME_MIN = 2;
const NAME_MAX = 20; // accounts.py: NAME_MIN, NAME_MAX, PASSWORD_MIN, PASSWORD_MAX
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const NAME_CHAR = /^[\p{L}\p{N}\p{Mn}_\-·.]$/u; // accounts.account_name: isalnum, Mn or _-·.

let account = null; // {id, name} when logged in
let loaded = false;
/** What each message line says, as a function of the language (redrawn on a switch). */
const said = {};

function say(id, words, ok = false) {
  said[id] = words;
  const box = $(id);
  box.textContent = words ? words() : "";
  box.classList.toggle("ok", ok);
  if (id === "account-done") box.classList.toggle("hidden", !words);
}

function sayAll() {
  for (const [id, words] of Object.entries(said)) {
    if (words) $(id).textContent = words();
  }
}

/** The page's own check of a name (the server checks again): words, or null when fine. */
function nameProblem(raw) {
  const name = raw.normalize("NFKC").trim();
  const chars = [...name];
  if (chars.length < NAME_MIN || chars.length > NAME_MAX) return () => t("e_name_length", chars.length);
  const bad = chars.find((c) => !NAME_CHAR.test(c));
  return bad === undefined ? null : () => t("e_name_chars", bad === " " ? "␣" : bad);
}

function passwordProblem(password) {
  return password.length < PASSWORD_MIN || password.length > PASSWORD_MAX ? () => t("e_bad_password") : null;
}

function render() {
  applyStatic();
  document.title = t("account_title");
  $("guest-box").classList.toggle("hidden", !loaded || account !== null);
  $("me-box").classList.toggle("hidden", !loaded || account === null);
  $("me-name").textContent = account ? account.name : "";
  $("me-record").href = account ? playerUrl(account.name) : "/players/";
  $("password-user").value = account ? account.name : "";
  sayAll();
}

/** Logged in or out on this page: the page, the header and the lobby's remembered name. */
function become(who) {
  account = who;
  setMe(who);
  showAccount(who);
  if (who) saveName(who.name);
  for (const id of ["signup-password", "login-password", "old-password", "new-password", "delete-password"]) $(id).value = "";
  for (const id of ["signup-error", "login-error", "password-error", "delete-error"]) say(id, null);
  render();
}

/** Run `request` with the form's button disabled; a refusal is said under the form. */
async function submit(button, errorId, where, request) {
  say(errorId, null);
  $(button).disabled = true;
  try {
    await request();
  } catch (e) {
    if (e && e.code === "not_logged_in") {
      become(null); // the session ended elsewhere: log in again
      say("account-done", () => t("e_not_logged_in"));
    } else {
      say(errorId, () => refusalWords(e, where));
    }
  } finally {
    $(button).disabled = false;
  }
}

$("signup-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const name = $("signup-name").value;
  const password = $("signup-password").value;
  const problem = nameProblem(name) || passwordProblem(password);
  if (problem) {
    say("signup-error", problem);
    return;
  }
  submit("signup", "signup-error", "signup", async () => {
    const who = await call("POST", "/api/accounts", { name, password });
    become(who);
    say("account-done", () => t("signed_up", who.name), true);
  });
});

$("login-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const name = $("login-name").value;
  const password = $("login-password").value;
  if (!name.trim() || !password) {
    say("login-error", () => t("e_bad_request"));
    return;
  }
  submit("login", "login-error", "login", async () => {
    become(await call("POST", "/api/session", { name, password }));
    say("account-done", null);
  });
});

$("logout").addEventListener("click", () => {
  submit("logout", "account-done", "", async () => {
    await call("DELETE", "/api/session");
    become(null);
    say("account-done", () => t("logged_out"), true);
  });
});

$("password-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const old = $("old-password").value;
  const password = $("new-password").value;
  if (!old) {
    say("password-error", () => t("e_wrong_password"));
    return;
  }
  const problem = passwordProblem(password);
  if (problem) {
    say("password-error", problem);
    return;
  }
  submit("change", "password-error", "", async () => {
    await call("PUT", "/api/me/password", { old, new: password });
    $("old-password").value = "";
    $("new-password").value = "";
    say("password-error", () => t("changed"), true);
  });
});

$("delete-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const password = $("delete-password").value;
  if (!password) {
    say("delete-error", () => t("e_wrong_password"));
    return;
  }
  submit("delete", "delete-error", "", async () => {
    await call("DELETE", "/api/me", { password });
    become(null);
    say("account-done", () => t("deleted"), true);
  });
});

$("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  render();
});

window.gouji = {
  get account() {
    return account;
  },
  get loaded() {
    return loaded;
  },
};
render();
me().then((who) => {
  account = who;
  loaded = true;
  render();
});
