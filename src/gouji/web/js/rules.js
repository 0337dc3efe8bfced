// The rules page (规则说明, served by the server): remember its language for the other pages,
// and open the contents beside the text where the screen is wide enough.
import { setLang } from "./i18n.js";

setLang(document.documentElement.lang.startsWith("zh") ? "zh" : "en");
const toc = document.getElementById("toc");
if (toc && window.matchMedia("(min-width: 1000px)").matches) toc.open = true;
