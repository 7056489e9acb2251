// Italian playing cards drawn in SVG: the four suits in their own shapes and colours (gold
// denari, red coppe, blue spade, green bastoni), the rank in the corners, the figure's name.
// Cards are written as in osteria/1: rank then suit letter ("3d", "Rb", "Xs").

export const SUITS = "dcsb";
export const RANKS = "A23456789XFCR";
const SVG = "http://www.w3.org/2000/svg";

// One path set per suit, in a 100 x 100 box; the colours are the CSS classes' (style.css).
const SUIT_ART = {
  // Denari: a gold coin with a rim and a four-petal rosette.
  d: `<circle cx="50" cy="50" r="44" class="fill" />
      <circle cx="50" cy="50" r="34" class="line" />
      <path d="M50 24 Q58 42 76 50 Q58 58 50 76 Q42 58 24 50 Q42 42 50 24 Z" class="mark" />
      <circle cx="50" cy="50" r="6" class="fill" />`,
  // Coppe: a goblet.
  c: `<path d="M20 14 H80 Q82 52 56 62 V76 Q70 80 74 90 H26 Q30 80 44 76 V62 Q18 52 20 14 Z" class="fill" />
      <path d="M24 22 H76" class="line" />
      <ellipse cx="50" cy="36" rx="14" ry="8" class="mark" />`,
  // Spade: a sword, point up, with its guard and grip.
  s: `<path d="M50 3 L63 20 V64 H37 V20 Z" class="fill" />
      <path d="M50 12 V62" class="line" />
      <path d="M20 64 H80 V74 H20 Z" class="mark" />
      <path d="M44 74 H56 V90 H44 Z" class="fill" />
      <circle cx="50" cy="93" r="6" class="mark" />`,
  // Bastoni: a knotty club, leaning.
  b: `<path d="M24 90 Q16 84 22 74 L58 10 Q66 0 78 6 Q88 14 82 26 L42 92 Q34 100 24 90 Z" class="fill" />
      <circle cx="60" cy="34" r="7" class="mark" />
      <circle cx="44" cy="62" r="7" class="mark" />
      <circle cx="72" cy="14" r="5" class="mark" />
      <path d="M30 88 L70 18" class="line" />`,
};

export function isCard(word) {
  return typeof word === "string" && word.length === 2 && RANKS.includes(word[0]) && SUITS.includes(word[1]);
}

export function isSuit(word) {
  return typeof word === "string" && word.length === 1 && SUITS.includes(word);
}

export function suitOf(card) {
  return card[1];
}

// A suit's symbol as an SVG element (for cards, chips and the trump sign).
export function suitIcon(suit, className = "suit-icon") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", `${className} suit-${suit}`);
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = SUIT_ART[suit];
  return svg;
}

// The card's full name in a language, from the words the server serves (cards.py's names).
export function cardName(card, words) {
  const rank = words.rank_names[RANKS.indexOf(card[0])];
  const suit = words.suit_names[SUITS.indexOf(card[1])];
  return words.lang === "it" ? `${rank} di ${suit}` : `${rank} of ${suit}`;
}

// A card face. ``tag`` is "button" for a card one can play, "div" otherwise.
export function cardFace(card, words, tag = "div") {
  const el = document.createElement(tag);
  const rankIndex = RANKS.indexOf(card[0]);
  const figure = rankIndex >= 10;
  el.className = `card suit-${card[1]}${figure ? " figure" : ""}`;
  el.dataset.card = card;
  el.setAttribute("aria-label", cardName(card, words));
  el.title = cardName(card, words);
  if (tag === "button") el.type = "button";
  const rank = card[0] === "X" ? "10" : card[0];
  const top = document.createElement("span");
  top.className = "corner top";
  top.textContent = rank;
  const bottom = document.createElement("span");
  bottom.className = "corner bottom";
  bottom.textContent = rank;
  el.append(top, suitIcon(card[1], "pip"), bottom);
  const rankName = words.rank_names[rankIndex];
  if (rankName.length > 1) el.append(Object.assign(document.createElement("span"), {
    className: "rank-name", textContent: rankName,
  }));
  return el;
}

// The back of a card (another seat's hidden card).
export function cardBack() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

// A small inline chip for a card inside text: "3" and the suit icon.
export function cardChip(card, words) {
  const el = document.createElement("span");
  el.className = `chip suit-${card[1]}`;
  el.dataset.card = card;
  el.title = cardName(card, words);
  el.append(document.createTextNode(card[0] === "X" ? "10" : card[0]), suitIcon(card[1], "chip-icon"));
  return el;
}

// A suit letter as a chip: its icon and its name.
export function suitChip(suit, words) {
  const el = document.createElement("span");
  el.className = `chip suit-${suit}`;
  el.title = words.suit_names[SUITS.indexOf(suit)];
  el.append(suitIcon(suit, "chip-icon"), document.createTextNode(words.suit_names[SUITS.indexOf(suit)]));
  return el;
}

// An action's words as nodes: cards and suits drawn as chips, game words as they are.
export function actionChips(words, names) {
  return words.map((word) => {
    if (isCard(word)) return cardChip(word, names);
    if (isSuit(word)) return suitChip(word, names);
    return Object.assign(document.createElement("span"), { className: "word", textContent: word });
  });
}
