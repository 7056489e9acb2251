// A finished deal's analysis (the server's "analysis" message, docs/online.md) as the table's
// result panel and the replay show it: what each seat lost against best play, and its mistakes.

import { node } from "/static/dom.js";
import { amount } from "/static/words.js";

// ``words``: the drawing page's own t (its words), lang (its language), playerName (a seat's name)
// and actionNodes (an action's words, its cards drawn).
export function drawAnalysis(box, found, { t, lang, playerName, actionNodes }) {
  const fixed = (x) => amount(lang, x);
  // An action or a list of them, drawn; a dash where none was computed.
  const actions = (value) => {
    const words = (Array.isArray(value) ? value.join(" ") : value || "").split(" ").filter(Boolean);
    return words.length ? actionNodes(words) : [document.createTextNode("—")];
  };
  box.append(node("h3", "", `${t("analysis")} (${t(`unit_${found.unit}`)})`));
  box.append(node("p", "", `${t("lost_by_seat")}: ` + found.lost_by_seat.map((x, s) => `${playerName(s)} ${fixed(x)}`).join(" · ")));
  if (!found.mistakes.length) return;
  box.append(node("p", "", t("mistakes")));
  const table = node("table");
  table.dataset.role = "mistakes";
  const head = node("tr");
  for (const key of ["col_trick", "col_seat", "col_played", "col_best", "col_cost", "col_honest", "col_cost"]) {
    head.append(node("th", "", t(key)));
  }
  table.append(head);
  for (const step of found.mistakes) {
    const row = node("tr");
    const cells = [node("td", "", step.trick === null ? "—" : String(step.trick)), node("td", "", playerName(step.seat)),
      node("td"), node("td"), node("td", "num", fixed(step.cost_open)), node("td"), node("td", "num", fixed(step.cost_honest))];
    cells[2].append(...actions(step.action));
    cells[3].append(...actions(step.best));
    cells[5].append(...actions(step.honest));
    row.append(...cells);
    table.append(row);
  }
  box.append(table);
}
