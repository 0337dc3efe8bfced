export default {
  "zh": {
    "preset_name.OUTLINE_FULL": "大纲·全套",
    "preset_summary.OUTLINE_FULL": "默认规则：够级大纲加憋3、打点和进贡——3 留到最后出，没开点的给对头进贡，大落和二落给头科和二科进贡。",
    "preset_name.OUTLINE_CLASSIC": "大纲·经典",
    "preset_summary.OUTLINE_CLASSIC": "老打法，最简单：亮3定先出，以后大落先出；有报牌、挑牌、会3会4，可以革命。",
    "preset_name.LAIWU": "莱芜打法",
    "preset_summary.LAIWU": "莱芜：3 和 4 少一些，憋3，开壶后才能出 4，买3买4，2 不能贴，有烧贡，串三户后可以会5。",
    "preset_name.AUDIT": "审计协会比赛",
    "preset_summary.AUDIT": "山东省内部审计师协会的比赛规则：憋3、开点、对头明扣，名次计 6 到 1 分，烧牌、不开点、闷各加 1 分。",
    "preset_name.LIANG4": "亮4打法",
    "preset_summary.LIANG4": "4 最多的人先出，第一手出 4；开牌抽到王的人先抓；打点，不开点给对头一张贡；可以革命。",
    "preset_name.MATCH7": "三局比赛",
    "preset_summary.MATCH7": "比赛：一场三局，名次计 7、5、4、3、2、0 分，总分高的赢；亮3，按座位顺序烧牌，扣下的牌不能看。",
    "preset_name.COMP2": "大纲·比赛计分",
    "preset_summary.COMP2": "大纲全套的打法，按比赛计分：名次计 2、1、0、0、−1、−2 分，闷、不开点、烧牌各加 1 分。"
  },
  "en": {
    "preset_name.OUTLINE_FULL": "Outline, full",
    "preset_summary.OUTLINE_FULL": "The default: the outline with 憋3, 打点 and tribute — 3s go out last, a player who fails to open pays the 对头, the last two places pay the first two.",
    "preset_name.OUTLINE_CLASSIC": "Outline, classic",
    "preset_summary.OUTLINE_CLASSIC": "The older, simpler form: 亮3 picks the starter, later the 大落 leads; 报牌, 挑牌, 会3/会4 and 革命.",
    "preset_name.LAIWU": "Laiwu rules",
    "preset_summary.LAIWU": "Laiwu: fewer 3s and 4s, 憋3, no 4s before 开壶, buying 3s and 4s, 2s do not attach, burn tribute, 会5 after a 串三户.",
    "preset_name.AUDIT": "Audit association contest",
    "preset_summary.AUDIT": "The Shandong internal auditors' contest: 憋3, 开点, 扣 said aloud (明扣), places score 6 down to 1, +1 for each burn, 不开点 and 闷.",
    "preset_name.LIANG4": "Show the 4s (亮4)",
    "preset_summary.LIANG4": "Most 4s leads first and must lead 4s; a joker drawn at the opening takes first; 打点 with 点贡; 革命 allowed.",
    "preset_name.MATCH7": "Three-game match",
    "preset_summary.MATCH7": "Tournament: three games, places score 7, 5, 4, 3, 2, 0, the higher total wins; 亮3; burns in seat order; finished rounds stay hidden.",
    "preset_name.COMP2": "Outline, contest scoring",
    "preset_summary.COMP2": "The full outline with contest scoring: places score 2, 1, 0, 0, −1, −2; +1 for each 闷, 不开点 and burn."
  }
};
