// The account links of a page's top bar (#account-box): 登录 / 注册 for a guest, the player's
// name (a link to their 战绩) when logged in, and the 排行榜. Loaded by the lobby as a module
// of its own and imported by the players' pages; it follows the page's language switch.
import { t } from "./i18n.js";
import { el, patch, saveName } from "./common.js";
import { me, playerUrl } from "./account-api.js";

let account = null;

/** Draw the box in the page's language (nothing where the page has none). */
export function renderAccountBox() {
  const box = document.getElementById("account-box");
  if (!box) return;
  const here = location.pathname;
  const items = [];
  if (account) {
    items.push(
      el("a", { id: "account-name", class: "account-name", href: playerUrl(account.name), title: t("my_record") }, account.name),
    );
  } else if (here !== "/account") {
    items.push(el("a", { id: "account-link", class: "account-link", href: "/account" }, t("sign_in")));
  }
  if (here !== "/leaderboard") {
    items.push(el("a", { id: "leaderboard-link", class: "account-link", href: "/leaderboard" }, t("leaderboard")));
  }
  patch(box, items);
}

/** Show `who` ({id, name} or null) from now on (after logging in or out on this page). */
export function showAccount(who) {
  account = who;
  renderAccountBox();
}

const lang = document.getElementById("lang");
if (lang) lang.addEventListener("click", () => setTimeout(renderAccountBox, 0)); // after the page switched
renderAccountBox();
me().then((who) => {
  showAccount(who);
  const name = document.getElementById("name"); // the lobby's: a player sits under the account's name
  if (who && name && name.tagName === "INPUT") {
    name.value = who.name;
    saveName(who.name);
  }
});
