// A duplicate tournament's page: /tournaments creates one, /tournaments/ID shows it (registration,
// the organiser's start, the way to one's table, the standings and the boards' commitments) and
// asks the server again every few seconds while it is played. Every name is set as text.

import { fetchJson, node } from "/static/dom.js";
import { pageLanguage, refusal, say } from "/static/words.js";

const POLL_MS = 1500;
const page = { lang: "it", games: null, id: null, state: null, timer: null, pollFailed: false };

const $ = (id) => document.getElementById(id);

function t(key, values) {
  return say(page.lang, key, values);
}

const post = (url, body) => fetchJson(url, { method: "POST", body: JSON.stringify(body) });

// What this browser holds of a tournament: the organiser's token, its own entry's token and place.
function kept() {
  return JSON.parse(localStorage.getItem(`osteria_tournament_${page.id}`) || "{}");
}

function keep(changes) {
  localStorage.setItem(`osteria_tournament_${page.id}`, JSON.stringify({ ...kept(), ...changes }));
}

function translatePage() {
  document.documentElement.lang = page.lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  $("lang").value = page.lang;
}

// -- a new tournament ----------------------------------------------------------------------

function fillSeats() {
  const game = page.games.games.find((g) => g.name === $("tn-game").value);
  $("tn-seats").replaceChildren(...game.seat_counts.map((n) => {
    const option = node("option", "", String(n));
    option.value = String(n);
    option.selected = n === game.default_seats;
    return option;
  }));
}

function renderNewForm() {
  const game = $("tn-game").value;
  $("tn-game").replaceChildren(...page.games.games.map((g) => {
    const option = node("option", "", g.name);
    option.value = g.name;
    return option;
  }));
  if (game) $("tn-game").value = game;
  const level = $("tn-level").value || "facile";
  $("tn-level").replaceChildren(...page.games.levels.map((name) => {
    const option = node("option", "", t(`level_${name}`));
    option.value = name;
    return option;
  }));
  $("tn-level").value = level;
  if (!game) fillSeats();
}

async function createTournament(event) {
  event.preventDefault();
  $("tn-create-error").textContent = "";
  try {
    const created = await post("/api/tournaments", {
      game: $("tn-game").value, seats: Number($("tn-seats").value), boards: Number($("tn-boards").value),
      tables: Number($("tn-tables").value), level: $("tn-level").value,
    });
    page.id = created.tournament_id;
    keep({ organiser: created.organiser });
    location.assign(`${created.link}${location.search}`);
  } catch (error) {
    $("tn-create-error").textContent = t("error", { message: refusal(page.lang, error) });
  }
}

// -- a tournament ----------------------------------------------------------------------------

// Between two rounds (the last one done at every table, the next a moment from opening) no board
// is being played: there is no seat to go to yet.
function betweenRounds(state) {
  return state.status === "playing" && state.board === null;
}

function statusLine(state) {
  if (betweenRounds(state)) return t("tn_status_between", { n: state.rounds.length });
  if (state.status === "playing") return t("tn_status_playing", { n: state.board + 1 });
  return t(`tn_status_${state.status}`);
}

function renderStandings(state) {
  const played = state.rounds.filter((r) => r.done).length;
  $("tn-no-standings").hidden = played > 0;
  $("tn-standings").hidden = played === 0;
  const head = [t("col_place"), t("col_name"), t("col_table"),
    ...Array.from({ length: played }, (_, b) => t("col_board", { n: b + 1 })), t("col_total"), t("col_percent")];
  $("tn-standings-head").replaceChildren(...head.map((text) => node("th", "", text)));
  $("tn-standings-body").replaceChildren(...state.standings.map((entry) => {
    const row = node("tr");
    row.dataset.entry = String(entry.entry);
    const name = entry.kind === "bot" ? `${entry.name} (${t("bot")} ${t(`level_${entry.level}`)})` : entry.name;
    const cells = [String(entry.place), name, `${entry.table + 1}·${entry.seat + 1}`,
      ...entry.boards.map(String), String(entry.matchpoints), entry.percent === null ? "" : String(entry.percent)];
    row.append(...cells.map((text) => node("td", "", text)));
    return row;
  }));
}

function renderBoards(state) {
  $("tn-boards-list").replaceChildren(...state.commitments.map((c) => {
    const item = node("li");
    item.dataset.board = String(c.board);
    item.append(node("strong", "", t("board_n", { n: c.board + 1 })), " ", node("code", "hash", c.seed_hash), " ");
    item.append(c.seed ? node("code", "seed", c.seed) : node("span", "doc", t("board_seed_hidden")));
    const round = state.rounds.find((r) => r.board === c.board);
    if (round && round.done) {
      const links = node("div");
      for (const table of round.tables) {
        const link = node("a", "", t("watch_table", { n: table.table + 1 }));
        link.href = table.watch_link;
        links.append(link);
      }
      item.append(links);
    }
    return item;
  }));
}

function render() {
  const state = page.state;
  if (!state) return;
  const mine = kept();
  $("tn-info").textContent = t("tournament_info", {
    game: state.game, boards: state.boards, tables: state.tables, seats: state.seats, level: t(`level_${state.level}`),
  });
  $("tn-status").textContent = statusLine(state);
  $("tournament").dataset.status = state.status;
  $("tn-register").hidden = state.status !== "registering" || mine.token !== undefined;
  $("tn-place").textContent = mine.token === undefined ? ""
    : t("your_place", { table: mine.table + 1, seat: mine.seat + 1 });
  $("tn-start").hidden = state.status !== "registering" || mine.organiser === undefined;
  $("tn-play").hidden = state.status !== "playing" || betweenRounds(state) || mine.token === undefined;
  renderStandings(state);
  renderBoards(state);
}

async function load() {
  page.state = await fetchJson(`/api/tournaments/${encodeURIComponent(page.id)}`);
  render();
}

// Asked again until the tournament is over; a failed request is said and tried again, and said
// no more once one succeeds.
async function refresh() {
  clearTimeout(page.timer);
  try {
    await load();
    if (page.pollFailed) $("tn-error").textContent = "";
    page.pollFailed = false;
  } catch (error) {
    $("tn-error").textContent = t("error", { message: refusal(page.lang, error) });
    page.pollFailed = true;
  }
  if (page.state.status !== "finished") page.timer = setTimeout(refresh, POLL_MS);
}

async function act(work) {
  $("tn-error").textContent = "";
  try {
    await work();
  } catch (error) {
    $("tn-error").textContent = t("error", { message: refusal(page.lang, error) });
    page.pollFailed = false; // what the player did failed: it stays said
  }
}

function wireTournament() {
  const base = `/api/tournaments/${encodeURIComponent(page.id)}`;
  $("tn-register").addEventListener("submit", (event) => {
    event.preventDefault();
    act(async () => {
      const joined = await post(`${base}/register`, { name: $("tn-name").value.trim() || null });
      keep({ token: joined.token, table: joined.table, seat: joined.seat });
      await refresh();
    });
  });
  $("tn-start").addEventListener("click", () => act(async () => {
    page.state = await post(`${base}/start`, { token: kept().organiser });
    render();
  }));
  $("tn-play").addEventListener("click", () => act(async () => {
    const seat = await post(`${base}/seat`, { token: kept().token });
    location.assign(seat.link);
  }));
}

async function main() {
  const params = new URLSearchParams(location.search);
  page.lang = pageLanguage(params);
  translatePage();
  const match = location.pathname.match(/^\/tournaments\/([^/]+)$/);
  page.id = match ? decodeURIComponent(match[1]) : null;
  $("lang").addEventListener("change", () => {
    page.lang = $("lang").value;
    localStorage.setItem("osteria_lang", page.lang);
    translatePage();
    if (page.id) render();
    else renderNewForm();
  });
  try {
    if (page.id) {
      await load();
      wireTournament();
      $("tournament").hidden = false;
      if (page.state.status !== "finished") page.timer = setTimeout(refresh, POLL_MS);
    } else {
      page.games = await fetchJson("/api/games");
      renderNewForm();
      $("tn-game").addEventListener("change", fillSeats);
      $("new-tournament").addEventListener("submit", createTournament);
      $("new-tournament").hidden = false;
    }
  } catch (error) {
    $("fatal").textContent = t("error", { message: refusal(page.lang, error) });
    $("fatal").hidden = false;
  }
  $("loading").hidden = true;
}

main();
