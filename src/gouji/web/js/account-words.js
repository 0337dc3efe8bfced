// The words of the players' pages (账号 /account, 战绩 /players/NAME, 排行榜 /leaderboard) and
// of the account links in the lobby's header, in Chinese and English. A server refusal is
// said by its `error` code, never by the server's English message. `?lang=zh|en` in a page's
// address picks its language (and is remembered, as the language switch is).
import { getLang, setLang } from "./i18n.js";

const S = {
  zh: {
    lang_toggle: "English",
    brand: "够级",
    lobby: "大厅",
    // the header
    sign_in: "登录 / 注册",
    leaderboard: "排行榜",
    my_record: "我的战绩",
    // /account
    account_title: "够级 · 账号",
    account_h: "账号",
    signup_h: "注册",
    login_h: "登录",
    name: "名字",
    name_ph: "2 到 20 个字",
    name_hint: "牌桌上、战绩和排行榜上都显示这个名字。可以用汉字、字母、数字和 _-·.",
    password: "密码",
    password_ph: "至少 8 个字符",
    signup: "注册",
    login: "登录",
    working: "请稍候…",
    guest_note:
      "不注册也能玩：不登录就以游客身份进房间打牌。有了账号，战绩会记下来，还可以打排位、上排行榜。在这个浏览器里以游客身份打过的对局，会并入在这里新注册的账号。",
    logged_in_as: "已登录",
    logout: "退出登录",
    password_h: "修改密码",
    old_password: "当前密码",
    new_password: "新密码",
    change: "修改密码",
    changed: "密码已修改。其他设备上的登录都已退出。",
    delete_h: "注销账号",
    delete_note:
      "注销后，账号、密码和积分都会删除，这个名字别人以后可以再注册。你打过的对局仍然保留在牌局记录和回放里，名字改为「匿名玩家」。注销不能撤销。",
    delete_password: "输入密码确认注销",
    delete: "注销账号",
    deleted: "账号已注销。你打过的对局以「匿名玩家」的名字保留。",
    signed_up: "注册成功，欢迎 {0}！",
    logged_out: "已退出登录。",
    // refusals (by the server's error code) and the page's own checks
    e_bad_name: "名字要 2 到 20 个字，只能用汉字、字母、数字和 _-·.（「游客」「匿名玩家」等名字不能用）。",
    e_name_length: "名字要 2 到 20 个字（现在是 {0} 个）。",
    e_name_chars: "名字只能用汉字、字母、数字和 _-·.，不能用「{0}」。",
    e_bad_password: "密码要 8 到 128 个字符。",
    e_bad_request: "请填写名字和密码。",
    e_name_taken: "这个名字已经有人用了，换一个吧。",
    e_rate_limited: "这个网络一小时内注册的账号太多了，请过一会儿再试。",
    e_wrong_login: "名字或密码不对。",
    e_wrong_password: "密码不对。",
    e_too_many_attempts: "登录失败的次数太多，请 {0} 分钟后再试。",
    e_not_logged_in: "登录已过期，请重新登录。",
    e_network: "连不上服务器，请检查网络后再试。",
    e_server: "服务器出了问题（{0}），请稍后再试。",
    e_other: "没能完成（{0}），请稍后再试。",
    // /players/NAME
    player_title: "够级 · {0} 的战绩",
    record_h: "战绩",
    since: "{0} 注册",
    games_total: "共 {0} 局",
    no_games: "还没有记下的对局。登录后在牌桌上打完的每一局都会记在这里。",
    no_player_h: "没有这个玩家",
    no_player: "没有叫「{0}」的玩家。名字可能拼错了，或者账号已经注销。",
    loading: "正在读取…",
    games: "局数",
    games_n: "{0} 局",
    places: "名次",
    results: "胜负",
    won: "胜",
    drawn: "平",
    lost: "负",
    result_line: "{0} 胜 · {1} 平 · {2} 负",
    win_rate: "胜率 {0}",
    open_rate: "开点率",
    open_line: "{0} / {1} 局",
    open_line_1: "{0} / 1 局",
    burns: "烧牌",
    burns_line: "烧别人 {0} 次 · 被烧 {1} 次",
    men: "被闷",
    men_line: "{0} 次",
    men_line_1: "1 次",
    chuan: "串三户",
    chuan_line: "本队串 {0} 次 · 被串 {1} 次",
    rating: "积分",
    rating_line: "积分 {0}",
    rating_range: "实力估计 {0} ± {1}",
    provisional: "定级中",
    provisional_hint: "不到 {0} 局排位，积分还不稳定",
    rated_games: "排位 {0} 局",
    no_rating: "还没有打过这个规则的排位局。",
    chart_label: "积分走势",
    chart_start: "起点",
    chart_games: "第 {0} 局",
    recent_h: "最近的对局",
    col_when: "时间",
    col_preset: "规则",
    col_seat: "座位",
    col_place: "名次",
    col_result: "结果",
    col_points: "本队得分",
    col_replay: "回放",
    seat_n: "{0} 号",
    rated_tag: "排位",
    replay: "回放",
    // /leaderboard
    board_title: "够级 · 排行榜",
    board_h: "排行榜",
    board_preset: "规则",
    board_rule:
      "至少 {0} 局排位才上榜，按积分排名。积分是保守的实力估计：打得越多越准；不到 {1} 局的标「定级中」。每种规则单独排名。",
    board_empty: "这个规则还没有人上榜。在排位房间里打满 {0} 局，就会出现在这里。",
    col_rank: "名次",
    col_player: "玩家",
    col_rating: "积分",
    col_games: "局数",
  },
  en: {
    lang_toggle: "中文",
    brand: "Gouji",
    lobby: "Lobby",
    sign_in: "Log in / Sign up",
    leaderboard: "Leaderboard",
    my_record: "My record",
    account_title: "Gouji · Account",
    account_h: "Account",
    signup_h: "Sign up",
    login_h: "Log in",
    name: "Name",
    name_ph: "2 to 20 characters",
    name_hint: "Shown at the table, on your record and on the leaderboard. Letters, digits, Chinese characters and _-·.",
    password: "Password",
    password_ph: "at least 8 characters",
    signup: "Sign up",
    login: "Log in",
    working: "One moment…",
    guest_note:
      "You can play without an account: go into a room without logging in and you play as a guest. With an account your games are recorded, and you can play rated games and reach the leaderboard. The games you played as a guest in this browser join the account you sign up for here.",
    logged_in_as: "Logged in",
    logout: "Log out",
    password_h: "Change password",
    old_password: "Current password",
    new_password: "New password",
    change: "Change password",
    changed: "Password changed. You are logged out on your other devices.",
    delete_h: "Delete account",
    delete_note:
      "Deleting removes the account, its password and its ratings; somebody else may take the name later. The games you played stay in the game records and replays, under the name 匿名玩家 (anonymous player). This cannot be undone.",
    delete_password: "Your password, to confirm",
    delete: "Delete account",
    deleted: "Account deleted. Your games stay under the name 匿名玩家 (anonymous player).",
    signed_up: "Welcome, {0}! Your account is ready.",
    logged_out: "Logged out.",
    e_bad_name: "A name has 2 to 20 characters: letters, digits, Chinese characters and _-·. only (some names, like “guest”, are reserved).",
    e_name_length: "A name has 2 to 20 characters (this one has {0}).",
    e_name_chars: "A name holds letters, digits, Chinese characters and _-·. only, not “{0}”.",
    e_bad_password: "A password has 8 to 128 characters.",
    e_bad_request: "Please enter a name and a password.",
    e_name_taken: "That name is taken: please choose another.",
    e_rate_limited: "Too many accounts were made from this network in the last hour: please try again later.",
    e_wrong_login: "Wrong name or password.",
    e_wrong_password: "Wrong password.",
    e_too_many_attempts: "Too many failed log-ins: please try again in {0} minutes.",
    e_not_logged_in: "Your session has ended: please log in again.",
    e_network: "Cannot reach the server: check the connection and try again.",
    e_server: "The server had a problem ({0}): please try again later.",
    e_other: "That did not work ({0}): please try again later.",
    player_title: "Gouji · {0}'s record",
    record_h: "Record",
    since: "joined {0}",
    games_total: "{0} games",
    games_total_1: "1 game",
    no_games: "No games recorded yet. Every game you finish at a table while logged in is recorded here.",
    no_player_h: "No such player",
    no_player: "There is no player called “{0}”. The name may be misspelt, or the account was deleted.",
    loading: "Loading…",
    games: "Games",
    games_n: "{0} games",
    games_n_1: "1 game",
    places: "Places",
    results: "Results",
    won: "won",
    drawn: "drawn",
    lost: "lost",
    result_line: "{0} won · {1} drawn · {2} lost",
    win_rate: "{0} won",
    open_rate: "开点 rate",
    open_line: "{0} of {1} games",
    open_line_1: "{0} of 1 game",
    burns: "Burns",
    burns_line: "made {0} · suffered {1}",
    men: "Shut out (闷)",
    men_line: "{0} times",
    men_line_1: "once",
    chuan: "串三户",
    chuan_line: "by the team {0} · against it {1}",
    rating: "Rating",
    rating_line: "Rating {0}",
    rating_range: "skill estimate {0} ± {1}",
    provisional: "provisional",
    provisional_hint: "fewer than {0} rated games: the rating is still settling",
    rated_games: "{0} rated games",
    rated_games_1: "1 rated game",
    no_rating: "No rated games under these rules yet.",
    chart_label: "Rating over time",
    chart_start: "start",
    chart_games: "game {0}",
    recent_h: "Latest games",
    col_when: "When",
    col_preset: "Rules",
    col_seat: "Seat",
    col_place: "Place",
    col_result: "Result",
    col_points: "Team points",
    col_replay: "Replay",
    seat_n: "{0}",
    rated_tag: "rated",
    replay: "Replay",
    board_title: "Gouji · Leaderboard",
    board_h: "Leaderboard",
    board_preset: "Rules",
    board_rule:
      "Players with at least {0} rated games are listed, best rating first. The rating is a cautious estimate of skill that sharpens with every game; below {1} games it is marked provisional. Each rule set has its own list.",
    board_empty: "Nobody is listed under these rules yet. Play {0} games in rated rooms to appear here.",
    col_rank: "Rank",
    col_player: "Player",
    col_rating: "Rating",
    col_games: "Games",
  },
};

// ?lang=zh or ?lang=en: a link that says its language (remembered like the switch's choice)
const asked = new URLSearchParams(location.search).get("lang");
if (asked === "zh" || asked === "en") setLang(asked);

/** A string of the players' pages in the page's language; {0}, {1} … are the arguments. */
export function aw(key, ...args) {
  const table = S[getLang()] || S.en;
  const s = table[key] !== undefined ? table[key] : S.en[key] !== undefined ? S.en[key] : key;
  return s.replace(/\{(\d)\}/g, (_, i) => (args[+i] !== undefined ? String(args[+i]) : ""));
}

/** `key` said of `n` things: `key_1` where the language says one thing otherwise ("1 game",
 * not "1 games"); `n` is {0} and `args` {1} …. */
export function awn(key, n, ...args) {
  const table = S[getLang()] || S.en;
  return aw(Number(n) === 1 && table[key + "_1"] !== undefined ? key + "_1" : key, n, ...args);
}

/** Fill `data-a` (text) and `data-a-ph` (placeholder) elements; set the document's language. */
export function applyAccountWords(root = document) {
  for (const e of root.querySelectorAll("[data-a]")) e.textContent = aw(e.dataset.a);
  for (const e of root.querySelectorAll("[data-a-ph]")) e.placeholder = aw(e.dataset.aPh);
  document.documentElement.lang = getLang() === "zh" ? "zh-CN" : "en";
}

/** What a refusal says to the player: by its code (`where` tells a log-in's wrong password,
 * which may be the name, from a confirmation's), its status when the code is unknown. */
export function refusalWords(err, where = "") {
  const code = err && err.code;
  if (code === "wrong_password") return aw(where === "login" ? "e_wrong_login" : "e_wrong_password");
  if (code === "too_many_attempts") {
    const minutes = Math.max(1, Math.ceil((Number(err.retryAfter) || 900) / 60));
    return aw("e_too_many_attempts", minutes);
  }
  if (code && S.en["e_" + code] !== undefined) return aw("e_" + code);
  const status = Number(err && err.status) || 0;
  if (status === 0) return aw("e_network");
  if (status >= 500) return aw("e_server", status);
  return aw("e_other", status);
}

/** A date (and with `time`, the time of day) as the page's language writes it; with `short`,
 * without the year when it is this year's. */
export function when(epoch, time = false, short = false) {
  const d = new Date(Number(epoch) * 1000);
  if (Number.isNaN(d.getTime())) return "";
  const zh = getLang() === "zh";
  const opts = zh ? { month: "2-digit", day: "2-digit" } : { month: "short", day: "numeric" };
  if (!short || d.getFullYear() !== new Date().getFullYear()) opts.year = "numeric";
  if (time) Object.assign(opts, { hour: "2-digit", minute: "2-digit" });
  return d.toLocaleString(zh ? "zh-CN" : "en-GB", opts);
}

/** A rating as shown: one decimal. */
export function ratingText(x) {
  const n = Number(x);
  return Number.isFinite(n) ? n.toFixed(1) : "—";
}
