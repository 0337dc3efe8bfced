// 复盘 on the replay page: the Analyse button, the progress while the server judges the game's
// decisions (GET/POST /api/rooms/{code}/games/{i}/analysis, polled every second), then each
// flagged decision marked on the timeline (colour and symbol), the decision of the step shown
// (who chose what, the better play, what each was worth, the loss) and each player's summary.
// replay.js owns the steps; it calls `renderAnalysis` whenever it draws one.
import { el, patch } from "./common.js";
import { teamOf } from "./felt.js";
import { t } from "./i18n.js";
import { MARKS, deedText, failureText, points, refusalText, valueText } from "./analysis-words.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;

// page: {code, game, names() (each seat's name as the page shows it), step() (the step shown),
// count() (the steps), go(i)}; state: "none" | "queued" | "running" | "done" | "failed" |
// "refused" (a POST not taken) | "unavailable" (no analysis for this page: 403, 404)
const A = { page: null, state: null, answer: {}, analysis: null, byStep: new Map(), error: "", timer: null };

/** Start with the page's game: what stands already (a stored analysis shows at once). */
export function setupAnalysis(page) {
  A.page = page;
  $("analyse").addEventListener("click", start);
  window.addEventListener("resize", () => A.analysis && renderAnalysis()); // the marks' rows
  ask("GET");
}

async function ask(method) {
  clearTimeout(A.timer);
  A.timer = null;
  let status = 0;
  let body = {};
  try {
    const r = await fetch(`/api/rooms/${A.page.code}/games/${A.page.game}/analysis`, { method });
    status = r.status;
    body = await r.json().catch(() => ({}));
  } catch (e) {
    status = 0;
  }
  take(method, status, body);
}

function start() {
  $("analyse").disabled = true;
  ask("POST");
}

function take(method, status, body) {
  if (status === 200 || status === 202) {
    A.state = body.state;
    A.answer = body;
    if (body.state === "done") {
      A.analysis = body.analysis;
      A.byStep = new Map((body.analysis.decisions || []).map((d) => [d.index + 1, d]));
    }
    A.error = body.state === "failed" ? failureText(body.error) : "";
    if (body.state === "running" || body.state === "queued") A.timer = setTimeout(() => ask("GET"), POLL_MS);
  } else if (method === "GET" && (status === 403 || status === 404)) {
    A.state = "unavailable"; // the replay says why
  } else if (method === "GET") {
    A.timer = setTimeout(() => ask("GET"), 5 * POLL_MS); // a busy moment: look again
  } else {
    A.state = "refused";
    A.error = refusalText(status, body.message || body.error); // {error: code, message}
  }
  renderAnalysis();
}

/** Each flagged decision's step, for the marks and the moments. */
function flagged() {
  return ((A.analysis && A.analysis.decisions) || []).filter((d) => MARKS[d.class]);
}

function nameOf(seat) {
  return A.page.names()[seat] || "";
}

function who(seat) {
  return el("b", { class: "who team-" + teamOf(seat) }, nameOf(seat));
}

function badge(cls, text) {
  return el("span", { class: "mark-badge " + cls }, text);
}

function statusText() {
  const a = A.answer;
  switch (A.state) {
    case "queued":
      return a.position > 1 ? t("queued", a.position - 1) : t("queued_next");
    case "running":
      return a.total === null || a.total === undefined ? t("reading") : t("running", a.done, a.total);
    case "done": {
      const n = (A.analysis.decisions || []).length;
      const marked = flagged().length;
      return marked ? t("done", n, marked) : t("none_flagged", n);
    }
    case "failed":
      return t("failed", A.error);
    case "refused":
      return A.error;
    default:
      return "";
  }
}

function drawBar() {
  const button = $("analyse");
  const busy = A.state === "running" || A.state === "queued";
  button.hidden = A.state === null || A.state === "unavailable" || A.state === "done" || busy;
  button.disabled = false;
  button.textContent = t("analyse");
  button.title = t("analyse_title");
  const bar = $("analysis-progress");
  bar.hidden = !busy;
  if (A.state === "running" && A.answer.total) {
    bar.max = A.answer.total;
    bar.value = A.answer.done;
  } else {
    bar.removeAttribute("value"); // indeterminate: queued, or the record being read
  }
  const line = $("analysis-status");
  line.textContent = statusText();
  line.className = "analysis-status" + (A.state === "failed" || A.state === "refused" ? " error" : "");
  line.parentElement.hidden = !busy && !line.textContent;
}

const MARK_PX = 24; // a mark's width and a little room: closer marks go to the next row
const MARK_ROWS = 4; // at most; beyond, a mark goes where it covers least

/** The marks under the slider: one a flagged decision, at the step its play made; marks
 * that would cover each other go to a second (third) row. */
function drawMarks() {
  const box = $("marks");
  const n = A.page.count();
  const marks = n > 1 ? flagged() : [];
  const now = A.page.step();
  const width = box.clientWidth || $("slider").clientWidth || 300;
  const ends = []; // the right end (px) of each row's last mark
  const nodes = marks.map((d) => {
    const step = d.index + 1;
    const x = (step / (n - 1)) * width;
    let row = ends.findIndex((end) => x - MARK_PX / 2 >= end);
    if (row < 0) row = ends.length < MARK_ROWS ? ends.length : ends.indexOf(Math.min(...ends));
    ends[row] = x + MARK_PX / 2;
    const label = t("mark_title", step, `${nameOf(d.seat)} ${deedText(d.action)}`, t("class_" + d.class));
    return el(
      "button",
      {
        type: "button",
        class: `mark ${d.class}${step === now ? " current" : ""}`,
        style: `--at: ${step / (n - 1)}; --row: ${row}`,
        title: label,
        "aria-label": label,
        dataset: { step: String(step) },
        onclick: () => A.page.go(step),
      },
      MARKS[d.class],
    );
  });
  box.style.setProperty("--rows", String(Math.max(1, ends.length)));
  box.hidden = !marks.length;
  patch(box, nodes);
}

/** The decision whose play made the step shown: who chose what, the better play, the worth. */
function drawMoment() {
  const box = $("analysis-moment");
  const d = A.byStep.get(A.page.step());
  box.hidden = !d;
  if (!d) {
    box.textContent = "";
    return;
  }
  const head = el(
    "div",
    { class: "moment-head" },
    MARKS[d.class] ? badge(d.class, MARKS[d.class]) : null,
    el("b", { class: "class-name " + d.class }, t("class_" + d.class)),
    el("span", { class: "muted" }, t("moment_step", d.index + 1)),
  );
  const lines = [head, el("p", null, who(d.seat), t("chose", { play: deedText(d.action) }))];
  if (d.best !== d.action && d.class !== "good") {
    lines.push(el("p", { class: "better" }, t("better", { play: deedText(d.best) })));
    lines.push(el("p", null, t("loss", { loss: points(d.loss, false), low: points(d.loss_low, false) })));
  } else {
    lines.push(el("p", { class: "muted" }, t("no_better")));
  }
  const rows = (d.candidates || []).map((c) =>
    el(
      "li",
      { class: c.action === d.action ? "taken" : c.action === d.best ? "best" : null },
      t("worth_line", { play: deedText(c.action), value: valueText(c.value, c.value_ci) }),
    ),
  );
  lines.push(el("p", { class: "worth" }, t("worth_head")));
  lines.push(el("ul", { class: "worths" }, rows));
  patch(box, [el("div", { class: "moment " + d.class }, lines)]);
}

/** Each player's summary: decisions judged, the marks of each kind, the average loss and
 * the costliest moments (each a button to its step). */
function drawSummary() {
  const box = $("analysis-summary");
  box.hidden = A.state !== "done";
  if (A.state !== "done") {
    box.textContent = "";
    return;
  }
  const byIndex = new Map((A.analysis.decisions || []).map((d) => [d.index, d]));
  const head = el(
    "tr",
    null,
    el("th", null, t("analysis.col_player")),
    el("th", null, t("col_decisions")),
    ...["inaccuracy", "mistake", "blunder"].map((c) => el("th", { title: t("class_" + c) }, badge(c, MARKS[c]))),
    el("th", null, t("col_loss")),
  );
  const rows = [];
  for (const s of A.analysis.summary || []) {
    rows.push(
      el(
        "tr",
        { class: "team-" + teamOf(s.seat) },
        el("td", null, who(s.seat)),
        el("td", null, String(s.decisions)),
        ...["inaccuracy", "mistake", "blunder"].map((c) => el("td", null, String(s.classes[c] || 0))),
        el("td", null, points(s.average_loss, false)),
      ),
    );
    const costly = (s.costliest || []).map((i) => byIndex.get(i)).filter((d) => d);
    if (costly.length) {
      const buttons = costly.map((d) =>
        el(
          "button",
          { type: "button", class: "costly " + d.class, onclick: () => A.page.go(d.index + 1) },
          MARKS[d.class] ? badge(d.class, MARKS[d.class]) : null,
          t("step_n", d.index + 1),
        ),
      );
      rows.push(el("tr", { class: "costliest" }, el("td", { colspan: "6" }, t("costliest"), " ", buttons)));
    }
  }
  patch(box, [
    el("h3", null, t("summary")),
    el("table", { class: "analysis-summary" }, el("thead", null, head), el("tbody", null, rows)),
    el("p", { class: "muted small-note" }, t("unit_note")),
  ]);
}

/** Draw what the analysis shows at the step the replay shows (and in the page's language). */
export function renderAnalysis() {
  if (!A.page) return;
  document.body.dataset.analysis = A.state || "";
  drawBar();
  drawMarks();
  drawMoment();
  drawSummary();
}
