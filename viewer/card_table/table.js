// The card table (viewer/card_table): one Streamlit Components v2 module, plain JS, no build.
//
// It knows no game. Python sends drawing data (seats with a name, badges, a card face, a back
// or an empty place, a counter in words, arrows, lines for the middle of the table) already
// translated; this file only places and draws it. In "replay" mode it receives every step of
// a match at once and steps among them itself (buttons, slider, keys), with no Streamlit rerun:
// the step shown is kept in the address bar (?event=N), so a copied link opens it again.
// A seat may carry a clock (ck): absolute times, counted down here every quarter second with
// no Streamlit rerun; once a deadline shown has passed, Python is asked to catch up (expired).

const STATES = new WeakMap(); // parentElement -> this instance's state
// a play table's key -> what it last drew: kept on the page's window, not in STATES nor only in
// this module, because Streamlit mounts the element afresh when the page around it changes
// (paced steps, then the decision) and may evaluate this module again
const LAST_DRAWN = (window.__cuccuCardTable ||= { lastDrawn: new Map() }).lastDrawn;
const ARROW_COLOURS = {
  ask: "#0072B2", swap: "#009E73", refused: "#D55E00", skip: "#6b6b6b", undo: "#CC79A7",
  pack: "#0072B2", pledge: "#E69F00", draw: "#56B4E9", pay: "#E69F00",
};
const ARROW_DASHES = {
  refused: "10 6", skip: "3 5", undo: "12 4 3 4", pack: "2 4", pledge: "8 4", draw: "6 3",
  pay: "1 3",
};
const OVAL_BOX = { w: 104, h: 166 }; // a seat on the oval: narrowest, so never under 11 px text
const GRID_MIN = 168; // a seat's column in the compact grid
const GAP = 6;
const CLOCK_H = 50; // a clocked seat's lines on the oval (the first may wrap once)
const RESUME_H = 30; // and its "take it back" button
const CLOCKS = new WeakMap(); // a seat's .ct-clock node -> its clock data
const LABELS = new WeakMap(); // a clocked seat's box -> its words but the clock's
const EXPIRED_AFTER_MS = 1500; // the service applies a timeout up to ~0.5 s after its deadline
const ASK_AGAIN_MS = 5000;
// arrows along which a card changes hands: a card back flies along them (two ways on a swap)
const CARDS_MOVED = { swap: 2, undo: 2, pack: 1, draw: 1 };
const FLIGHT_MS = 650;
// inputs a person types into: a key pressed there is theirs, never a choice
const TYPED_INPUTS = ["text", "number", "search", "email", "password", "url", "tel", "date",
  "time", "datetime-local", "month", "week"];

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function heart(full) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 20 18");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M10,17 C-3,8 2,-2 10,4 C18,-2 23,8 10,17 Z");
  path.setAttribute("fill", full ? "#c0392b" : "none");
  path.setAttribute("stroke", "#c0392b");
  path.setAttribute("stroke-width", "2");
  svg.appendChild(path);
  return svg;
}

function cardNode(card) {
  const [corner, words, state] = card;
  const node = el("div", "ct-card");
  node.dataset.state = state;
  node.dataset.card = state === "up" ? corner : state === "down" ? "face-down" : "";
  if (state === "up") node.appendChild(el("div", "ct-corner", corner));
  if (words) node.appendChild(el("div", "ct-words", words));
  return node;
}

function clockTime(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const pad = (v) => String(v).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(total % 60)}` : `${m}:${pad(total % 60)}`;
}

// The times a clock shows at `now` (ms): to the deadline, and the reserve, which runs down
// once the decision's own time is up.
function clockAt(ck, now) {
  const left = ck.deadline_ms === null ? null : ck.deadline_ms - now;
  let reserve = ck.reserve_ms;
  if (ck.reserve_from_ms !== null && now > ck.reserve_from_ms) reserve -= now - ck.reserve_from_ms;
  return { left, reserve };
}

// Words with "{time}" in them: the time in its own span, which the ticks rewrite.
function timedLine(cls, words, time) {
  const node = el("div", cls);
  const [before, after] = words.split("{time}");
  if (before) node.appendChild(document.createTextNode(before));
  node.appendChild(el("span", "ct-time", time));
  if (after) node.appendChild(document.createTextNode(after));
  return node;
}

function clockWords(ck, now) {
  const at = clockAt(ck, now);
  const words = [];
  if (ck.abandoned) words.push(ck.abandoned_words);
  else if (at.left !== null) words.push(ck.left_words.replace("{time}", clockTime(at.left)));
  words.push(ck.reserve_words.replace("{time}", clockTime(at.reserve)));
  return words;
}

function clockNode(ck) {
  const now = Date.now();
  const at = clockAt(ck, now);
  const node = el("div", "ct-clock");
  node.dataset.deciding = at.left !== null && !ck.abandoned ? "1" : "0";
  node.dataset.abandoned = ck.abandoned ? "1" : "0";
  if (ck.abandoned) node.appendChild(el("div", "ct-clock-left ct-abandoned", ck.abandoned_words));
  else if (at.left !== null) {
    node.appendChild(timedLine("ct-clock-left", ck.left_words, clockTime(at.left)));
  }
  node.appendChild(timedLine("ct-clock-reserve", ck.reserve_words, clockTime(at.reserve)));
  if (ck.abandoned && ck.resume_words) {
    const take = el("button", "ct-resume", ck.resume_words);
    take.type = "button";
    node.appendChild(take);
  }
  CLOCKS.set(node, ck);
  return node;
}

// Every clock on the table at this instant; Python is asked to catch up once a deadline shown
// has passed (and again a little later if the page still shows it).
function tick(state) {
  const now = Date.now();
  for (const node of state.root.querySelectorAll(".ct-clock")) {
    const ck = CLOCKS.get(node);
    if (!ck) continue;
    const at = clockAt(ck, now);
    const left = node.querySelector(".ct-clock-left .ct-time");
    if (left && at.left !== null) left.textContent = clockTime(at.left);
    const reserve = node.querySelector(".ct-clock-reserve .ct-time");
    if (reserve) reserve.textContent = clockTime(at.reserve);
    const seat = node.closest(".ct-seat");
    if (seat && LABELS.has(seat)) { // a screen reader reads the time as it is now
      seat.setAttribute("aria-label", [LABELS.get(seat), ...clockWords(ck, now)].join(", "));
    }
    const late = at.left !== null && !ck.abandoned && -at.left > EXPIRED_AFTER_MS;
    if (late && state.trigger && now - (state.asked || 0) > ASK_AGAIN_MS) {
      state.asked = now;
      state.trigger("expired", ck.deadline_ms);
    }
  }
}

function seatNode(seat) {
  const node = el("div", "ct-seat");
  node.dataset.seat = seat.seat;
  node.dataset.highlight = seat.hl ? "1" : "0";
  node.dataset.deciding = seat.dc ? "1" : "0";
  node.dataset.faded = seat.fd ? "1" : "0";
  node.setAttribute("role", "group");
  const badges = el("div", "ct-badges");
  for (const [kind, text] of seat.b) {
    const badge = el("span", "ct-badge", text);
    badge.dataset.kind = kind;
    badges.appendChild(badge);
  }
  const words = el("div", "ct-words-col");
  words.appendChild(badges);
  const name = el("div", "ct-name", seat.n);
  name.title = seat.n;
  const counter = el("div", "ct-counter", seat.t);
  node.appendChild(cardNode(seat.card));
  words.appendChild(name);
  if (seat.hearts) {
    const hearts = el("div", "ct-hearts");
    const [full, max] = seat.hearts;
    for (let i = 0; i < max; i++) hearts.appendChild(heart(i < full));
    hearts.setAttribute("aria-hidden", "true");
    words.appendChild(hearts);
  }
  words.appendChild(counter);
  if (seat.ck) words.appendChild(clockNode(seat.ck));
  node.appendChild(words);
  if (seat.note) node.appendChild(el("div", "ct-note", seat.note));
  const label = [seat.n, seat.t, ...seat.b.map((b) => b[1]), seat.card[1] || seat.card[0]];
  node.setAttribute("aria-label", label.filter(Boolean).join(", "));
  if (seat.ck) {
    const words = node.getAttribute("aria-label");
    LABELS.set(node, words);
    node.setAttribute("aria-label", [words, ...clockWords(seat.ck, Date.now())].join(", "));
  }
  return node;
}

// Where the seats go on an oval of width W: the smallest height at which no two boxes touch,
// or null when none up to a sensible height exists (then the compact grid is used).
function ovalPlaces(W, n, box) {
  const maxH = Math.min(1.25 * W, 980);
  for (let H = 2 * box.h + 40; H <= maxH; H += 8) {
    const rx = (W - box.w) / 2;
    const ry = (H - box.h) / 2;
    const places = [];
    for (let i = 0; i < n; i++) {
      const a = Math.PI / 2 - (2 * Math.PI * i) / n;
      places.push([W / 2 + rx * Math.cos(a) - box.w / 2, H / 2 + ry * Math.sin(a) - box.h / 2]);
    }
    let clear = true;
    for (let i = 0; i < n && clear; i++) {
      for (let j = i + 1; j < n; j++) {
        const dx = Math.abs(places[i][0] - places[j][0]);
        const dy = Math.abs(places[i][1] - places[j][1]);
        if (dx < box.w + GAP && dy < box.h + GAP) { clear = false; break; }
      }
    }
    // the middle needs room for its lines between the seats
    if (clear && (ry - box.h / 2 > 40 || n <= 2)) return { H, places };
  }
  return null;
}

function drawBoard(wrap, table, animate = false) {
  wrap.replaceChildren();
  const W = Math.max(wrap.clientWidth, 200);
  const n = table.seats.length;
  const board = el("div", "ct-board");
  board.setAttribute("role", "img");
  board.setAttribute("aria-label", table.label);
  board.dataset.seats = n;
  const centre = el("div", "ct-centre");
  for (const line of table.centre) centre.appendChild(el("div", "ct-line", line));
  const seats = table.seats.map(seatNode);
  const share = n <= 4 ? 4.2 : n <= 6 ? 4.8 : 5.4; // fewer seats, wider boxes
  const clocked = table.seats.some((s) => s.ck);
  const resumable = table.seats.some((s) => s.ck && s.ck.abandoned && s.ck.resume_words);
  const h = OVAL_BOX.h + (clocked ? CLOCK_H : 0) + (resumable ? RESUME_H : 0);
  const box = { w: Math.min(150, Math.max(OVAL_BOX.w, Math.floor(W / share))), h };
  const oval = n <= 12 ? ovalPlaces(W, n, box) : null;
  if (oval) {
    board.classList.add("ct-oval");
    board.style.height = `${oval.H}px`;
    const cloth = el("div", "ct-cloth");
    const inset = { x: box.w * 0.45, y: box.h * 0.42 };
    Object.assign(cloth.style, {
      left: `${inset.x}px`, top: `${inset.y}px`,
      width: `${W - 2 * inset.x}px`, height: `${oval.H - 2 * inset.y}px`,
    });
    board.appendChild(cloth);
    Object.assign(centre.style, {
      left: `${box.w + GAP}px`, width: `${W - 2 * (box.w + GAP)}px`,
      top: `${oval.H / 2 - 45}px`, height: "90px",
    });
    board.appendChild(centre);
    seats.forEach((node, i) => {
      const [x, y] = oval.places[i];
      Object.assign(node.style, {
        left: `${x}px`, top: `${y}px`, width: `${box.w}px`, height: `${box.h}px`,
      });
      board.appendChild(node);
    });
  } else {
    board.classList.add("ct-grid");
    board.appendChild(centre);
    const grid = el("div", "ct-seats");
    const columns = Math.max(1, Math.floor((W + GAP) / (GRID_MIN + GAP)));
    grid.style.gridTemplateColumns = `repeat(${columns}, minmax(0, 1fr))`;
    seats.forEach((node) => grid.appendChild(node));
    board.appendChild(grid);
  }
  wrap.appendChild(board);
  drawArrows(board, centre, seats, table.arrows, animate && motionAllowed());
}

function motionAllowed() {
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// A card back that travels along an arrow's path once (``reverse``: from its head to its tail),
// then is gone: the step's action seen happening, not only its result.
function flyCard(board, d, reverse) {
  const card = el("div", "ct-card ct-flying");
  card.dataset.state = "down";
  card.setAttribute("aria-hidden", "true");
  card.style.offsetPath = `path("${d}")`;
  board.appendChild(card);
  const ends = [{ offsetDistance: "0%" }, { offsetDistance: "100%" }];
  if (reverse) ends.reverse();
  if (!card.animate) { card.remove(); return; }
  const flight = card.animate(ends, { duration: FLIGHT_MS, easing: "ease-in-out", fill: "both" });
  flight.finished.then(() => card.remove(), () => card.remove());
}

function drawArrows(board, centre, seats, arrows, animate = false) {
  if (!arrows.length) return;
  const ns = "http://www.w3.org/2000/svg";
  const origin = board.getBoundingClientRect();
  const mid = (node) => {
    const r = node.getBoundingClientRect();
    return { x: r.left - origin.left + r.width / 2, y: r.top - origin.top + r.height / 2, r };
  };
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "ct-arrows");
  svg.setAttribute("width", origin.width);
  svg.setAttribute("height", origin.height);
  const defs = document.createElementNS(ns, "defs");
  svg.appendChild(defs);
  const flights = [];
  arrows.forEach(([from, to, kind, label], index) => {
    const colour = ARROW_COLOURS[kind] || "#333333";
    const id = `ct-head-${kind}-${index}`;
    const marker = document.createElementNS(ns, "marker");
    for (const [k, v] of Object.entries({ id, viewBox: "0 0 10 10", refX: "8", refY: "5",
      markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" })) {
      marker.setAttribute(k, v);
    }
    const tip = document.createElementNS(ns, "path");
    tip.setAttribute("d", "M0,0 L10,5 L0,10 Z");
    tip.setAttribute("fill", colour);
    marker.appendChild(tip);
    defs.appendChild(marker);
    const a = mid(from < 0 ? centre : seats[from]);
    const b = mid(to < 0 ? centre : seats[to]);
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    const cut = (p) => Math.min(p.r.width, p.r.height) * 0.45;
    const sx = a.x + ux * cut(a);
    const sy = a.y + uy * cut(a);
    const ex = b.x - ux * cut(b);
    const ey = b.y - uy * cut(b);
    const bend = 26 * (index % 2 === 0 ? 1 : -1);
    const mx = (sx + ex) / 2 - uy * bend;
    const my = (sy + ey) / 2 + ux * bend;
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", `M${sx},${sy} Q${mx},${my} ${ex},${ey}`);
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", colour);
    path.setAttribute("stroke-width", "4");
    if (ARROW_DASHES[kind]) path.setAttribute("stroke-dasharray", ARROW_DASHES[kind]);
    path.setAttribute("marker-end", `url(#${id})`);
    if (kind === "swap") path.setAttribute("marker-start", `url(#${id})`);
    const group = document.createElementNS(ns, "g");
    group.setAttribute("class", "ct-arrow");
    group.dataset.arrow = kind;
    group.dataset.from = from;
    group.dataset.to = to;
    group.appendChild(path);
    svg.appendChild(group);
    const tag = el("div", "ct-arrow-label");
    tag.style.color = colour;
    tag.style.left = `${mx}px`;
    tag.style.top = `${my}px`;
    tag.dataset.arrow = kind;
    tag.appendChild(el("span", "", label));
    board.appendChild(tag);
    const moved = animate ? CARDS_MOVED[kind] || 0 : 0;
    for (let i = 0; i < moved; i++) flights.push([path.getAttribute("d"), i === 1]);
  });
  board.appendChild(svg);
  for (const [d, reverse] of flights) flyCard(board, d, reverse);
}

// --- replay: the steps, the controls and the log -----------------------------------------------

function roundStarts(steps) {
  const starts = [];
  steps.forEach((step, i) => {
    if (step.r > 0 && (starts.length === 0 || starts[starts.length - 1][0] !== step.r)) {
      if (!starts.some(([r]) => r === step.r)) starts.push([step.r, i]);
    }
  });
  return starts;
}

function linkOf(state, step) {
  const url = new URL(window.location.href);
  const { link } = state.data;
  if (link && link.match) url.searchParams.set("match", link.match);
  if (link && link.lang) url.searchParams.set("lang", link.lang);
  url.searchParams.set("event", String(step));
  return url.toString();
}

function show(state, step, animate = false) {
  const { data } = state;
  const last = data.steps.length - 1;
  state.step = Math.max(0, Math.min(step, last));
  const now = data.steps[state.step];
  const parts = state.parts;
  // while the board is rebuilt the page must not shrink, or the browser scrolls it to the top
  parts.root.style.minHeight = `${parts.root.offsetHeight}px`;
  drawBoard(parts.board, now.t, animate);
  parts.heading.textContent = now.h;
  parts.now.textContent = now.c;
  parts.facts.textContent = now.f || "";
  parts.facts.hidden = !now.f;
  parts.root.dataset.step = state.step;
  parts.first.disabled = parts.prev.disabled = state.step === 0;
  parts.next.disabled = parts.last.disabled = state.step === last;
  parts.slider.value = String(state.step);
  if (parts.rounds) {
    const at = state.rounds.filter(([, s]) => s <= state.step).pop();
    parts.rounds.value = at ? String(at[0]) : "";
  }
  const log = el("ol");
  const from = Math.min(now.s, state.step);
  for (let v = state.step; v >= Math.max(from, 1); v--) {
    const item = el("li");
    item.dataset.current = v === state.step ? "1" : "0";
    item.appendChild(el("span", "ct-v", v));
    item.appendChild(el("span", "", data.steps[v].c));
    log.appendChild(item);
  }
  if (!log.children.length) log.appendChild(el("li", "", data.labels.nothing));
  parts.log.replaceChildren(log);
  parts.root.style.minHeight = "";
  if (data.link && data.link.match) {
    try {
      window.history.replaceState(window.history.state, "", linkOf(state, state.step));
    } catch (e) { /* a sandboxed page keeps its address */ }
  }
}

function button(text, cls, onClick) {
  const node = el("button", cls, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

function buildReplay(state) {
  const { data } = state;
  const L = data.labels;
  const root = state.root;
  root.replaceChildren();
  const controls = el("div", "ct-controls");
  controls.setAttribute("role", "toolbar");
  const go = (to) => { stopPlaying(state); show(state, to, to === state.step + 1); };
  const parts = { root };
  parts.first = button(L.first, "", () => go(0));
  parts.prev = button(L.prev, "", () => go(state.step - 1));
  parts.next = button(L.next, "ct-primary", () => go(state.step + 1));
  parts.last = button(L.last, "", () => go(data.steps.length - 1));
  parts.play = button(L.play, "", () => togglePlaying(state));
  controls.append(parts.first, parts.prev, parts.next, parts.last, parts.play);
  state.rounds = roundStarts(data.steps);
  if (state.rounds.length) {
    const pick = el("select");
    pick.setAttribute("aria-label", L.round);
    pick.appendChild(Object.assign(el("option", "", "—"), { value: "", disabled: true }));
    for (const [r] of state.rounds) {
      pick.appendChild(Object.assign(el("option", "", `${L.round} ${r}`), { value: String(r) }));
    }
    pick.addEventListener("change", () => {
      const found = state.rounds.find(([r]) => String(r) === pick.value);
      if (found) go(found[1]);
    });
    parts.rounds = pick;
    controls.appendChild(pick);
  }
  parts.copy = button(L.copy, "", () => copyLink(state));
  controls.appendChild(parts.copy);
  const slider = el("input");
  Object.assign(slider, { type: "range", min: "0", max: String(data.steps.length - 1), step: "1" });
  slider.setAttribute("aria-label", L.step);
  slider.addEventListener("input", () => go(Number(slider.value)));
  parts.slider = slider;
  controls.appendChild(slider);
  const body = el("div", "ct-body");
  const boardWrap = el("div", "ct-board-wrap");
  const side = el("div", "ct-side");
  parts.board = el("div", "ct-board-host");
  parts.heading = el("div", "ct-heading");
  parts.now = el("div", "ct-now");
  parts.now.setAttribute("aria-live", "polite");
  parts.facts = el("div", "ct-facts");
  parts.log = el("div", "ct-log");
  const logTitle = el("div", "ct-heading", L.log);
  const keys = el("div", "ct-keys", L.keys);
  boardWrap.appendChild(parts.board);
  state.narrow = root.clientWidth < 760;
  root.classList.toggle("ct-narrow", state.narrow);
  if (state.narrow) {
    // on a phone the event is read above the board, the log below it
    body.append(parts.heading, parts.now, boardWrap, parts.facts, logTitle, parts.log);
  } else {
    side.append(parts.heading, parts.now, parts.facts, logTitle, parts.log, keys);
    body.append(boardWrap, side);
  }
  root.append(controls, body);
  state.parts = parts;
}

function copyLink(state) {
  const link = linkOf(state, state.step);
  const done = () => {
    state.parts.copy.textContent = state.data.labels.copied;
    state.parts.copy.dataset.link = link;
    setTimeout(() => { state.parts.copy.textContent = state.data.labels.copy; }, 2500);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(link).then(done, () => { state.parts.copy.dataset.link = link; });
  } else {
    state.parts.copy.dataset.link = link;
    window.prompt(state.data.labels.copy, link);
  }
}

function stopPlaying(state) {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  if (state.parts && state.parts.play) state.parts.play.textContent = state.data.labels.play;
}

function togglePlaying(state) {
  if (state.timer) { stopPlaying(state); return; }
  state.parts.play.textContent = state.data.labels.pause;
  state.timer = setInterval(() => {
    if (state.step >= state.data.steps.length - 1) { stopPlaying(state); return; }
    show(state, state.step + 1, true);
  }, 900);
}

function onKey(state, event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  const tag = target && target.tagName ? target.tagName.toLowerCase() : "";
  if (["input", "textarea", "select"].includes(tag) || (target && target.isContentEditable)) {
    if (!(tag === "input" && target.type === "range" && state.root.contains(target))) return;
  }
  const last = state.data.steps.length - 1;
  let to = null;
  if (event.key === "ArrowRight") to = state.step + 1;
  else if (event.key === "ArrowLeft") to = state.step - 1;
  else if (event.key === "Home") to = 0;
  else if (event.key === "End") to = last;
  else if (event.key === "PageDown" || event.key === "PageUp") {
    const down = event.key === "PageDown";
    const starts = state.rounds.map(([, s]) => s);
    const found = down ? starts.find((s) => s > state.step)
      : starts.filter((s) => s < state.step).pop();
    to = found === undefined ? (down ? last : 0) : found;
  } else if (/^[1-9]$/.test(event.key)) {
    const found = state.rounds.find(([r]) => r === Number(event.key));
    if (found) to = found[1];
  }
  if (to === null) return;
  event.preventDefault();
  stopPlaying(state);
  show(state, to, to === state.step + 1);
}

// Play: the key shown on a choice's button takes it (digits, in the order the choices are
// offered), unless the person is typing in a field. One key press sends one choice.
function onChoiceKey(state, event) {
  const { data } = state;
  if (data.mode !== "play" || !data.choices || !data.choices.length) return;
  if (event.defaultPrevented || event.repeat || event.altKey || event.ctrlKey || event.metaKey) {
    return;
  }
  const target = event.target;
  const tag = target && target.tagName ? target.tagName.toLowerCase() : "";
  if (tag === "textarea" || tag === "select" || (target && target.isContentEditable)) return;
  if (tag === "input" && TYPED_INPUTS.includes((target.type || "text").toLowerCase())) return;
  if (target && target.closest && target.closest('[role="combobox"], [role="listbox"]')) return;
  const found = data.choices.find(([key]) => key === event.key);
  if (!found || !state.trigger) return;
  event.preventDefault();
  data.choices = []; // until Python draws the next decision
  state.trigger("choose", found[1]);
}

// A seat sent as 0 is the same as in the step before (viewer/card_table compact()).
function expand(steps) {
  let before = [];
  for (const step of steps) {
    if (!step.t) continue;
    step.t.seats = step.t.seats.map((seat, i) => (seat === 0 ? before[i] : seat));
    before = step.t.seats;
  }
  return steps;
}

// --- a seat kept across a reload -------------------------------------------------------------

// The seat this tab holds (its match, seat and token), in the tab's sessionStorage: a reload
// of the tab finds it again; another tab, a link opened or the tab closed never does.
const SEAT_STORE = "cuccu.seat";
let restoreAsked = false; // once per page load

function keeper(component) {
  const { data } = component;
  try {
    if (data.action === "keep") sessionStorage.setItem(SEAT_STORE, JSON.stringify(data.seat));
    else if (data.action === "forget") sessionStorage.removeItem(SEAT_STORE);
    else if (data.action === "restore" && !restoreAsked) {
      restoreAsked = true;
      // a reload (or Back) takes the seat back; an address opened afresh starts afresh, as
      // before (an invite link, a bookmark), and the tab forgets the seat it kept
      const entry = performance.getEntriesByType("navigation")[0];
      const how = entry ? entry.type : "navigate";
      const saved = sessionStorage.getItem(SEAT_STORE);
      if (how !== "reload" && how !== "back_forward") sessionStorage.removeItem(SEAT_STORE);
      else if (saved) component.setTriggerValue("restore", JSON.parse(saved));
    }
  } catch (e) { /* no storage (a private window's policy): a reload loses the seat */ }
  return () => {};
}

// --- a page whose news stopped coming -------------------------------------------------------

// A live page asks Python for news on a Streamlit timer (a fragment's run_every), and each such
// run draws its count into an element (data.beacon: a CSS selector). Should that count stand
// still for data.after_ms while the tab is shown (the timer lost: Streamlit has had such bugs,
// and a page that lost it would never show a move again), the browser asks for a whole run of
// the page, which catches up and arms the timer again; at most once per data.after_ms.
// setTimeout, not setInterval: a timer of its own kind, whatever happens to the page's others.
const WATCHES = new WeakMap(); // parentElement -> { data, trigger, seen, since, asked }

function newsWatch(component) {
  const { data, parentElement } = component;
  let watch = WATCHES.get(parentElement);
  if (!watch) {
    watch = { seen: null, since: Date.now(), asked: 0, stopped: false };
    WATCHES.set(parentElement, watch);
    const look = () => {
      if (watch.stopped) return;
      const now = Date.now();
      const beacon = document.querySelector(watch.data.beacon);
      const text = beacon ? beacon.textContent : null;
      if (text !== watch.seen || document.hidden) {
        watch.seen = text; // news came (or nobody looks: a hidden tab's timers are slowed)
        watch.since = now;
      } else if (now - watch.since >= watch.data.after_ms
                 && now - watch.asked >= watch.data.after_ms) {
        watch.asked = now;
        watch.trigger("stalled", now);
      }
      setTimeout(look, 250);
    };
    setTimeout(look, 250);
  }
  watch.data = data;
  watch.trigger = component.setTriggerValue;
  return () => {
    watch.stopped = true;
    WATCHES.delete(parentElement);
  };
}

// --- the entry point Streamlit calls on every render of the element ---------------------------

export default function (component) {
  const { data, parentElement } = component;
  if (data.mode === "keeper") return keeper(component);
  if (data.mode === "news") return newsWatch(component);
  let state = STATES.get(parentElement);
  if (!state) {
    for (const old of parentElement.querySelectorAll(":scope > .ct-root")) old.remove();
    const root = el("div", "ct-root");
    parentElement.appendChild(root);
    state = { root, key: null, step: 0, width: 0, scrolled: false };
    STATES.set(parentElement, state);
    state.resize = new ResizeObserver(() => {
      const width = state.root.clientWidth;
      if (!state.data || Math.abs(width - state.width) < 2) return;
      state.width = width;
      redraw(state, true);
    });
    state.resize.observe(root);
    root.addEventListener("click", (event) => {
      const take = event.target.closest && event.target.closest(".ct-resume");
      if (!take || !state.trigger) return;
      take.disabled = true; // one press sends one command
      state.trigger("resume", Date.now());
    });
  }
  state.trigger = component.setTriggerValue;
  if (!state.ticker) state.ticker = setInterval(() => tick(state), 250);
  const fresh = !state.data || state.data.key !== data.key;
  // Play's paced steps look for news several times a step and draw the same table each time:
  // drawn again, a card in flight along its arrow would be cut short
  const same = data.mode === "play" ? JSON.stringify(data) : null;
  if (!fresh && same !== null && same === state.same) return state.cleanup;
  state.same = same;
  if (state.data !== data) expand(data.steps);
  state.data = data;
  state.width = state.root.clientWidth;
  if (fresh) state.step = data.start || 0;
  // a card flies along an arrow once, when the table shows a new step, not on every rerun
  // (what the step changed: its arrows, the middle and the seats' cards and counters; a clock
  // ticking or a seat's deadline moving is not a step)
  const t = data.mode === "play" ? data.steps[0].t : null;
  const drawn = t && JSON.stringify([t.arrows, t.centre, t.seats.map((s) => [s.card, s.t])]);
  const before = LAST_DRAWN.get(data.key);
  state.animate = drawn !== null && before !== undefined && drawn !== before;
  if (drawn !== null) LAST_DRAWN.set(data.key, drawn);
  redraw(state, false);
  state.animate = false;
  if (data.mode === "replay" && !state.keys) {
    state.keys = (event) => onKey(state, event);
    document.addEventListener("keydown", state.keys);
  }
  if (data.mode === "play" && !state.choiceKeys) {
    state.choiceKeys = (event) => onChoiceKey(state, event);
    document.addEventListener("keydown", state.choiceKeys);
  }
  if (data.scroll && fresh) bringIntoView(state);
  state.cleanup = () => {
    stopPlaying(state);
    clearInterval(state.ticker);
    if (state.keys) document.removeEventListener("keydown", state.keys);
    if (state.choiceKeys) document.removeEventListener("keydown", state.choiceKeys);
    state.resize.disconnect();
    STATES.delete(parentElement);
  };
  return state.cleanup;
}

// After Start or on opening a match, the table (and what follows it) comes into view; again a
// little later while the page above it is still settling, unless the person has scrolled.
function bringIntoView(state) {
  let moved = false;
  const stop = () => { moved = true; };
  window.addEventListener("wheel", stop, { once: true, passive: true });
  window.addEventListener("touchstart", stop, { once: true, passive: true });
  const go = () => {
    const top = state.root.getBoundingClientRect().top;
    if (!moved && (top < 0 || top > 80)) state.root.scrollIntoView({ block: "start" });
  };
  requestAnimationFrame(go);
  for (const delay of [300, 800, 1600]) setTimeout(go, delay);
}

function redraw(state, resized) {
  const { data } = state;
  if (data.mode === "replay") {
    const narrow = state.root.clientWidth < 760;
    if (!state.parts || !resized || narrow !== state.narrow || state.builtFor !== data) {
      stopPlaying(state);
      buildReplay(state);
      state.builtFor = data;
    }
    show(state, state.step);
  } else {
    state.root.style.minHeight = `${state.root.offsetHeight}px`; // no shrink, no jump
    state.root.replaceChildren();
    const host = el("div", "ct-board-host");
    state.root.appendChild(host);
    drawBoard(host, data.steps[0].t, Boolean(state.animate) && !resized);
    state.root.style.minHeight = "";
  }
}
