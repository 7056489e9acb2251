// The page of a player's history (/players/NAME) and of a match's replay (/replay/TABLE_ID),
// beside the live table's. The replay steps through the positions the server draws from the
// match's record (GET /api/tables/{id}/replay, docs/online.md): every hand after each trick, the
// trick and who took it, the running score and the deal's analysis. The server holds the
// record's deals alone, so a match still being played shows no card of the deal in play.

import { drawAnalysis } from "/static/analysis.js";
import { RANKS, SUITS, actionChips, cardChip, cardFace, isCard } from "/static/cards.js";
import { fetchJson, node } from "/static/dom.js";
import { pageLanguage, refusal, say } from "/static/words.js";

const $ = (id) => document.getElementById(id);

const page = {
  lang: "it",
  cards: null, // the card names GET /api/games serves
  history: null, // GET /api/players/{name}/history
  profile: null, // GET /api/players/{name}: the ratings
  replay: null, // GET /api/tables/{id}/replay
  tableId: null,
  deal: 0, // the deal shown, and its position
  at: 0,
  analyses: new Map(), // by deal: the analysis, {pending: true}, or {error}
};

function t(key, values) {
  return say(page.lang, key, values);
}

function cardWords() {
  return {
    lang: page.lang,
    rank_names: page.cards ? page.cards.rank_names[page.lang] : [...RANKS],
    suit_names: page.cards ? page.cards.suit_names[page.lang] : [...SUITS],
  };
}

function actionNodes(words) {
  return actionChips(words, cardWords());
}

function playerName(seat) {
  const players = (page.replay && page.replay.players) || [];
  return players[seat] || t("seat", { n: seat + 1 });
}

function translatePage() {
  document.documentElement.lang = page.lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  $("lang").value = page.lang;
}

function fatal(message) {
  $("loading").hidden = true;
  $("fatal").textContent = message;
  $("fatal").hidden = false;
}

function render() {
  if (page.history) renderHistory();
  if (page.replay) renderReplay();
}

async function main() {
  const params = new URLSearchParams(location.search);
  page.lang = pageLanguage(params);
  translatePage();
  $("lang").addEventListener("change", () => {
    page.lang = $("lang").value;
    localStorage.setItem("osteria_lang", page.lang);
    translatePage();
    render();
  });
  const replay = location.pathname.match(/^\/replay\/([^/]+)/);
  const player = location.pathname.match(/^\/players\/([^/]+)/);
  try {
    page.cards = (await fetchJson("/api/games")).cards;
    if (replay) {
      page.tableId = decodeURIComponent(replay[1]);
      page.replay = await fetchJson(`/api/tables/${encodeURIComponent(page.tableId)}/replay`);
    } else if (player) {
      [page.history, page.profile] = await Promise.all([fetchJson(`/api/players/${player[1]}/history`),
        fetchJson(`/api/players/${player[1]}`)]);
    }
  } catch (error) {
    fatal(t("error", { message: refusal(page.lang, error) }));
    return;
  }
  $("loading").hidden = true;
  if (page.replay) {
    bindSteps();
    $("replay-view").hidden = false;
  } else if (page.history) {
    $("history").hidden = false;
  }
  render();
}

// -- a player's history --------------------------------------------------------------------

function renderHistory() {
  const { name, matches } = page.history;
  $("page-title").textContent = t("history_title", { name });
  $("history-title").textContent = t("history_title", { name });
  $("history-none").hidden = matches.length > 0;
  $("history-ratings").replaceChildren(...page.profile.ratings.map((row) => node("li", "",
    `${row.game}: ${t("rating", { ordinal: row.ordinal.toFixed(1), matches: row.matches })}`)));
  $("history-list").replaceChildren(...matches.map((match) => {
    const item = node("li");
    item.dataset.table = match.table_id;
    item.dataset.status = match.status;
    const others = match.players.filter((_, seat) => seat !== match.seat);
    const when = new Date(match.at * 1000).toLocaleString(page.lang === "it" ? "it-IT" : "en-GB");
    const result = match.status === "finished"
      ? `${t(match.won ? "won" : "lost")}, ${t("place", { place: match.place })}` : t(`status_${match.status}`);
    const replay = node("a", "", t("replay"));
    replay.href = match.replay;
    replay.dataset.role = "replay";
    const record = node("a", "", t("record"));
    record.href = match.record;
    record.download = `osteria-${match.table_id}.json`;
    item.append(node("strong", "", match.game), node("span", "", when),
      node("span", "muted", `${t("with_players", { names: others.join(", ") })} · ${match.totals.join(" · ")} · ${result}`),
      replay, record);
    if (match.status !== "finished") {
      // Listed to its own player alone: back to his seat (the browser that took it holds it).
      const table = node("a", "", t("go_to_table"));
      table.href = `/t/${encodeURIComponent(match.table_id)}`;
      table.dataset.role = "table";
      item.append(table);
    }
    return item;
  }));
}

// -- a match's replay ----------------------------------------------------------------------

function positions() {
  return page.replay.deals[page.deal].positions;
}

// One step forward or back, from one deal's last position into the next deal's first.
function step(by) {
  const { deals } = page.replay;
  if (!deals.length) return;
  if (by > 0 && page.at < positions().length - 1) page.at += 1;
  else if (by > 0 && page.deal < deals.length - 1) [page.deal, page.at] = [page.deal + 1, 0];
  else if (by < 0 && page.at > 0) page.at -= 1;
  else if (by < 0 && page.deal > 0) {
    page.deal -= 1;
    page.at = positions().length - 1;
  }
  renderReplay();
}

function stepDeal(by) {
  const next = page.deal + by;
  if (next < 0 || next >= page.replay.deals.length) return;
  [page.deal, page.at] = [next, 0];
  renderReplay();
}

function bindSteps() {
  $("forward").addEventListener("click", () => step(1));
  $("back").addEventListener("click", () => step(-1));
  $("next-deal").addEventListener("click", () => stepDeal(1));
  $("previous-deal").addEventListener("click", () => stepDeal(-1));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("select, input")) return;
    const moves = { ArrowRight: () => step(1), ArrowLeft: () => step(-1), ArrowDown: () => stepDeal(1),
      ArrowUp: () => stepDeal(-1) };
    if (!moves[event.key]) return;
    event.preventDefault();
    moves[event.key]();
  });
}

function renderReplay() {
  const { replay } = page;
  $("page-title").textContent = t("replay_title", { game: replay.game });
  $("replay-unfinished").hidden = replay.status === "finished";
  const record = $("replay-record");
  record.href = replay.record;
  record.download = `osteria-${replay.table_id}.json`;
  const empty = !replay.deals.length;
  $("replay-empty").hidden = !empty;
  for (const id of ["replay-steps", "replay-felt"]) $(id).hidden = empty;
  if (empty) return;
  const deal = replay.deals[page.deal];
  const shown = deal.positions[page.at];
  const last = page.at === deal.positions.length - 1;
  const view = $("replay-view");
  view.dataset.deal = String(page.deal);
  view.dataset.at = String(page.at);
  const where = page.at === 0 ? t("step_dealt")
    : shown.taken ? t("step_trick", { n: shown.tricks_played })
      : shown.tricks_played ? t("step_said", { n: shown.tricks_played }) : t("step_play");
  $("replay-at").textContent = t("replay_at", { deal: page.deal + 1, deals: replay.deals.length, step: where })
    + (last ? ` · ${t("step_over")}` : "");
  $("back").disabled = page.deal === 0 && page.at === 0;
  $("forward").disabled = page.deal === replay.deals.length - 1 && last;
  $("previous-deal").disabled = page.deal === 0;
  $("next-deal").disabled = page.deal === replay.deals.length - 1;
  renderSeats(deal, shown);
  renderTrick(shown);
  renderSaid(deal, shown);
  renderScores(shown);
  renderTricks(deal);
  renderDealEnd(deal, last);
  renderDealAnalysis();
}

function renderSeats(deal, shown) {
  const winner = shown.taken ? shown.taken.winner : null;
  $("replay-seats").replaceChildren(...shown.hands.map((hand, seat) => {
    const row = node("div", `replay-seat${seat === winner ? " took" : ""}`);
    row.dataset.seat = String(seat);
    const who = node("div", "who");
    who.append(node("span", "name", playerName(seat)));
    if (seat === deal.dealer) who.append(node("span", "badge", t("dealer")));
    if (seat === winner) who.append(node("span", "badge", t("takes_trick")));
    const cards = node("div", "open-hand");
    for (const card of hand || []) if (isCard(card)) cards.append(cardFace(card, cardWords()));
    row.append(who, cards);
    return row;
  }));
}

// The trick just taken, each card with who played it; else the cards on the table, if any.
function renderTrick(shown) {
  const box = $("replay-trick");
  const cards = shown.taken ? shown.taken.cards : shown.trick;
  box.replaceChildren();
  for (const [seat, card] of cards || []) {
    if (!isCard(card)) continue;
    const played = node("div", `trick-card${shown.taken && seat === shown.taken.winner ? " winner" : ""}`);
    played.dataset.seat = String(seat);
    played.append(cardFace(card, cardWords()), node("span", "said", playerName(seat)));
    box.append(played);
  }
}

// What was said since the last position (bids, accusi, signals), and, as dealt, the cards left
// out of the hands (a widow, a turned card).
function renderSaid(deal, shown) {
  const list = $("replay-said");
  list.replaceChildren();
  if (page.at === 0) {
    for (const [role, cards] of Object.entries(deal.stock || {})) {
      const item = node("li", "dealt");
      item.append(node("span", "", `${t("stock")} (${role}): `), ...actionNodes([cards].flat()));
      list.append(item);
    }
  }
  for (const [seat, action] of shown.actions) {
    const words = action.split(" ");
    if (words.length === 1 && isCard(words[0])) continue;
    const item = node("li", "dealt");
    item.append(node("span", "", `${t("said")}: ${playerName(seat)} `), ...actionNodes(words));
    list.append(item);
  }
}

function renderScores(shown) {
  const scores = $("replay-scores");
  scores.replaceChildren(...shown.totals.map((total, seat) => {
    const row = node("tr");
    row.dataset.seat = String(seat);
    row.append(node("th", "", playerName(seat)), node("td", "num", String(total)));
    return row;
  }));
  $("replay-lines").replaceChildren(...(shown.lines[page.lang] || []).map((line) => node("li", "", line)));
}

// The tricks of the deal taken up to the position shown.
function renderTricks(deal) {
  const taken = deal.positions.slice(1, page.at + 1).filter((p) => p.taken);
  $("replay-tricks").replaceChildren(...taken.map((p) => {
    const row = node("li", "trick-line");
    row.append(node("span", "", `${p.tricks_played}. `));
    for (const [, card] of p.taken.cards) if (isCard(card)) row.append(cardChip(card, cardWords()));
    row.append(node("span", "", ` → ${playerName(p.taken.winner)}`));
    return row;
  }));
}

function renderDealEnd(deal, last) {
  $("replay-result").hidden = !last;
  if (!last) return;
  const lines = [...(deal.result_lines[page.lang] || [])];
  const { replay } = page;
  if (replay.finished && page.deal === replay.deals.length - 1 && replay.winners) {
    lines.push(`${t("finished")} ${t("winners", { names: replay.winners.map(playerName).join(", ") })}`);
  }
  $("replay-result-lines").replaceChildren(...lines.map((line) => node("li", "", line)));
}

// The deal's analysis, as the table shows it after a deal: computed by the server when asked.
function renderDealAnalysis() {
  const box = $("replay-analysis");
  box.replaceChildren();
  const index = page.deal;
  const found = page.analyses.get(index);
  if (found && found.pending) {
    box.append(node("p", "notice", t("analysis_pending")));
  } else if (found && !found.error) {
    drawAnalysis(box, found, { t, lang: page.lang, playerName, actionNodes });
  } else {
    // Asked again after a refusal (the table was busy with another analysis, say).
    if (found) box.append(node("p", "error", t("error", { message: found.error })));
    const button = node("button", "action", t("analysis"));
    button.type = "button";
    button.dataset.analysis = String(index);
    button.addEventListener("click", () => analyse(index));
    box.append(button);
  }
}

async function analyse(index) {
  page.analyses.set(index, { pending: true });
  renderReplay();
  try {
    page.analyses.set(index, await fetchJson(`/api/tables/${encodeURIComponent(page.tableId)}/analysis/${index}`));
  } catch (error) {
    page.analyses.set(index, { error: refusal(page.lang, error) });
  }
  if (page.deal === index) renderReplay();
}

main();
