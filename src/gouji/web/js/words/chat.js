// The words of 快捷语 at the table (the panel, muting); the phrases themselves are in quick-words.js.
// A word file of js/i18n.js: {zh, en}, each key once among all word files (docs/decisions.md).
export default {
  zh: {
    "chat.open": "快捷语",
    title: "快捷语",
    faces: "表情",
    "chat.close": "关闭",
    mutes: "屏蔽谁的快捷语：",
    mute: "屏蔽 {who} 的快捷语",
    unmute: "取消屏蔽 {who}",
    tag: "已屏蔽",
    record: "{who}的战绩",
  },
  en: {
    "chat.open": "Quick chat",
    title: "Quick chat",
    faces: "Faces",
    "chat.close": "Close",
    mutes: "Mute quick chat of:",
    mute: "Mute {who}'s quick chat",
    unmute: "Unmute {who}",
    tag: "muted",
    record: "{who}'s record",
  },
};
