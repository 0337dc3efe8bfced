// The table page's shared state, as a module the table's parts import (instead of a global):
// table.js fills it once (`setTable`: its state `S`, `send` and `act`) and hands every server
// message to `listeners`; table-decisions.js, table-room.js, quick-words.js and your-turn.js wait
// for it with `whenTable` and read `table.state`. table.js also shows the same object as `window.gouji` for tests and debugging
// only: no module reads that.

/** The table: null fields until table.js has started. */
export const table = { state: null, send: () => false, act: () => {}, listeners: [] };

const waiting = [];

/** table.js: the table is ready; those that waited for it start now. */
export function setTable({ state, send, act }) {
  Object.assign(table, { state, send, act });
  for (const f of waiting.splice(0)) f(table);
}

/** Run `f(table)` once the table has started (at once when it has). */
export function whenTable(f) {
  if (table.state) f(table);
  else waiting.push(f);
}

/** Hand a server message to every listener (table.js, after its own handling). */
export function tell(msg) {
  for (const f of table.listeners) f(msg);
}
