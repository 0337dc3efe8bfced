// The rules page (规则说明, served by the server): remember its language for the other pages,
// open the contents beside the text where the screen is wide enough, and open the section a
// rule number names (/rules/P#R5.1, as the table's refusals link it: each section lists the
// rules it explains in data-rules; the page itself shows no numbers).
import { setLang } from "./i18n.js";

setLang(document.documentElement.lang.startsWith("zh") ? "zh" : "en");
const toc = document.getElementById("toc");
if (toc && window.matchMedia("(min-width: 1000px)").matches) toc.open = true;

/** The section heading that explains `rule` ("R5.1", "R13.5 (a)"): the longest of the rule
 * numbers of a section that is the rule itself or a part of it ("R9" holds "R9.4"). */
export function sectionOf(rule, heads) {
  const id = String(rule).trim().split(/[\s/(]/)[0];
  let best = null;
  let len = -1;
  for (const h of heads) {
    for (const r of (h.dataset.rules || "").split(" ")) {
      if (r && (id === r || id.startsWith(r + ".")) && r.length > len) {
        best = h;
        len = r.length;
      }
    }
  }
  return best;
}

function openCited() {
  const hash = decodeURIComponent(location.hash.slice(1));
  if (!/^R\d/.test(hash)) return;
  const h = sectionOf(hash, [...document.querySelectorAll(".rules-doc h2[data-rules]")]);
  if (!h) return;
  for (const old of document.querySelectorAll(".rules-doc h2.cited")) old.classList.remove("cited");
  h.classList.add("cited");
  h.scrollIntoView({ block: "start" });
}

openCited();
window.addEventListener("hashchange", openCited);
