// The browser table of `osteria serve`: the lobby, joining with an invitation, and the live table
// over the WebSocket of docs/online.md. The server holds the truth: this page draws the seat's
// observation it is sent and sends back the action clicked, one of the legal actions it was given.

import { drawAnalysis } from "/static/analysis.js";
import { RANKS, SUITS, actionChips, cardBack, cardChip, cardFace, isCard, isSuit, suitChip } from "/static/cards.js";
import { fetchJson, node } from "/static/dom.js";
import { amount, pageLanguage, refusal, say } from "/static/words.js";

// A kind of action with more variants than this (the 1,820 discards of Calabresella for three) is
// chosen by picking its cards in the hand, not from a list of buttons (as the terminal table does).
const MANY = 40;
// Keys of an observation the table draws itself; any other key is listed as it is when the server
// sends no lines for it (the terminal's TableView.handled, plus what the felt shows).
const DRAWN = new Set([
  "game", "options", "players", "seat", "deal_index", "results", "totals", "finished", "to_move", "legal_actions",
  "dealer", "hand", "hands", "hand_sizes", "trick", "last_trick", "history", "played", "trump", "turned", "bottom",
  "leader", "tricks_played", "tricks", "last_round",
]);
// The word for trumps in each game that has them.
const TRUMP_WORD = { quattrigghiu: "trunfu", sancagna: "briscola" };
const RECONNECT_MS = [500, 1000, 2000, 4000];
const DEAL_NOTICE_MS = 8000;
const LOBBY_REFRESH_MS = 5000;
// The turn clock shows itself in the last seconds before a stand-in bot plays for a player.
const CLOCK_SHOWN_S = 20;
const HAND_GAP_PX = 4; // the gap between the hand's cards (style.css)
const MIN_CARD_PX = 40;

const $ = (id) => document.getElementById(id);

const app = {
  lang: "it",
  games: null, // GET /api/games
  openTables: null, // GET /api/lobby: the listed tables waiting for players
  tableId: null,
  token: null,
  ws: null,
  retries: 0,
  closed: false, // no reconnecting (a wrong token, an unknown table)
  busy: null, // the server refused the socket as one too many (4429): its reason, until "try again"
  clock: null, // {seat, ends}: when the stand-in bot plays for that seat (Date.now() time)
  down: false, // the socket is down: nothing can be sent until it is open again
  unsent: false, // something was clicked while down, and refused
  state: null, // the last state message, whole (a patch applies to it)
  table: null, // the table state
  seat: null,
  view: null,
  legal: [],
  lines: null,
  error: null,
  sent: null, // the move at which an action was sent, until the next state
  chat: [],
  dealEnds: new Map(),
  analyses: new Map(),
  hint: null,
  selection: null, // {word, need, chosen: Set, byKey: Map}
  dealNotice: null, // {index, until}: a deal just ended
  lastRoundOffer: null, // {last_deal}: this seat may declare the match's last round now
  confirmLastRound: false, // the last round's button was pressed once: the next press declares it
  confirmPassOn: false, // the pass-on button was pressed once: the next press passes the seat on
  confirmLeave: false, // the leave button was pressed once: the next press leaves the table
};

// -- words ---------------------------------------------------------------------------------

function t(key, values) {
  return say(app.lang, key, values);
}

// The card names the server serves (cards.py's), with the notation itself as a fallback.
function cardWords() {
  const names = app.games && app.games.cards;
  return {
    lang: app.lang,
    rank_names: names ? names.rank_names[app.lang] : [...RANKS],
    suit_names: names ? names.suit_names[app.lang] : [...SUITS],
  };
}

function translatePage() {
  document.documentElement.lang = app.lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  $("lang").value = app.lang;
}

function actionNodes(words) {
  return actionChips(words, cardWords());
}

// What the server's words say an action's terms mean: the parts in brackets of its label.
function meaningOf(entry) {
  const label = entry[app.lang] || "";
  return [...label.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]).join("; ");
}

// Any JSON value, with cards and suits drawn (for the keys the page has no drawing of).
function valueNodes(value) {
  if (value === null || value === undefined) return [document.createTextNode("—")];
  if (typeof value === "string") return actionNodes(value.split(" "));
  if (Array.isArray(value) && value.length && value.every((item) => Array.isArray(item) && item.length === 2
      && Number.isInteger(item[0]) && typeof item[1] === "string")) {
    // [seat, words] pairs (accusi, cenni): the seat by its name.
    const out = [];
    value.forEach(([seat, words], i) => {
      out.push(document.createTextNode(`${i ? ", " : ""}${playerName(seat)} `), ...valueNodes(words));
    });
    return out;
  }
  if (Array.isArray(value)) {
    const out = [];
    value.forEach((item, i) => {
      if (i) out.push(document.createTextNode(" "));
      out.push(...valueNodes(item));
    });
    return out;
  }
  if (typeof value === "object") {
    const out = [];
    for (const [key, item] of Object.entries(value)) out.push(document.createTextNode(` ${key}: `), ...valueNodes(item));
    return out;
  }
  return [document.createTextNode(String(value))];
}

// A seat's name; a name that several seats share ("bot medio") gets the seat's number.
function playerName(seat) {
  const players = (app.table && app.table.players) || [];
  const name = players[seat] && players[seat].name;
  if (!name) return t("seat", { n: seat + 1 });
  return players.filter((p) => p.name === name).length > 1 ? `${name} ${seat + 1}` : name;
}

function shownName(seat) {
  return seat === app.seat ? `${playerName(seat)} (${t("you")})` : playerName(seat);
}

// -- start ---------------------------------------------------------------------------------

async function main() {
  // Installable on a phone's home screen, and opened even without the network (sw.js).
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  const params = new URLSearchParams(location.search);
  app.lang = pageLanguage(params);
  translatePage();
  $("lang").addEventListener("change", () => {
    app.lang = $("lang").value;
    localStorage.setItem("osteria_lang", app.lang);
    translatePage();
    // The table's lines come in the page's language: the server sends a state in the new one.
    if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify({ type: "lang", lang: app.lang }));
    if (app.table) render();
    else if (app.games) {
      renderLobbyForm();
      renderOpenTables();
    }
  });
  try {
    app.games = await fetchJson("/api/games");
  } catch (error) {
    fatal(t("error", { message: refusal(app.lang, error) }));
    return;
  }
  $("loading").hidden = true;
  const match = location.pathname.match(/^\/t\/([^/]+)/);
  if (!match) {
    showLobby();
    return;
  }
  app.tableId = decodeURIComponent(match[1]);
  const saved = `osteria_token_${app.tableId}`;
  const token = params.get("token");
  if (token) {
    localStorage.setItem(saved, token);
    // Kept by the page now: the address bar (its history, a shared screen, a copied address) shows no token.
    history.replaceState(null, "", tableAddress(params));
    connect(token);
  } else if (localStorage.getItem(saved)) {
    connect(localStorage.getItem(saved));
  } else if (params.get("invite")) {
    showJoin(params.get("invite"));
  } else {
    connect(null); // a spectator, unless the server knows this browser's seat by its cookie
  }
}

// An address of the server's with the language the page's address asked for, if it did.
function withAskedLanguage(address) {
  const lang = new URLSearchParams(location.search).get("lang");
  if (!lang) return address;
  return `${address}${address.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;
}

// The table's own address, with the page's language if the address asked for one.
function tableAddress(params) {
  const lang = params.get("lang");
  return `/t/${encodeURIComponent(app.tableId)}${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`;
}

function fatal(message) {
  $("loading").hidden = true;
  $("fatal").textContent = message;
  $("fatal").hidden = false;
}

// -- the lobby -----------------------------------------------------------------------------

function showLobby() {
  $("lobby").hidden = false;
  const gameSelect = $("game");
  for (const game of app.games.games) gameSelect.append(new Option(game.name, game.name));
  for (const game of app.games.games) $("quick-game").append(new Option(game.name, game.name));
  $("quick-join").addEventListener("click", quickJoin);
  for (const game of app.games.games) $("ladder-game").append(new Option(game.name, game.name));
  $("ladder-game").addEventListener("change", refreshLadder);
  refreshLadder();
  showAccount();
  refreshOpenTables();
  // The open tables fill and new ones open: the list follows while the lobby is shown.
  setInterval(() => { if (!$("lobby").hidden) refreshOpenTables(); }, LOBBY_REFRESH_MS);
  gameSelect.addEventListener("change", () => renderLobbyForm(true));
  $("seats").addEventListener("change", () => renderLobbyForm());
  $("create-form").addEventListener("submit", (event) => {
    event.preventDefault();
    createTable();
  });
  renderLobbyForm(true);
}

async function refreshOpenTables() {
  let open;
  try {
    open = await fetchJson("/api/lobby");
  } catch {
    return; // the server is away a moment: the list stays as it was
  }
  app.openTables = open.tables;
  renderOpenTables();
}

function renderOpenTables() {
  const tables = app.openTables || [];
  $("open-none").hidden = tables.length > 0;
  $("open-list").replaceChildren(...tables.map((table) => {
    const item = node("li");
    item.dataset.table = table.table_id;
    const seated = table.players.filter((p) => p.taken).map((p) => p.name);
    const specs = app.games.games.find((g) => g.name === table.game).options;
    const rules = Object.entries(table.options).map(([name, value]) => {
      const spec = specs.find((o) => o.name === name);
      return `${spec ? spec.label[app.lang] : name} ${showValue(value)}`;
    });
    item.append(node("strong", "", table.game),
      node("span", "", t(table.status === "playing" ? "open_table_playing" : "open_table",
        { seats: table.seats, free: table.free })),
      node("span", "muted", [...seated, ...rules].join(" · ")));
    const sit = node("button", "", t("join"));
    sit.type = "button";
    sit.addEventListener("click", () => { location.href = table.invite_link; });
    item.append(sit);
    return item;
  }));
}

// -- the account and the ladder ------------------------------------------------------------

async function showAccount() {
  $("account-form").addEventListener("submit", (event) => {
    event.preventDefault();
    signIn("/api/sign-in");
  });
  $("sign-up").addEventListener("click", () => {
    if ($("account-form").reportValidity()) signIn("/api/sign-up");
  });
  $("sign-out").addEventListener("click", signOut);
  try {
    renderAccount((await fetchJson("/api/me")).name);
  } catch {
    renderAccount(null);
  }
}

function renderAccount(name) {
  $("signed-out").hidden = Boolean(name);
  $("signed-in").hidden = !name;
  $("account-who").textContent = name ? t("signed_in_as", { name }) : "";
  $("my-history").href = name ? `/players/${encodeURIComponent(name)}` : "";
}

// The server keeps the sign-in in its own cookie, which the page never sees.
async function signIn(url) {
  $("account-error").textContent = "";
  try {
    const body = JSON.stringify({ name: $("account-name").value, password: $("account-password").value });
    const account = await fetchJson(url, { method: "POST", body });
    $("account-password").value = "";
    renderAccount(account.name);
  } catch (error) {
    $("account-error").textContent = t("error", { message: refusal(app.lang, error) });
  }
}

async function signOut() {
  $("account-error").textContent = "";
  try {
    await fetchJson("/api/sign-out", { method: "POST", body: "{}" });
    renderAccount(null);
  } catch (error) {
    $("account-error").textContent = t("error", { message: refusal(app.lang, error) });
  }
}

async function refreshLadder() {
  let ladder;
  try {
    ladder = await fetchJson(`/api/ladder/${encodeURIComponent($("ladder-game").value)}`);
  } catch {
    return; // the server is away a moment: the ladder stays as it was
  }
  $("ladder-none").hidden = ladder.ladder.length > 0;
  $("ladder-list").replaceChildren(...ladder.ladder.map((row) => {
    const item = node("li");
    item.dataset.player = row.player;
    // A person's name leads to his matches; a level of the bots has no page.
    const name = node(row.bot ? "strong" : "a", "", row.player);
    if (!row.bot) name.href = `/players/${encodeURIComponent(row.player)}`;
    item.append(name, node("span", "muted",
      t(row.matches === 1 ? "rating_one" : "rating", { ordinal: row.ordinal.toFixed(1), matches: row.matches })));
    return item;
  }));
}

// A seat at the oldest open table of the game, or a new table waiting for the next comers.
async function quickJoin() {
  $("quick-error").textContent = "";
  const name = localStorage.getItem("osteria_name");
  try {
    const joined = await fetchJson("/api/quick-join", {
      method: "POST", body: JSON.stringify({ game: $("quick-game").value, ...(name ? { name } : {}) }),
    });
    location.href = joined.link;
  } catch (error) {
    $("quick-error").textContent = t("error", { message: refusal(app.lang, error) });
  }
}

function currentGame() {
  return app.games.games.find((g) => g.name === $("game").value) || app.games.games[0];
}

// A bots' level as the page's language says it (the levels' own names are Italian).
function levelName(level) {
  return t(`level_${level}`);
}

function showValue(value) {
  if (value === true) return app.lang === "it" ? "sì" : "yes";
  if (value === false) return "no";
  return Array.isArray(value) ? value.join(", ") : String(value);
}

function renderLobbyForm(reset = false) {
  const game = currentGame();
  const seats = $("seats");
  const chosen = reset ? game.default_seats : Number(seats.value);
  seats.replaceChildren(...game.seat_counts.map((n) => new Option(String(n), String(n))));
  seats.value = String(game.seat_counts.includes(chosen) ? chosen : game.default_seats);
  const options = $("options");
  const previous = new Map([...options.querySelectorAll("[data-option]")].map((el) => [el.dataset.option, el.value]));
  options.replaceChildren();
  for (const option of game.options) {
    const row = node("div", "form-row");
    const id = `option-${option.name}`;
    const label = node("label", "", option.label[app.lang]);
    label.htmlFor = id;
    let input;
    if (option.choices) {
      input = document.createElement("select");
      for (const choice of option.choices) input.append(new Option(showValue(choice), JSON.stringify(choice)));
      input.value = JSON.stringify(option.default);
      if (!reset && previous.has(option.name)) input.value = previous.get(option.name);
    } else if (Array.isArray(option.default)) {
      // A list of seats (Tressette's morto): a box per seat.
      input = node("span", "seat-boxes");
      const count = Number($("seats").value);
      const kept = !reset && previous.has(option.name) ? JSON.parse(previous.get(option.name)) : option.default;
      for (let seat = 0; seat < count; seat++) {
        const box = document.createElement("input");
        box.type = "checkbox";
        box.value = String(seat);
        box.checked = kept.includes(seat);
        const boxLabel = node("label", "seat-box");
        boxLabel.append(box, document.createTextNode(t("seat_n", { n: seat + 1 })));
        input.append(boxLabel);
      }
      input.value = JSON.stringify(kept);
      input.addEventListener("change", () => {
        input.value = JSON.stringify([...input.querySelectorAll("input:checked")].map((b) => Number(b.value)));
      });
    } else {
      input = document.createElement("input");
      input.value = showValue(option.default);
      if (!reset && previous.has(option.name)) input.value = previous.get(option.name);
    }
    input.id = id;
    input.dataset.option = option.name;
    row.append(label, input);
    if (option.docs[app.lang]) row.append(node("span", "doc", option.docs[app.lang]));
    options.append(row);
  }
  const standIn = $("stand-in");
  const level = standIn.value || "medio";
  standIn.replaceChildren(...app.games.levels.map((l) => new Option(levelName(l), l)));
  standIn.value = level;
  renderSeatRows();
}

function renderSeatRows() {
  const rows = $("seat-rows");
  const before = [...rows.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector("[data-kind]")?.value, level: row.querySelector("[data-level]")?.value,
    name: row.querySelector("[data-name]")?.value,
  }));
  rows.replaceChildren();
  const count = Number($("seats").value);
  for (let seat = 0; seat < count; seat++) {
    const row = node("div", "form-row seat-row");
    row.dataset.seat = String(seat);
    row.append(node("label", "", t("seat_n", { n: seat + 1 }) + (seat === 0 ? ` (${t("you")})` : "")));
    const name = document.createElement("input");
    name.dataset.name = "";
    name.maxLength = 32;
    name.placeholder = seat === 0 ? t("your_name") : t("friend_name");
    name.setAttribute("aria-label", name.placeholder);
    if (seat === 0) {
      name.value = before[0]?.name || localStorage.getItem("osteria_name") || "";
      row.append(name);
    } else {
      const kind = document.createElement("select");
      kind.dataset.kind = "";
      kind.setAttribute("aria-label", t("seat_n", { n: seat + 1 }));
      kind.append(new Option(t("bot"), "bot"), new Option(t("human"), "human"));
      kind.value = before[seat]?.kind || "bot";
      const level = document.createElement("select");
      level.dataset.level = "";
      level.setAttribute("aria-label", t("level"));
      for (const l of app.games.levels) level.append(new Option(levelName(l), l));
      level.value = before[seat]?.level || "medio";
      name.value = before[seat]?.name || "";
      const sync = () => {
        level.hidden = kind.value !== "bot";
        name.hidden = kind.value !== "human";
      };
      kind.addEventListener("change", sync);
      sync();
      row.append(kind, level, name);
    }
    rows.append(row);
  }
}

function optionValue(option, input) {
  if (option.choices || Array.isArray(option.default)) return JSON.parse(input.value);
  const text = input.value.trim();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function createTable() {
  const game = currentGame();
  const options = {};
  for (const option of game.options) {
    const value = optionValue(option, $(`option-${option.name}`));
    if (JSON.stringify(value) !== JSON.stringify(option.default)) options[option.name] = value;
  }
  const players = [...document.querySelectorAll(".seat-row")].map((row, seat) => {
    const name = row.querySelector("[data-name]").value.trim() || undefined;
    const kind = seat === 0 ? "human" : row.querySelector("[data-kind]").value;
    return kind === "bot" ? { kind, level: row.querySelector("[data-level]").value } : { kind, ...(name ? { name } : {}) };
  });
  const ownName = document.querySelector('.seat-row [data-name]').value.trim();
  if (ownName) localStorage.setItem("osteria_name", ownName);
  $("create-error").textContent = "";
  $("create").disabled = true;
  try {
    const created = await fetchJson("/api/tables", {
      method: "POST",
      body: JSON.stringify({
        game: game.name, seats: Number($("seats").value), options, players, stand_in_level: $("stand-in").value,
        listed: $("listed").checked,
      }),
    });
    showInvites(created);
  } catch (error) {
    $("create-error").textContent = t("error", { message: refusal(app.lang, error) });
  } finally {
    $("create").disabled = false;
  }
}

function linkRow(label, path) {
  const item = node("li");
  const input = document.createElement("input");
  input.readOnly = true;
  input.value = new URL(path, location.origin).href;
  input.setAttribute("aria-label", label);
  const copy = node("button", "", t("copy"));
  copy.type = "button";
  copy.addEventListener("click", () => copyText(input, copy));
  item.append(node("strong", "", label), input, copy);
  return item;
}

async function copyText(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  button.textContent = t("copied");
  setTimeout(() => { button.textContent = t("copy"); }, 1500);
}

function showInvites(created) {
  $("create-form").hidden = true;
  const list = $("invite-list");
  list.replaceChildren();
  // Only the creator's own seat has a link: each friend's seat gets its token when he joins by the invite.
  if (created.link) list.append(linkRow(`${t("seat_n", { n: created.seat + 1 })} (${t("you")})`, created.link));
  list.append(linkRow(t("table_invite"), created.invite_link), linkRow(t("watch_link"), created.watch_link));
  sessionStorage.setItem(`osteria_invite_${created.table_id}`, created.invite_link);
  if (created.token) localStorage.setItem(`osteria_token_${created.table_id}`, created.token);
  $("go-to-table").onclick = () => { location.href = created.link || created.watch_link; };
  $("created").hidden = false;
}

// -- joining with the table's invitation -------------------------------------------------

function showJoin(invite) {
  $("join").hidden = false;
  $("join-name").value = localStorage.getItem("osteria_name") || "";
  $("join-watch").href = `/t/${encodeURIComponent(app.tableId)}`;
  $("join-watch").onclick = (event) => {
    event.preventDefault();
    $("join").hidden = true;
    history.replaceState(null, "", `/t/${encodeURIComponent(app.tableId)}`);
    connect(null);
  };
  $("join-form").onsubmit = async (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    if (name) localStorage.setItem("osteria_name", name);
    try {
      const joined = await fetchJson(`/api/tables/${encodeURIComponent(app.tableId)}/join`, {
        method: "POST", body: JSON.stringify({ invite, ...(name ? { name } : {}) }),
      });
      localStorage.setItem(`osteria_token_${app.tableId}`, joined.token);
      history.replaceState(null, "", tableAddress(new URLSearchParams(location.search)));
      $("join").hidden = true;
      connect(joined.token);
    } catch (error) {
      $("join-error").textContent = t("error", { message: refusal(app.lang, error) });
    }
  };
}

// -- the live table ------------------------------------------------------------------------

// The table's WebSocket. A seat's token is first traded for the join cookie (POST .../session),
// which the socket then carries: its address holds no token for a proxy's log to keep, and every
// reconnection trades it again, so a cookie the browser dropped is set anew.
async function connect(token) {
  app.token = token;
  if (token) {
    let response = null;
    try {
      response = await fetch(`/api/tables/${encodeURIComponent(app.tableId)}/session`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }),
      });
    } catch {
      response = null; // the server is down: tried again below
    }
    if (response && (response.status === 403 || response.status === 404)) {
      refused(response.status === 404 ? 4404 : 4403);
      return;
    }
    if (!response || !response.ok) {
      reconnectLater();
      return;
    }
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(app.tableId)}?lang=${app.lang}&patches=1`);
  app.ws = ws;
  ws.onopen = () => {
    app.retries = 0;
    app.down = false;
    app.unsent = false;
    app.busy = null;
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = (event) => {
    if (app.ws !== ws) return;
    if (event.code === 4404 || event.code === 4403) refused(event.code);
    else if (event.code === 4429) tooMany(event.reason || "4429");
    else reconnectLater();
  };
}

// Too many sockets from this address, or a flood: coming back at once would be refused again, so
// the page waits for its player to close other tabs and try again.
function tooMany(reason) {
  app.busy = reason;
  app.down = true;
  if (app.table) {
    renderBanner();
    return;
  }
  fatal(t("too_many", { reason }));
  const button = node("button", "", t("try_again"));
  button.type = "button";
  button.addEventListener("click", () => {
    $("fatal").hidden = true;
    tryAgain();
  });
  $("fatal").append(" ", button);
}

function tryAgain() {
  app.busy = null;
  app.retries = 0;
  connect(app.token);
}

// The table is unknown (4404), or the token holds no seat at it (4403): no coming back.
function refused(code) {
  app.closed = true;
  if (code === 4403) localStorage.removeItem(`osteria_token_${app.tableId}`);
  fatal(t(code === 4404 ? "no_table" : "bad_token"));
}

function reconnectLater() {
  if (app.closed) return;
  app.down = true;
  renderBanner();
  const wait = RECONNECT_MS[Math.min(app.retries, RECONNECT_MS.length - 1)];
  app.retries += 1;
  setTimeout(() => connect(app.token), wait);
}

async function passOn() {
  let passed;
  try {
    passed = await fetchJson(`/api/tables/${encodeURIComponent(app.tableId)}/pass-on`, {
      method: "POST", body: JSON.stringify(app.token ? { token: app.token } : {}),
    });
  } catch (error) {
    showBanner(t("error", { message: refusal(app.lang, error) }), true);
    renderTools();
    return;
  }
  // This page holds the seat no more: the server closes its socket, and it does not come back.
  app.closed = true;
  const ws = app.ws;
  app.ws = null;
  if (ws) ws.close();
  localStorage.removeItem(`osteria_token_${app.tableId}`);
  $("table-view").hidden = true;
  fatal(t("passed_on"));
  const list = node("ul", "invites");
  list.append(linkRow(t("seat_n", { n: passed.seat + 1 }), passed.link));
  $("fatal").append(list);
}

// Leaving gives the seat to a bot (or frees it, before play) and revokes this page's token; the
// page goes back to the lobby.
async function leave() {
  const ws = app.ws;
  app.ws = null; // the server closes it (4403): not a refusal to tell the player about
  try {
    await fetchJson(`/api/tables/${encodeURIComponent(app.tableId)}/leave`, {
      method: "POST", body: JSON.stringify(app.token ? { token: app.token } : {}),
    });
  } catch (error) {
    app.ws = ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) connect(app.token);
    showBanner(t("error", { message: refusal(app.lang, error) }), true);
    renderTools();
    return;
  }
  app.closed = true;
  if (ws) ws.close();
  localStorage.removeItem(`osteria_token_${app.tableId}`);
  location.assign(withAskedLanguage("/"));
}

// Sends a message if the socket is open, and says whether it did. Nothing is kept to be sent on
// reconnecting: while the page is away the table moves on (a stand-in may play for the seat, the
// trick may be taken), and a card played into a table its player has not seen is not his choice.
// The banner says that nothing was sent, and the player clicks again once the page is back.
function send(message) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) {
    app.ws.send(JSON.stringify(message));
    return true;
  }
  app.down = true;
  app.unsent = true;
  renderBanner();
  return false;
}

// The state a patch makes of the state before (the page asks for patches: after the first state,
// each comes as what changed): "set" replaces keys of the state, but for table, view and lines,
// whose changed keys come under their own names and whose keys gone are listed under "drop". The
// state before is left whole: the new one copies what it changes.
const PATCHED = ["table", "view", "lines"];

function patched(state, patch) {
  const next = { ...state, ...patch.set, type: "state" };
  const dropped = patch.drop || {};
  for (const key of PATCHED) {
    if (!(key in patch) && !(key in dropped)) continue;
    const part = { ...next[key], ...(patch[key] || {}) };
    for (const gone of dropped[key] || []) delete part[gone];
    next[key] = part;
  }
  return next;
}

function receive(message) {
  switch (message.type) {
    case "patch":
      if (app.state) receive(patched(app.state, message));
      break;
    case "state": {
      app.state = message;
      const moved = !app.table || app.table.move !== message.table.move;
      app.table = message.table;
      app.seat = message.seat;
      app.view = message.view;
      app.legal = message.legal || [];
      app.lines = message.lines || null;
      app.lastRoundOffer = message.last_round_offer || null;
      const { clock } = message.table;
      app.clock = clock ? { seat: clock.seat, ends: Date.now() + clock.seconds * 1000 } : null;
      if (!app.lastRoundOffer) app.confirmLastRound = false;
      app.sent = null;
      if (moved) {
        app.error = null;
        app.selection = null;
        hideVariants();
        if (app.hint && app.hint.move !== app.table.move) app.hint = null;
      }
      render();
      break;
    }
    case "deal_end":
      app.dealEnds.set(message.deal_index, message);
      // The next deal begins at once: say how this one ended for a while.
      app.dealNotice = { index: message.deal_index, until: Date.now() + DEAL_NOTICE_MS };
      setTimeout(() => { if (app.table) renderBanner(); }, DEAL_NOTICE_MS + 50);
      if (app.table) {
        renderBanner();
        renderResult();
      }
      break;
    case "rematch":
      // This seat's own link at the rematch, told to it alone: the page moves there.
      app.closed = true;
      location.assign(withAskedLanguage(message.link));
      break;
    case "left":
      app.chat.push({ ...message, key: app.table && app.table.status === "waiting" ? "left_waiting" : "left_playing" });
      app.chat.splice(0, app.chat.length - 100);
      renderChat();
      break;
    case "chat":
      app.chat.push(message);
      app.chat.splice(0, app.chat.length - 100);
      renderChat();
      break;
    case "hint":
      app.hint = message;
      if (app.table) render();
      break;
    case "analysis_pending":
    case "analysis":
      app.analyses.set(message.deal_index, message);
      if (app.table) renderResult();
      break;
    case "error":
      app.error = refusal(app.lang, message);
      app.sent = null;
      // A refused hint or analysis is no longer awaited (the button may be pressed again).
      if (app.hint && app.hint.type === "pending") app.hint = null;
      for (const [index, found] of app.analyses) if (found.type === "analysis_pending") app.analyses.delete(index);
      if (app.table) render();
      else fatal(t("error", { message: app.error }));
      break;
    default:
      break; // pong, deal_start (the state after it says all)
  }
}

function render() {
  $("loading").hidden = true;
  $("lobby").hidden = true;
  $("join").hidden = true;
  $("table-view").hidden = false;
  const { table, view } = app;
  document.title = `osteria · ${table.game}`;
  // The table's version and status, for whoever drives the page (its tests).
  $("table-view").dataset.move = String(table.move);
  $("table-view").dataset.status = table.status;
  $("table-view").dataset.seat = String(app.seat);
  $("table-view").dataset.deals = String((table.result.deals || []).length);
  $("table-title").textContent = `${table.game} · ${t("deal_n", { n: (view.deal_index ?? 0) + 1 })}`;
  renderBanner();
  renderFelt();
  renderHand();
  renderChoices();
  renderPrompt();
  renderScores();
  renderInfo();
  renderWatchers();
  renderResult();
  renderHint();
  renderTools();
  renderFair();
  renderChat();
  renderGlossary();
}

// The game's terms and what they mean, where the server lists them.
function renderGlossary() {
  const game = app.games.games.find((g) => g.name === app.table.game);
  const column = app.lang === "it" ? 0 : 1;
  // A term whose meaning is the term itself ("busso" in Italian) says nothing more.
  const terms = Object.entries({ ...(game && game.glossary), ...(game && game.signal_names) })
    .filter(([word, meaning]) => meaning[column] !== word.replace(/_/g, " "));
  $("glossary-panel").hidden = !terms.length;
  $("glossary").replaceChildren(...terms.map(([word, meaning]) => {
    const item = node("li");
    item.append(node("strong", "", `${word}: `), document.createTextNode(meaning[column]));
    return item;
  }));
}

// The banner above the felt; ``action`` ({label, run}) adds a button to it.
function showBanner(text, warn = false, action = null) {
  const banner = $("banner");
  // Drawn anew only when it says something else, so that its button is never swapped under the
  // pointer of a player about to click it (the table re-renders with every move).
  const shown = `${warn}|${text}|${action ? action.label : ""}`;
  if (banner.dataset.shown === shown) return;
  banner.dataset.shown = shown;
  banner.textContent = text;
  banner.className = warn ? "banner warn" : "banner";
  banner.hidden = !text;
  if (action) {
    const button = node("button", "banner-action", action.label);
    button.type = "button";
    button.addEventListener("click", action.run);
    banner.append(" ", button);
  }
}

// The seconds left on a seat's turn clock, when it is near enough to show (null otherwise).
function clockLeft(seat) {
  if (!app.clock || app.clock.seat !== seat || app.table.status !== "playing") return null;
  const left = Math.max(0, Math.ceil((app.clock.ends - Date.now()) / 1000));
  return left <= CLOCK_SHOWN_S ? left : null;
}

// Once a second the clock's badge and the player's own countdown follow the time.
setInterval(() => {
  if (!app.table || !app.clock) return;
  for (const badge of document.querySelectorAll("#felt .clock")) {
    const left = clockLeft(Number(badge.dataset.seat));
    badge.hidden = left === null;
    badge.textContent = left === null ? "" : `⏱ ${left}`;
  }
  if (app.clock.seat === app.seat) renderBanner();
}, 1000);

function renderBanner() {
  const { table } = app;
  const mine = app.seat === null ? null : table.players[app.seat];
  if (app.busy) {
    showBanner(t("too_many", { reason: app.busy }), true, { label: t("try_again"), run: tryAgain });
  } else if (app.down) {
    showBanner(t(app.unsent ? "not_sent" : "reconnecting"), true);
  } else if (mine && mine.stand_in && table.status === "playing") {
    // Any action gives the seat back; this button is for a player who wants it back before his turn.
    showBanner(t("stood_in"), true, { label: t("im_back"), run: () => send({ type: "back" }) });
  } else if (clockLeft(app.seat) !== null) {
    showBanner(t("clock_mine", { s: clockLeft(app.seat) }), true);
  } else if (table.status === "waiting") {
    const free = table.players.filter((p) => p.kind === "human" && !p.taken).map((p) => playerName(p.seat));
    showBanner(t("waiting_players", { names: free.join(", ") }));
  } else if (table.status === "finished") {
    const winners = table.result.winners || [];
    const over = `${t("finished")} ${t("winners", { names: winners.map(shownName).join(", ") })}`;
    const { rematch } = table;
    if (rematch && rematch.table_id && app.seat === null) {
      showBanner(over, false, {
        label: t("watch_rematch"),
        run: () => location.assign(withAskedLanguage(`/t/${encodeURIComponent(rematch.table_id)}`)),
      });
    } else {
      showBanner(`${over} ${rematchNote(rematch)}`.trim());
    }
  } else if (app.dealNotice && app.dealNotice.until > Date.now()) {
    const { result } = app.dealEnds.get(app.dealNotice.index);
    showBanner(t("deal_over", { n: app.dealNotice.index + 1, outcome: result.outcome }));
  } else if (app.seat === null) {
    showBanner(t("spectating"));
  } else {
    showBanner("");
  }
}

// Who asked for a rematch, or whom the rematch waits for once this seat asked ("" for nothing to say).
function rematchNote(rematch) {
  if (!rematch || rematch.table_id || !rematch.agreed.length) return "";
  const people = app.table.players.filter((p) => p.kind === "human" && p.taken).map((p) => p.seat);
  if (app.seat !== null && rematch.agreed.includes(app.seat)) {
    const waited = people.filter((seat) => !rematch.agreed.includes(seat));
    return t("rematch_waiting", { names: waited.map(playerName).join(", ") });
  }
  return t("rematch_asked", { names: rematch.agreed.map(playerName).join(", ") });
}

// Where a seat sits on the felt, in percent: the page's own seat at the bottom, and play going
// counter-clockwise (the next seat at its right).
function seatPlace(seat, across, down) {
  const n = app.table.seats;
  const base = app.seat ?? 0;
  const angle = (2 * Math.PI * ((seat - base + n) % n)) / n;
  return { x: 50 + across * Math.sin(angle), y: 50 + down * Math.cos(angle) };
}

// The words said with each card of the deal ("busso" after 4d), from the seat's history.
function saidWith() {
  const said = new Map();
  for (const [, action] of app.view.history || []) {
    const words = String(action).split(" ");
    if (isCard(words[0]) && words.length > 1) said.set(words[0], words.slice(1).join(" "));
  }
  return said;
}

function renderFelt() {
  const { view, table } = app;
  // The corners (trumps, the previous trick) above the seats, so they never cover one.
  const bar = node("div", "felt-bar");
  const felt = node("div", "felt-area");
  $("felt").replaceChildren(bar, felt);
  $("felt").dataset.seats = String(table.seats);
  const words = cardWords();
  for (let seat = 0; seat < table.seats; seat++) {
    const place = seatPlace(seat, 40, 40);
    const box = node("div", "seat");
    box.dataset.seat = String(seat);
    box.style.left = `${place.x}%`;
    box.style.top = `${place.y}%`;
    if (view.to_move === seat) box.classList.add("to-move");
    box.append(node("span", "name", shownName(seat)));
    const player = table.players[seat];
    const meta = node("span", "meta");
    if (view.dealer === seat) meta.append(node("span", "badge", t("dealer")));
    if (player.kind === "bot" && !playerName(seat).includes(player.level)) meta.append(node("span", "badge", levelName(player.level)));
    else if (player.stand_in) meta.append(node("span", "badge", t("stand_in_badge")));
    else if (player.kind === "human" && player.taken && !player.connected) meta.append(node("span", "badge", t("offline")));
    const left = clockLeft(seat);
    const clock = node("span", "badge clock", left === null ? "" : `⏱ ${left}`);
    clock.dataset.seat = String(seat);
    clock.hidden = left === null;
    meta.append(clock);
    box.append(meta);
    const open = Array.isArray(view.hands) && seat !== app.seat ? view.hands[seat] : null;
    if (Array.isArray(open)) {
      const hand = node("div", "open-hand");
      for (const card of open) hand.append(cardFace(card, words));
      box.append(hand);
    } else if (seat !== app.seat && Array.isArray(view.hand_sizes)) {
      const count = view.hand_sizes[seat] ?? 0;
      const backs = node("div", "backs");
      backs.title = t("cards_left", { n: count });
      for (let i = 0; i < count; i++) backs.append(cardBack());
      box.append(backs);
    }
    felt.append(box);
  }
  const said = saidWith();
  const trick = Array.isArray(view.trick) ? view.trick : [];
  // Up to four players each card lies before its player; more make a row in the middle, named.
  const row = table.seats > 4 ? node("div", "trick-row") : null;
  for (const [seat, card] of trick) {
    if (!isCard(card)) continue;
    const holder = node("div", "trick-card");
    holder.dataset.seat = String(seat);
    holder.append(cardFace(card, words));
    if (said.has(card)) holder.append(node("span", "said", said.get(card)));
    if (row) {
      holder.append(node("span", "said", playerName(seat)));
      row.append(holder);
    } else {
      const place = seatPlace(seat, 19, 15);
      holder.style.left = `${place.x}%`;
      holder.style.top = `${place.y}%`;
      felt.append(holder);
    }
  }
  if (row) felt.append(row);
  const last = view.last_trick;
  if (last && Array.isArray(last.cards) && last.cards.length) {
    const box = node("div", "last-trick");
    box.dataset.role = "last-trick";
    box.append(node("div", "", t("previous_trick")));
    const cards = node("div", "cards");
    for (const [, card] of last.cards) if (isCard(card)) cards.append(cardFace(card, words));
    box.append(cards);
    if (Number.isInteger(last.winner)) box.append(node("div", "", t("taken_by", { name: shownName(last.winner) })));
    bar.append(box);
  }
  if (isSuit(view.trump) || isCard(view.turned) || isCard(view.bottom)) {
    const box = node("div", "trump-sign");
    box.dataset.role = "trump";
    const cards = node("div", "cards");
    if (isSuit(view.trump)) {
      const sign = node("div", "");
      sign.append(node("span", "", `${TRUMP_WORD[table.game] || t("trump")} `), suitChip(view.trump, words));
      box.append(sign);
    }
    for (const [key, label] of [["turned", t("turned")], ["bottom", t("bottom")]]) {
      if (!isCard(view[key])) continue;
      const holder = node("div", "");
      holder.append(cardFace(view[key], words), node("div", "", label));
      cards.append(holder);
    }
    box.append(cards);
    bar.prepend(box);
  }
}

// The seat whose cards the page's player chooses from now: his own, or the dummy's he plays.
function choosingSeat() {
  const { view } = app;
  if (app.legal.length && Number.isInteger(view.to_move) && view.to_move !== app.seat) return view.to_move;
  return app.seat;
}

function handOf(seat) {
  const { view } = app;
  if (seat === null) return [];
  if (seat === app.seat) return Array.isArray(view.hand) ? view.hand : [];
  return Array.isArray(view.hands) && Array.isArray(view.hands[seat]) ? view.hands[seat] : [];
}

// The legal actions that play a given card, by card.
function cardActions() {
  const byCard = new Map();
  for (const entry of app.legal) {
    const first = entry.action.split(" ")[0];
    if (!isCard(first)) continue;
    if (!byCard.has(first)) byCard.set(first, []);
    byCard.get(first).push(entry);
  }
  return byCard;
}

function hintedAction() {
  return app.hint && app.table && app.hint.move === app.table.move ? app.hint.action : null;
}

function renderHand() {
  const hand = $("hand");
  hand.replaceChildren();
  const seat = choosingSeat();
  const byCard = cardActions();
  const words = cardWords();
  const selection = app.selection;
  const hinted = hintedAction();
  for (const card of handOf(seat)) {
    const button = cardFace(card, words, "button");
    if (selection) {
      button.classList.add("selectable");
      if (selection.chosen.has(card)) button.classList.add("selected");
      button.setAttribute("aria-pressed", String(selection.chosen.has(card)));
      button.addEventListener("click", () => toggleChosen(card));
    } else if (byCard.has(card) && app.sent === null) {
      button.classList.add("playable");
      if (hinted && hinted.split(" ")[0] === card) button.classList.add("hinted");
      button.addEventListener("click", () => playCard(card, byCard.get(card)));
    } else {
      button.disabled = true;
    }
    hand.append(button);
  }
  fitHand();
}

// The hand in one row where the screen allows: cards narrow down to a size still easy to touch.
function fitHand() {
  const hand = $("hand");
  const count = hand.children.length;
  hand.style.removeProperty("--card-w");
  if (!count || !hand.clientWidth) return;
  const natural = hand.children[0].getBoundingClientRect().width;
  const fit = Math.floor((hand.clientWidth - (count - 1) * HAND_GAP_PX) / count);
  if (fit < natural) hand.style.setProperty("--card-w", `${Math.max(MIN_CARD_PX, fit)}px`);
}

function play(action) {
  if (app.sent !== null) return;
  hideVariants();
  if (!send({ type: "play", action, move: app.table.move })) return; // the card stays to be played
  app.sent = app.table.move;
  app.error = null;
  renderHand();
  renderChoices();
  renderPrompt();
}

function playCard(card, entries) {
  if (entries.length === 1) {
    play(entries[0].action);
    return;
  }
  // The card can be played with a signal: the variants, the plain card first.
  const box = $("variants");
  box.replaceChildren();
  const title = node("div", "group-word");
  title.style.color = "inherit";
  title.append(document.createTextNode(t("choose_variant", { card: "" })), cardChip(card, cardWords()));
  box.append(title);
  const sorted = [...entries].sort((a, b) => a.action.split(" ").length - b.action.split(" ").length);
  for (const entry of sorted) {
    const words = entry.action.split(" ").slice(1);
    const button = actionButton(entry, words.length ? actionNodes(words) : [node("span", "word", t("plain"))]);
    box.append(button);
  }
  const cancel = node("button", "action", t("cancel"));
  cancel.type = "button";
  cancel.addEventListener("click", hideVariants);
  box.append(cancel);
  box.hidden = false;
}

function hideVariants() {
  $("variants").hidden = true;
  $("variants").replaceChildren();
}

// A button that plays an action; ``explain``: with what its words mean (a group says it once).
function actionButton(entry, content, explain = true) {
  const button = node("button", "action");
  button.type = "button";
  button.dataset.action = entry.action;
  button.title = entry[app.lang] || entry.action;
  button.append(...content);
  const meaning = explain ? meaningOf(entry) : "";
  if (meaning) button.append(node("span", "gloss", meaning));
  if (hintedAction() === entry.action) button.classList.add("hinted");
  button.disabled = app.sent !== null;
  button.addEventListener("click", () => play(entry.action));
  return button;
}

function sortedKey(cards) {
  const order = (c) => SUITS.indexOf(c[1]) * 13 + RANKS.indexOf(c[0]);
  return [...cards].sort((a, b) => order(a) - order(b)).join(" ");
}

function startSelection(word, entries) {
  const byKey = new Map(entries.map((e) => [sortedKey(e.action.split(" ").slice(1)), e.action]));
  app.selection = { word, need: entries[0].action.split(" ").length - 1, chosen: new Set(), byKey };
  renderHand();
  renderChoices();
  renderPrompt();
}

function toggleChosen(card) {
  const { chosen, need } = app.selection;
  if (chosen.has(card)) chosen.delete(card);
  else if (chosen.size < need) chosen.add(card);
  renderHand();
  renderChoices();
}

function renderChoices() {
  const choices = $("choices");
  choices.replaceChildren();
  if (app.selection) {
    const { word, need, chosen, byKey } = app.selection;
    const action = chosen.size === need ? byKey.get(sortedKey(chosen)) : undefined;
    const confirm = node("button", "action", `${t("confirm")}: ${word}`);
    confirm.type = "button";
    confirm.dataset.confirm = word;
    confirm.disabled = action === undefined || app.sent !== null;
    confirm.addEventListener("click", () => play(action));
    const cancel = node("button", "action", t("cancel"));
    cancel.type = "button";
    cancel.addEventListener("click", () => {
      app.selection = null;
      render();
    });
    choices.append(confirm, cancel);
    return;
  }
  const groups = new Map();
  for (const entry of app.legal) {
    const first = entry.action.split(" ")[0];
    if (isCard(first)) continue;
    if (!groups.has(first)) groups.set(first, []);
    groups.get(first).push(entry);
  }
  const hand = new Set(handOf(choosingSeat()));
  for (const [word, entries] of groups) {
    const args = entries.map((e) => e.action.split(" ").slice(1));
    if (entries.length > MANY && args.every((a) => a.length === args[0].length && a.every((c) => hand.has(c)))) {
      const button = node("button", "action", `${word}…`);
      button.type = "button";
      button.dataset.select = word;
      button.dataset.need = String(args[0].length);
      button.addEventListener("click", () => startSelection(word, entries));
      choices.append(button);
    } else if (entries.length === 1 || args.every((a) => a.length === 0)) {
      for (const entry of entries) choices.append(actionButton(entry, actionNodes(entry.action.split(" "))));
    } else {
      // One word, several arguments: the word once, then a button per argument.
      const group = node("div", "group");
      const label = node("span", "group-word", word);
      const meaning = meaningOf(entries[0]);
      if (meaning) label.append(node("span", "gloss", ` (${meaning})`));
      group.append(label);
      for (const entry of entries) {
        group.append(actionButton(entry, actionNodes(entry.action.split(" ").slice(1)), false));
      }
      choices.append(group);
    }
  }
}

function renderPrompt() {
  const { view, table } = app;
  const prompt = $("prompt");
  let text = "";
  if (app.selection) {
    text = t("choose_cards", { word: app.selection.word, n: app.selection.need });
    prompt.dataset.need = String(app.selection.need);
  } else if (table.status !== "playing") {
    text = "";
  } else if (app.legal.length) {
    const seat = choosingSeat();
    text = seat === app.seat ? t("your_turn") : t("plays_for", { name: playerName(seat) });
  } else if (Number.isInteger(view.to_move)) {
    text = t("turn_of", { name: shownName(view.to_move) });
  }
  prompt.replaceChildren(document.createTextNode(text));
  prompt.dataset.turn = app.legal.length && app.sent === null ? "mine" : "other";
  if (app.error) prompt.append(node("div", "error", t("error", { message: app.error })));
}

function renderScores() {
  const { table } = app;
  const scores = $("scores");
  scores.replaceChildren();
  const totals = table.result.totals || [];
  for (let seat = 0; seat < table.seats; seat++) {
    const row = node("tr");
    row.append(node("th", "", shownName(seat)), node("td", "num", String(totals[seat] ?? 0)));
    scores.append(row);
  }
}

// The deal's tricks the rules let players look back at (Quattrigghiu's first basi), when the
// observation lists them.
function renderTricks() {
  const box = $("tricks");
  const tricks = Array.isArray(app.view.tricks) ? app.view.tricks : [];
  box.hidden = !tricks.length;
  const list = $("trick-list");
  list.replaceChildren();
  $("tricks-title").textContent = t("tricks_seen", { n: tricks.length });
  tricks.forEach((trick, i) => {
    const row = node("li", "trick-line");
    row.append(node("span", "", `${i + 1}. `));
    for (const [, card] of trick.cards || []) if (isCard(card)) row.append(cardChip(card, cardWords()));
    if (Number.isInteger(trick.winner)) row.append(node("span", "", ` → ${shownName(trick.winner)}`));
    list.append(row);
  });
}

function renderInfo() {
  renderTricks();
  const info = $("info");
  info.replaceChildren();
  const lines = app.lines && app.lines[app.lang];
  if (Array.isArray(lines)) {
    for (const line of lines) info.append(node("li", "", line));
    return;
  }
  for (const [key, value] of Object.entries(app.view)) {
    if (DRAWN.has(key)) continue;
    const item = node("li");
    item.append(node("strong", "", `${key.replace(/_/g, " ")}: `), ...valueNodes(value));
    info.append(item);
  }
}

// Who watches the table: the signed-in spectators by name, the guests counted.
function renderWatchers() {
  const { names, guests } = app.table.watchers || { names: [], guests: 0 };
  const shown = [...names];
  if (guests) shown.push(guests === 1 ? t("one_guest") : t("guests", { n: guests }));
  const watchers = $("watchers");
  watchers.hidden = !shown.length;
  watchers.textContent = shown.length ? t("watchers", { names: shown.join(", ") }) : "";
}

function renderResult() {
  const { table } = app;
  const deals = table.result.deals || [];
  const panel = $("result-panel");
  if (!deals.length) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const index = deals.length - 1;
  const result = deals[index];
  const ended = app.dealEnds.get(index);
  const list = $("result-lines");
  list.replaceChildren();
  const lines = ended && ended.lines && ended.lines[app.lang];
  if (Array.isArray(lines)) {
    for (const line of lines) list.append(node("li", "", line));
  } else {
    list.append(node("li", "", t("deal_over", { n: index + 1, outcome: result.outcome })),
      node("li", "", result.points.join(" · ")),
      node("li", "", `${t("delta")}: ${result.delta.map((d, s) => `${playerName(s)} ${d >= 0 ? "+" : ""}${d}`).join(" · ")}`));
  }
  // Once the deal is over its hands are public: each as it was dealt.
  const dealt = ended && ended.deal && Array.isArray(ended.deal.hands) ? ended.deal.hands : [];
  dealt.forEach((hand, seat) => {
    const item = node("li", "dealt");
    item.append(node("span", "", `${t("dealt", { name: playerName(seat) })}: `));
    for (const card of hand) if (isCard(card)) item.append(cardChip(card, cardWords()));
    list.append(item);
  });
  const analysis = $("analysis");
  analysis.replaceChildren();
  const found = app.analyses.get(index);
  if (!found) {
    const button = node("button", "action", t("analysis"));
    button.type = "button";
    button.dataset.analysis = String(index);
    button.addEventListener("click", () => {
      if (!send({ type: "analysis", deal_index: index })) return;
      app.analyses.set(index, { type: "analysis_pending", deal_index: index });
      renderResult();
    });
    analysis.append(button);
  } else if (found.type === "analysis_pending") {
    analysis.append(node("p", "notice", t("analysis_pending")));
  } else {
    renderAnalysis(analysis, found);
  }
}

function renderAnalysis(box, found) {
  drawAnalysis(box, found, { t, lang: app.lang, playerName, actionNodes });
}

function renderHint() {
  const panel = $("hint-panel");
  const hint = app.hint;
  if (!hint) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const box = $("hint");
  box.replaceChildren();
  if (hint.type === "pending") {
    box.append(node("p", "notice", t("thinking")));
    return;
  }
  const best = node("p");
  best.append(document.createTextNode(t("hint_best", { action: "" })), ...actionNodes(hint.action.split(" ")));
  box.append(best);
  // A forced action is weighed against nothing: the hint says so rather than show an empty table.
  if (!Object.keys(hint.values).length) {
    box.append(node("p", "notice", t("only_action")));
    return;
  }
  // As the terminal lists them: the hinted action first, marked, then the others, the best first.
  const chosen = hint.values[hint.action];
  const others = Object.entries(hint.values).filter(([action]) => action !== hint.action).sort((a, b) => b[1] - a[1]);
  if (hint.outvalued) box.append(node("p", "notice", t("hint_not_top")));
  const table = node("table");
  table.dataset.role = "hint-values";
  const unit = t(`unit_${hint.unit}`);
  for (const [action, value] of [[hint.action, chosen], ...others]) {
    const row = node("tr", action === hint.action ? "hinted" : "");
    const cell = node("td");
    cell.append(...actionNodes(action.split(" ")));
    row.append(node("td", "chosen", action === hint.action ? "→" : ""), cell,
      node("td", "num", `${amount(app.lang, value, true)} ${unit}`));
    table.append(row);
  }
  box.append(table);
}

function renderTools() {
  const { table } = app;
  const hintButton = $("hint-button");
  hintButton.hidden = app.seat === null;
  hintButton.disabled = !app.legal.length || (app.hint && app.hint.type === "pending");
  hintButton.onclick = () => {
    if (!send({ type: "hint" })) return;
    app.hint = { type: "pending", move: table.move };
    renderHint();
  };
  const start = $("start-button");
  start.hidden = !(table.status === "waiting" && app.seat !== null);
  start.onclick = () => send({ type: "start" });
  // The match's last round, a control of the table and not a move: offered by the server only to
  // the seat that may declare it now (Calabresella's dealer, as the seed has it); a first press
  // asks, a second declares.
  const lastRound = $("last-round-button");
  const offer = app.lastRoundOffer;
  lastRound.hidden = !offer;
  lastRound.classList.toggle("primary", Boolean(offer && app.confirmLastRound));
  lastRound.textContent = offer && app.confirmLastRound
    ? t("confirm_last_round", { n: offer.last_deal + 1 }) : t("last_round");
  lastRound.onclick = () => {
    if (!app.confirmLastRound) {
      app.confirmLastRound = true;
      renderTools();
      return;
    }
    if (send({ type: "last_round" })) app.confirmLastRound = false;
  };
  // Passing the seat on mints a fresh link for it and revokes this one: a first press asks.
  const passOnButton = $("pass-on-button");
  passOnButton.hidden = app.seat === null;
  passOnButton.textContent = t(app.confirmPassOn ? "confirm_pass_on" : "pass_on");
  passOnButton.onclick = () => {
    if (!app.confirmPassOn) {
      app.confirmPassOn = true;
      renderTools();
      return;
    }
    app.confirmPassOn = false;
    passOn();
  };
  // A rematch: offered to a seated player once the match is over, until he has asked for it.
  const { rematch } = table;
  const rematchButton = $("rematch-button");
  rematchButton.hidden = !(rematch && app.seat !== null && !rematch.table_id && !rematch.agreed.includes(app.seat));
  rematchButton.onclick = () => send({ type: "rematch" });
  // Leaving hands the seat to a bot for good: a first press asks.
  const leaveButton = $("leave-button");
  leaveButton.hidden = app.seat === null;
  leaveButton.textContent = t(app.confirmLeave ? "confirm_leave" : "leave");
  leaveButton.onclick = () => {
    if (!app.confirmLeave) {
      app.confirmLeave = true;
      renderTools();
      return;
    }
    app.confirmLeave = false;
    leave();
  };
  const record = $("record-link");
  record.href = `/api/tables/${encodeURIComponent(app.tableId)}/record`;
  record.download = `osteria-${app.tableId}.json`;
  $("replay-link").href = `/replay/${encodeURIComponent(app.tableId)}`;
  const invite = sessionStorage.getItem(`osteria_invite_${app.tableId}`);
  const copy = $("copy-invite");
  copy.hidden = !invite;
  copy.onclick = async () => {
    const input = document.createElement("input");
    input.value = new URL(invite, location.origin).href;
    await copyText(input, copy);
  };
}

function renderFair() {
  const box = $("fair");
  box.replaceChildren(node("p", "notice", t("fair_doc")));
  const deals = app.table.deals || [];
  for (const deal of deals.slice(-4).reverse()) {
    const item = node("p");
    item.dataset.deal = String(deal.deal_index);
    item.append(node("strong", "", t("deal_n", { n: deal.deal_index + 1 })), node("br"),
      document.createTextNode(`${t("seed_hash")}: ${deal.seed_hash}`), node("br"),
      document.createTextNode(`${t("seed")}: ${deal.seed || t("seed_hidden")}`));
    box.append(item);
  }
}

function renderChat() {
  const log = $("chat-log");
  if (!log) return;
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren();
  for (const line of app.chat) {
    if (line.type === "left") {
      log.append(node("div", "line notice", t(line.key, { name: line.name, now: line.now })));
      continue;
    }
    const item = node("div", "line");
    const who = line.seat === null || line.seat === undefined ? t("spectator") : (line.name || playerName(line.seat));
    item.append(node("span", "who", `${who}: `), document.createTextNode(line.text));
    log.append(item);
  }
  if (atBottom) log.scrollTop = log.scrollHeight;
}

window.addEventListener("resize", () => { if (app.table) fitHand(); });

$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  if (send({ type: "chat", text })) $("chat-text").value = ""; // kept to be sent again
});

main();
