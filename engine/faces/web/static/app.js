// claimlaw's page: builds a case file from the form, asks the server to validate and rule on it, draws the ruling.
"use strict";

const SEATS = ["N", "E", "S", "W"];
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const SUITS = ["S", "H", "D", "C"];
const SUIT_SYM = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const TRI = [["", "(not found)"], ["true", "yes"], ["false", "no"]];

const $ = (id) => document.getElementById(id);
let base = {};          // the last case read in: keys the form does not show are kept as they were
let current = null;     // the ruling shown: {ruling, view}
let step = 0;           // trick of the witness line shown (0: the position at the claim)
let witnessIndex = 0;
let polling = null;
let jobId = null;
let stopWanted = false; // Stop pressed before the server named the ruling
let shownJob = null;    // the ruling whose result is drawn (shown before its hinges come in)
let leaderChosen = false; // the Director picked the leader; until then it follows the declarer (the opening lead)

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

// -- building the form -----------------------------------------------------------------------------------

function buildForm() {
  for (const sel of document.querySelectorAll("select.seat")) {
    if (sel.dataset.empty) sel.append(el("option", { value: "", text: sel.dataset.empty }));
    for (const s of SEATS) sel.append(el("option", { value: s, text: SEAT_NAMES[s] }));
  }
  for (const id of ["play-on-by", "objection-by"]) {
    for (const s of SEATS) $(id).append(el("option", { value: s, text: SEAT_NAMES[s] }));
  }
  for (const sel of document.querySelectorAll("select.tri")) {
    for (const [v, t] of TRI) sel.append(el("option", { value: v, text: t }));
  }
  const hands = $("hands-entry");
  for (const s of SEATS) {
    const fs = el("fieldset", { class: "hand seat-" + s });
    fs.append(el("legend", { text: SEAT_NAMES[s] }));
    for (const u of SUITS) {
      const id = `hand-${s}-${u}`;
      const lab = el("label", { for: id, class: "suit suit-" + u, text: SUIT_SYM[u] });
      lab.append(el("span", { class: "sr-only", text: ` ${SEAT_NAMES[s]} ${SUIT_NAMES[u]}` }));
      const inp = el("input", { id, type: "text", autocomplete: "off", spellcheck: "false", autocapitalize: "characters" });
      fs.append(el("div", { class: "suitrow" }, lab, inp));
    }
    hands.append(fs);
  }
  const resp = $("responses-entry");
  for (const s of SEATS) {
    const id = `resp-${s}`;
    const sel = el("select", { id });
    for (const v of ["silent", "agrees", "disputes"]) sel.append(el("option", { value: v, text: v }));
    resp.append(el("div", { "data-field": `responses.${s}` }, el("label", { for: id, text: SEAT_NAMES[s] }), sel));
  }
}

async function loadMeta() {
  try {
    const r = await fetch("/api/meta");
    const meta = await r.json();
    const box = $("packs");
    for (const p of meta.packs) {
      const id = "pack-" + p.name;
      const inp = el("input", { type: "checkbox", id, value: p.name, class: "pack" });
      if (p.error) inp.disabled = true;
      box.append(el("label", { for: id, title: p.source || "" }, inp, ` ${p.name} — ${p.title}`));
    }
    if (!meta.packs.length) box.textContent = "(none installed)";
    return !!meta.store;
  } catch (e) {
    $("packs").textContent = "(could not list the packs)";
  }
}

// -- the 52-card picker: clicking gives a card to the chosen hand and takes it from any other --------------

const RANKS = "AKQJT98765432";

function holderOf(suit, rank) {
  return SEATS.find((s) => suitText($(`hand-${s}-${suit}`).value).includes(rank)) || "";
}

function drawPicker() {
  const box = $("picker");
  if (!box) return;
  box.textContent = "";
  for (const u of SUITS) {
    const row = el("div", { class: "pickrow" }, el("span", { class: "suit suit-" + u, text: SUIT_SYM[u], "aria-hidden": "true" }));
    for (const r of RANKS) {
      const who = holderOf(u, r);
      const name = `${SUIT_SYM[u]}${r === "T" ? "10" : r}`;
      const b = el("button", { type: "button", class: "pick" + (who ? " held" : ""), "data-card": u + r,
        "aria-label": `${SUIT_NAMES[u]} ${r === "T" ? "10" : r}${who ? ", " + SEAT_NAMES[who] : ""}` },
        r === "T" ? "10" : r, el("small", { text: who }));
      b.title = who ? `${name}: ${SEAT_NAMES[who]}` : name;
      row.append(b);
    }
    box.append(row);
  }
}

function pick(card) {
  const [u, r] = card;
  const seat = document.querySelector("input[name=pick-seat]:checked").value;
  const had = holderOf(u, r);
  for (const s of SEATS) {
    const inp = $(`hand-${s}-${u}`);
    inp.value = suitText(inp.value).replace(r, "");
  }
  if (had !== seat) {
    const inp = $(`hand-${seat}-${u}`);
    const held = suitText(inp.value);
    inp.value = [...RANKS].filter((x) => x === r || held.includes(x)).join("");
  }
  drawPicker();
  $("picker").querySelector(`button.pick[data-card="${card}"]`)?.focus();  // focus stays on the card picked
  checkSoon();
  keep();
}

// -- the case file from the form, and back ---------------------------------------------------------------

const val = (id) => $(id).value.trim();
const num = (id) => (val(id) === "" ? undefined : Number(val(id)));
const tri = (id) => (val(id) === "" ? undefined : val(id) === "true");
const cards = (text) => text.split(/[\s,;]+/).filter(Boolean);
const tricksOf = (text) => text.split("\n").map(cards).filter((t) => t.length);

function suitText(text) {
  return text.toUpperCase().replace(/10/g, "T").replace(/[^AKQJT98765432]/g, "");
}

// An "x" typed for a small card becomes the lowest card of that suit that no hand holds yet; the page says which.
function expandSmall(inp) {
  const m = inp.id.match(/^hand-([NESW])-([SHDC])$/);
  if (!m || !/x/i.test(inp.value)) return;
  const u = m[2];
  const held = new Set(SEATS.filter((s) => s !== m[1]).flatMap((s) => [...suitText($(`hand-${s}-${u}`).value)]));
  const mine = [...suitText(inp.value)];
  const given = [];
  let text = "";
  for (const ch of inp.value.toUpperCase().replace(/10/g, "T")) {
    if (ch !== "X") { text += ch; continue; }
    const low = [...RANKS].reverse().find((r) => !held.has(r) && !mine.includes(r));
    if (!low) continue;
    mine.push(low);
    given.push(low);
    text += low;
  }
  inp.value = [...RANKS].filter((r) => mine.includes(r)).join("");
  const names = given.map((r) => SUIT_SYM[u] + (r === "T" ? "10" : r));
  $("small-note").textContent = names.length
    ? `${SEAT_NAMES[m[1]]}: x read as ${names.join(", ")}, the lowest ${SUIT_NAMES[u]} not yet placed.`
    : `${SEAT_NAMES[m[1]]}: no ${SUIT_NAMES[u]} left for an x.`;
}

function setPath(obj, path, value) {
  const keys = path.split(".");
  let o = obj;
  for (const k of keys.slice(0, -1)) {
    if (typeof o[k] !== "object" || o[k] === null) o[k] = {};
    o = o[k];
  }
  const last = keys[keys.length - 1];
  if (value === undefined || value === "" || (Array.isArray(value) && !value.length)) delete o[last];
  else o[last] = value;
}

function pruneEmpty(obj) {
  for (const k of ["board", "responses", "timing", "findings"]) {
    if (obj[k] && typeof obj[k] === "object" && !Object.keys(obj[k]).length) delete obj[k];
  }
  return obj;
}

function buildCase() {
  const c = JSON.parse(JSON.stringify(base));
  setPath(c, "title", val("title"));
  setPath(c, "edition", val("edition") === "2017" && !base.edition ? undefined : val("edition"));
  setPath(c, "regulations", [...document.querySelectorAll("input.pack:checked")].map((i) => i.value));
  setPath(c, "board.contract", val("contract"));
  setPath(c, "board.declarer", val("contract") || base.board?.declarer ? val("declarer") : undefined);
  setPath(c, "board.vulnerable", val("vulnerable") === "none" ? undefined : val("vulnerable"));
  const deal = $("mode-deal").checked;
  for (const k of ["deal", "play", "position", "leader", "trick", "won"]) setPath(c, "board." + k, undefined);
  if (deal) {
    setPath(c, "board.deal", val("deal"));
    setPath(c, "board.play", tricksOf($("play").value));
  } else {
    const hands = SEATS.map((s) => SUITS.map((u) => suitText($(`hand-${s}-${u}`).value)).join("."));
    if (hands.some((h) => h !== "...")) {
      setPath(c, "board.position", "N:" + hands.join(" "));
      setPath(c, "board.leader", val("leader"));
      setPath(c, "board.trick", cards(val("trick")));
      if (val("won-NS") !== "" || val("won-EW") !== "") {
        setPath(c, "board.won", { NS: num("won-NS") ?? 0, EW: num("won-EW") ?? 0 });
      }
    }
  }
  setPath(c, "claim.by", val("claim-by"));
  setPath(c, "claim.says", val("says") === "claim" ? undefined : val("says"));
  setPath(c, "claim.tricks", num("claim-tricks"));
  setPath(c, "claim.statement", $("statement").value.trim());
  setPath(c, "claim.added_statement", $("added_statement").value.trim());
  setPath(c, "claim.added_before_objection", tri("added_before_objection"));
  for (const k of ["shows_cards", "suggests_curtailing", "abandons_hand", "current_trick_only", "after_lead_out_of_turn"]) {
    setPath(c, "claim." + k, $(k).checked ? true : undefined);
  }
  for (const s of SEATS) setPath(c, "responses." + s, val("resp-" + s) === "silent" ? undefined : val("resp-" + s));
  setPath(c, "responses.partner_objected_immediately", $("partner_objected_immediately").checked ? true : undefined);
  setPath(c, "responses.play_on", val("play-on-by") ? { requested_by: val("play-on-by"), all_concurred: $("play-on-all").checked } : undefined);
  setPath(c, "responses.play_after_claim", tricksOf($("play-after").value));
  setPath(c, "timing.objection", val("objection") === "none" ? undefined : val("objection"));
  setPath(c, "timing.objection_by", val("objection-by") || undefined);
  setPath(c, "timing.within_correction_period", tri("within"));
  setPath(c, "timing.minutes_after_scores_posted", num("minutes-after"));
  setPath(c, "timing.correction_period_minutes", num("period"));
  for (const k of ["aware_of_trumps", "demonstrably_not_claim", "irrational_not_to"]) setPath(c, "findings." + k, tri(k));
  setPath(c, "findings.class_of_player", val("class_of_player") || undefined);
  setPath(c, "findings.unaware_of", cards(val("unaware_of")));
  setPath(c, "findings.would_likely_have_won", num("would_likely_have_won"));
  setPath(c, "findings.conceded_won_tricks", num("conceded_won_tricks"));
  setPath(c, "findings.notes", val("findings-notes"));
  return pruneEmpty(c);
}

function setTri(id, v) { $(id).value = v === true ? "true" : v === false ? "false" : ""; }
const joinTricks = (ts) => (ts || []).map((t) => t.join(" ")).join("\n");

function fillForm(c) {
  base = JSON.parse(JSON.stringify(c));
  const b = c.board || {};
  const cl = c.claim || {};
  const r = c.responses || {};
  const t = c.timing || {};
  const f = c.findings || {};
  $("title").value = c.title || "";
  $("edition").value = String(c.edition || "2017");
  for (const i of document.querySelectorAll("input.pack")) i.checked = (c.regulations || []).includes(i.value);
  $("contract").value = b.contract || "";
  $("declarer").value = b.declarer || "";
  $("vulnerable").value = ({ none: "none", NS: "NS", EW: "EW", all: "all", both: "all" })[b.vulnerable] || "none";
  const deal = !!b.deal;
  $(deal ? "mode-deal" : "mode-diagram").checked = true;
  showMode();
  $("deal").value = b.deal || "";
  $("play").value = joinTricks(b.play);
  for (const s of SEATS) for (const u of SUITS) $(`hand-${s}-${u}`).value = "";
  if (b.position) {
    const first = b.position.trim()[0];
    const hands = b.position.trim().slice(2).split(/\s+/);
    let i = SEATS.indexOf(first);
    for (const h of hands) {
      const groups = h.split(".");
      SUITS.forEach((u, k) => { $(`hand-${SEATS[i % 4]}-${u}`).value = (groups[k] || "").replace(/-/g, ""); });
      i++;
    }
  }
  $("leader").value = b.leader || "";
  leaderChosen = !!b.leader;
  $("trick").value = (b.trick || []).join(" ");
  $("won-NS").value = b.won?.NS ?? "";
  $("won-EW").value = b.won?.EW ?? "";
  $("claim-by").value = cl.by || "";
  $("says").value = cl.says || "claim";
  $("claim-tricks").value = cl.tricks ?? "";
  $("statement").value = cl.statement || "";
  $("added_statement").value = cl.added_statement || "";
  setTri("added_before_objection", cl.added_before_objection);
  for (const k of ["shows_cards", "suggests_curtailing", "abandons_hand", "current_trick_only", "after_lead_out_of_turn"]) {
    $(k).checked = !!cl[k];
  }
  for (const s of SEATS) $("resp-" + s).value = r[s] || "silent";
  $("partner_objected_immediately").checked = !!r.partner_objected_immediately;
  $("play-on-by").value = r.play_on?.requested_by || "";
  $("play-on-all").checked = !!r.play_on?.all_concurred;
  $("play-after").value = joinTricks(r.play_after_claim);
  $("objection").value = t.objection || "none";
  $("objection-by").value = t.objection_by || "";
  setTri("within", t.within_correction_period);
  $("minutes-after").value = t.minutes_after_scores_posted ?? "";
  $("period").value = t.correction_period_minutes ?? "";
  for (const k of ["aware_of_trumps", "demonstrably_not_claim", "irrational_not_to"]) setTri(k, f[k]);
  $("class_of_player").value = f.class_of_player || "";
  $("unaware_of").value = (f.unaware_of || []).join(" ");
  $("would_likely_have_won").value = f.would_likely_have_won ?? "";
  $("conceded_won_tricks").value = f.conceded_won_tricks ?? "";
  $("findings-notes").value = f.notes || "";
  clearErrors();
  hideProblems();
  $("small-note").textContent = "";
  drawPicker();
}

function showMode() {
  const deal = $("mode-deal").checked;
  $("deal-entry").hidden = !deal;
  $("diagram-entry").hidden = deal;
}

// -- messages at the field ----------------------------------------------------------------------------------

function clearErrors() {
  for (const p of document.querySelectorAll("#case-form .field-error")) p.textContent = "";
  for (const i of document.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
  for (const b of document.querySelectorAll(".has-error")) b.classList.remove("has-error");
}

// The box (a [data-field] element with a message slot) that shows a problem about `field`: the deepest one
// whose field is the problem's or a parent of it, among those on view.
function boxFor(field) {
  let best = null;
  let bestLen = -1;
  for (const box of document.querySelectorAll("#case-form [data-field]")) {
    const f = box.dataset.field;
    if (box.closest("[hidden]")) continue;
    const fits = f === "" || field === f || field.startsWith(f + ".") || field.startsWith(f + "[");
    if (fits && f.length > bestLen && box.querySelector(":scope > .field-error")) { best = box; bestLen = f.length; }
  }
  return best;
}

const seatOf = (name) => SEATS.find((s) => SEAT_NAMES[s] === name);

// The inputs a problem is about: for the diagram, only the hands or the suits it names (a card twice: the suit
// boxes holding it; a wrong count: that hand's boxes); otherwise every input of its box.
function targetsOf(p, box) {
  if (p.field === "board.position" && box && box.dataset.field === "board.position") {
    const ids = [];
    for (const c of p.cards || []) {  // a card twice: the boxes of its suit that hold it
      const u = c[0];
      const r = c[1];
      for (const s of SEATS) if (suitText($(`hand-${s}-${u}`).value).includes(r)) ids.push(`hand-${s}-${u}`);
    }
    for (const s of p.seats || []) for (const u of SUITS) ids.push(`hand-${s}-${u}`);  // a hand off the count
    if (ids.length) return [...new Set(ids)].map((id) => $(id));
  }
  return box ? [...box.querySelectorAll("input, select, textarea")] : [$("rule")];
}

// Problems the page finds itself, beside the server's one line: a card in two hands (one problem per card) and
// hands off the position's trick count, so that the summary lists them all and marks only those boxes.
function localProblems() {
  const out = [];
  if ($("mode-diagram").checked) {
    const seen = {};
    for (const u of SUITS) {
      for (const s of SEATS) for (const r of new Set(suitText($(`hand-${s}-${u}`).value))) (seen[u + r] ||= []).push(s);
    }
    for (const u of SUITS) {
      for (const r of RANKS) {
        if ((seen[u + r] || []).length > 1) {
          out.push({ field: "board.position", cards: [u + r], message: `board.position: ${SUIT_SYM[u]}${r === "T" ? "10" : r} appears twice` });
        }
      }
    }
  }
  const counts = diagramCounts();
  if (counts) out.push(counts);
  if (!val("claim-by")) out.push({ field: "claim.by", message: "claim.by: choose who made the claim or concession" });
  return out;
}

// Each hand's count judged against the position's (as the server does): 13 less the tricks won when given, else
// the count most hands hold; a hand that played to the trick in progress holds one card fewer.
function diagramCounts() {
  if (!$("mode-diagram").checked) return null;
  const len = Object.fromEntries(SEATS.map((s) => [s, SUITS.reduce((n, u) => n + suitText($(`hand-${s}-${u}`).value).length, 0)]));
  if (!SEATS.some((s) => len[s]) || !val("leader")) return null;
  const trick = cards(val("trick"));
  const played = new Set(trick.map((_, i) => SEATS[(SEATS.indexOf(val("leader")) + i) % 4]));
  const count = Object.fromEntries(SEATS.map((s) => [s, len[s] + (played.has(s) ? 1 : 0)]));
  const won = (num("won-NS") ?? 0) + (num("won-EW") ?? 0);
  let n;
  let why;
  if (new Set(Object.values(count)).size === 1) return null;  // the hands agree: a wrong count won is the server's
  if ((val("won-NS") !== "" || val("won-EW") !== "") && Object.values(count).includes(13 - won)) {
    n = 13 - won;
    why = `with ${won} trick(s) won`;
  } else {
    const tally = {};
    for (const s of SEATS) tally[count[s]] = (tally[count[s]] || 0) + 1;
    n = Number(Object.keys(tally).sort((a, b) => tally[b] - tally[a] || (Number(b) === count[val("leader")]) - (Number(a) === count[val("leader")]) || Number(b) - Number(a))[0]);
    why = "as most hands hold";
  }
  const wrong = SEATS.filter((s) => count[s] !== n);
  if (!wrong.length) return null;
  const each = `each hand should have ${n}` + (played.size ? ` (${n - 1} after playing to the trick in progress)` : "");
  return { field: "board.position", seats: wrong, message: `board.position: ${wrong.map((s) => `${SEAT_NAMES[s]} has ${len[s]} card(s)`).join(", ")}; ${why}, ${each}` };
}

function hideProblems() {
  $("problems").hidden = true;
  $("problems-list").textContent = "";
}

// Show every problem at its field, the first one's field outlined; with `summary`, list them at the Rule button,
// each a link to its field. Returns the first problem's first input (to focus).
function showProblems(problems, summary) {
  clearErrors();
  const slots = new Map();
  let first = null;
  const items = [];
  for (const p of problems) {
    const box = boxFor(p.field || "");
    if (box?.closest("details")) box.closest("details").open = true;
    const slot = box ? box.querySelector(":scope > .field-error") : $("form-error");
    slots.set(slot, [...(slots.get(slot) || []), p.message]);
    const targets = targetsOf(p, box);
    for (const i of targets) if (i !== $("rule")) i.setAttribute("aria-invalid", "true");
    box?.classList.add("has-error");
    first ||= targets[0] || slot;
    items.push({ p, target: targets[0] || slot });
  }
  for (const [slot, msgs] of slots) slot.textContent = [...new Set(msgs)].join(" · ");
  // the first problem is the first on the page, top to bottom, whichever was found first
  items.sort((x, y) => (x.target.compareDocumentPosition(y.target) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  first = items.length ? items[0].target : first;
  if (summary && items.length) {
    const list = $("problems-list");
    list.textContent = "";
    for (const { p, target } of items) {
      if (!target.id) target.id = "problem-" + Math.random().toString(36).slice(2);
      const a = el("a", { href: "#" + target.id, text: p.message });
      a.addEventListener("click", (e) => { e.preventDefault(); goTo(target); });
      list.append(el("li", {}, a));
    }
    $("problems-count").textContent = `${items.length} problem${items.length === 1 ? "" : "s"}:`;
    $("problems").hidden = false;
  } else if (!summary) {
    hideProblems();
  }
  return first;
}

function goTo(target) {
  target.scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
}

// The server's problem with the page's own: where the page knows finer problems about the same field (each
// card twice), those stand in for the server's line; any other is listed too.
function allProblems(err) {
  const local = localProblems();
  const out = [];
  if (err && !local.some((p) => p.field === err.field && err.field === "board.position" && (err.cards || []).length)) {
    out.push(err);
  }
  for (const p of local) if (!out.some((q) => q.message === p.message || (q.field === p.field && p.field === "claim.by"))) out.push(p);
  return out;
}

function showError(err) {
  return showProblems(allProblems(err).filter((p) => p === err || p.field !== "claim.by" || !$("problems").hidden), !$("problems").hidden);
}

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: { field: "", message: `server error (${r.status})` } }; }
  return { ok: r.ok, status: r.status, data };
}

// Each edit starts a check; only the answer to the latest one is shown, so a slow answer about an older state of
// the form never overwrites a newer one. The form carries data-checking while the latest check is unanswered.
let checkTimer = null;
let checkSeq = 0;
function checkSoon() {
  clearTimeout(checkTimer);
  const mine = ++checkSeq;
  $("case-form").dataset.checking = "1";
  checkTimer = setTimeout(async () => {
    let answer = null;
    try { answer = await post("/api/check", buildCase()); } catch (e) { /* offline: the Rule button says so */ }
    if (mine !== checkSeq) return;
    delete $("case-form").dataset.checking;
    if (answer) { if (answer.ok) { clearErrors(); hideProblems(); } else showError(answer.data.error); }
  }, 350);
}

function cancelCheck() {
  clearTimeout(checkTimer);
  ++checkSeq;
  delete $("case-form").dataset.checking;
}

// -- keep and share: the case survives a visit to a clause page (this tab only), a link carries it anywhere
const KEPT = "claimlaw-case";
function keep() {
  try { sessionStorage.setItem(KEPT, JSON.stringify(buildCase())); } catch (e) { /* private mode: nothing kept */ }
}
// -- keep and share ------------------------------------------------------------------------------------------

function encodeCase(c) {
  const bytes = new TextEncoder().encode(JSON.stringify(c));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeCase(s) {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0))));
}

function shareLink() {
  const link = `${location.origin}${location.pathname}#case=${encodeCase(buildCase())}`;
  const box = $("share-link");
  box.hidden = false;
  box.value = link;
  box.select();
  history.replaceState(null, "", link);
  if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
}

async function download() {
  const c = buildCase();
  const r = await fetch("/api/yaml", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(c) });
  if (!r.ok) { const d = await r.json().catch(() => null); showError(d?.error || { field: "", message: "server error" }); return; }
  const name = (r.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/)?.[1] || "claim.yaml";
  const url = URL.createObjectURL(await r.blob());
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// An import's problem is shown at the paste box, where the Director is looking, whatever field it names.
async function importText(text) {
  const { ok, data } = await post("/api/import", { text });
  const slot = $("paste-box").querySelector(".field-error");
  if (!ok) {
    clearErrors();
    $("paste-box").open = true;
    slot.textContent = data.error.message;
    $("paste").setAttribute("aria-invalid", "true");
    $("paste").closest("[data-field]").classList.add("has-error");
    goTo($("paste"));
    return false;
  }
  fillForm(data.case);
  if (!data.case.claim) {
    slot.textContent = "";
    $("small-note").textContent = "The deal is in the diagram, with no claim yet: remove the cards already played and draw the claim.";
    goTo($("hand-N-S"));
  }
  keep();
  return true;
}

// -- ruling ----------------------------------------------------------------------------------------------------

// ``after``: the ruling this one varies (a hinge's answer): the server reuses the trick counts it settled
async function runRuling(ev, after) {
  if (ev) ev.preventDefault();
  $("run-error").textContent = "";
  jobId = null;
  shownJob = null;
  stopWanted = false;
  const budget = val("budget") === "" ? null : Number(val("budget"));
  cancelCheck();  // the ruling request validates the same form; a pending check would only repeat it
  let res;
  try {
    res = await post("/api/rulings", { case: buildCase(), budget, after: after || null });
  } catch (e) {
    $("run-error").textContent = "The server did not answer; your case is still in the form.";
    return;
  }
  if (!res.ok) {
    $("problems").hidden = false;  // the summary at the Rule button, and the first problem in view
    const first = showProblems(allProblems(res.data.error), true);
    $("ruling").hidden = true;
    if (first) goTo(first);
    return;
  }
  clearErrors();
  hideProblems();
  jobId = res.data.id;
  if (stopWanted) stopRuling();
  $("ruling").hidden = true;
  $("progress-text").textContent = "Starting the ruling…";
  $("progress").hidden = false;
  $("rule").disabled = true;
  poll();
}

async function poll() {
  clearTimeout(polling);
  let s;
  try {
    s = await (await fetch(`/api/rulings/${jobId}`)).json();
  } catch (e) {
    polling = setTimeout(poll, 1000);
    return;
  }
  if (s.state === "running" && s.ruling) {  // ruled: shown now, while the worker rules the answers to its hinges
    if (shownJob !== s.id) {
      shownJob = s.id;
      showRuling(s);
      try { history.pushState({ ruling: s, case: buildCase() }, "", `#case=${encodeCase(buildCase())}`); } catch (e) { /* too large to keep */ }
    }
    $("progress-text").textContent = `Ruled. Now ruling the case under each answer to the findings it may hinge on: ${Math.round(s.seconds)} s.`;
    polling = setTimeout(poll, 400);
    return;
  }
  if (s.state === "queued" || s.state === "running") {
    const what = s.state === "queued" ? "Waiting for a free worker (other rulings are searching)" : "Searching the claimer's normal lines";
    const n = s.questions;
    const busy = s.state === "running" && s.searching ? `, question ${n + 1} searching` : "";
    const pos = s.positions ? `, ${s.positions.toLocaleString("en")} positions searched` : "";
    $("progress-text").textContent = `${what}: ${Math.round(s.seconds)} s${pos}, ${n} trick question${n === 1 ? "" : "s"} settled${busy}${s.stopped ? " (stopping…)" : ""}.`;
    polling = setTimeout(poll, s.seconds < 2 ? 100 : 400);  // a ruling whose counts are known comes in well under a second
    return;
  }
  $("progress").hidden = true;
  $("rule").disabled = false;
  if (s.state === "done") {
    const shown = shownJob === s.id;  // the ruling came first: only its hinges are new
    if (shown) { current = s; drawHinges(s); } else showRuling(s);
    shownJob = s.id;
    // the ruling in the page's history: Back from anywhere returns to it; the address reproduces the case
    try { history[shown ? "replaceState" : "pushState"]({ ruling: s, case: buildCase() }, "", `#case=${encodeCase(buildCase())}`); } catch (e) { /* too large to keep */ }
    return;
  }
  $("run-error").textContent = (s.state === "stopped" ? "Stopped: " : "No ruling: ") + (s.message || s.state) + ". Your case is still in the form.";
}

async function stopRuling() {
  stopWanted = true;
  if (!jobId) return;
  try { await fetch(`/api/rulings/${jobId}`, { method: "DELETE" }); } catch (e) { /* the poll reports */ }
}

function showRuling(s) {
  current = s;
  const r = s.ruling;
  $("ruling").hidden = false;
  $("summary").textContent = r.summary;
  const un = $("unproven");
  un.hidden = r.proven;
  const why = { you: "you stopped the search", time: "the server's time limit stopped the search", memory: "the server's memory limit stopped the search" }[s.stopped_by] || (s.stopped ? "the search was stopped" : "the search budget ran out");
  un.textContent = r.proven ? "" : `Not proven: ${why} before it settled a count this ruling rests on. The claim cannot be allowed unproven; rule again to search longer` + (s.stopped_by === "time" || s.stopped_by === "memory" ? " (the server allows a search so long; claimlaw rule on the downloaded case file has no limit)." : val("budget") ? " (empty the search budget to search until proven)." : ".");
  // the CLI's next step speaks of --budget; the page says it in its own words (above)
  $("next-step").textContent = r.next_step && !r.next_step.includes("--budget") ? "Next: " + r.next_step : "";
  const best = s.view.best;
  const scoreText = (sc, by) => `${r.contract}: ${sc > 0 ? "+" : ""}${sc} to ${by}`;
  if (r.tricks) $("tricks").textContent = Object.entries(r.tricks).map(([k, v]) => `${k} ${v}`).join(", ");
  else if (best) $("tricks").textContent = Object.entries(best.tricks).map(([k, v]) => `${k} ${v}`).join(", ") + " on the best line found, not proven";
  else $("tricks").textContent = "—";
  if (r.score !== null && r.score !== undefined) $("score").textContent = scoreText(r.score, r.score_for);
  else if (best && best.score !== null) $("score").textContent = scoreText(best.score, best.score_for) + " on that line, not proven";
  else $("score").textContent = "—";
  $("outcome").textContent = r.outcome.replace(/_/g, " ");
  $("ruling-edition").textContent = r.edition + (r.packs.length ? ` with ${r.packs.join(", ")}` : "");
  const laws = $("laws");
  laws.textContent = "";
  r.laws.forEach((l, i) => {
    if (i) laws.append(" → ");
    laws.append(lawLink(l, l));
  });
  $("expect").textContent = r.expect ? (r.expect.matches ? "Matches the case's expected ruling." : "Differs from the case's expected ruling: " + r.expect.differences.join("; ")) : "";
  const notes = $("notes");
  notes.textContent = "";
  for (const n of r.notes) notes.append(el("li", { text: "Note: " + n }));
  drawTrace(r, s.view);
  drawHinges(s);
  witnessIndex = 0;
  drawWitnessPicker();
  step = 0;
  drawWitness();
  $("ruling").scrollIntoView({ block: "start" });
}

// The findings the ruling hinges on: each question with the ruling under each answer, and a button that records
// that answer in the case and rules again (the server reuses the trick counts it has already settled).
function drawHinges(s) {
  const list = $("hinges");
  const status = $("hinges-status");
  list.textContent = "";
  const rep = s.hinges;
  if (s.state === "running") { status.textContent = "Ruling the case under each answer to the findings it may hinge on…"; return; }
  if (!rep) { status.textContent = "Not checked: the search was stopped, or the page left, before the hinges came in."; return; }
  const open = [...rep.unchecked, ...rep.unsettled];
  status.textContent = rep.hinges.length ? "" : open.length ? "None found among the findings checked." : "None: no finding the rules read would change this ruling.";
  const r = s.ruling;
  const tally = (t) => (t ? Object.keys(t).sort().map((k) => k + t[k]).join(" ") : "");
  const same = (a) => a.outcome === r.outcome && tally(a.tricks) === tally(r.tricks);
  for (const h of rep.hinges) {
    const li = el("li", { class: "hinge", "data-field": h.field });
    const whom = h.ask === "the Director's own judgement" ? "For the Director to judge: " : `Ask ${h.ask}: `;
    li.append(el("p", { class: "question" }, el("strong", { text: whom }), h.question));
    const ul = el("ul");
    for (const a of h.answers) {
      const now = same(a);
      const b = el("button", { type: "button", class: "answer", text: "Answer: " + a.answer,
        "aria-label": `Answer: ${a.answer}; rule again with this finding` });
      b.addEventListener("click", () => answerHinge(a.finding));
      ul.append(el("li", now ? { class: "now" } : {}, b, el("span", { text: a.ruling + (now ? " (the ruling above)" : "") + (a.proven ? "" : " (not proven)") })));
    }
    li.append(ul);
    if (h.given) li.append(el("p", { class: "doubt", text: `The case records: ${h.current}.` }));
    else if (h.without_finding) li.append(el("p", { class: "doubt", text: `Without a finding: ${h.without_finding}.` }));
    list.append(li);
  }
  if (rep.unchecked.length) list.append(el("li", { class: "help", text: "Not checked in the time allowed: " + rep.unchecked.join("; ") }));
  if (rep.unsettled.length) list.append(el("li", { class: "help", text: "Not settled (a count not proven): " + rep.unsettled.join("; ") }));
}

// A hinge's answer: the finding goes into the form's case, and the case is ruled again after the ruling shown.
function answerHinge(finding) {
  const c = buildCase();
  for (const [k, v] of Object.entries(finding)) setPath(c, k, v === null ? undefined : v);
  fillForm(pruneEmpty(c));
  keep();
  runRuling(null, current && current.id);
}

// A clause page opens in a new tab, beside the ruling, never instead of it.
function lawLink(clause, text) {
  return el("a", { href: "/law/" + encodeURIComponent(clause), target: "_blank", rel: "noopener", text,
    "aria-describedby": "law-tab-note" });
}

// A fact's value in words: yes/no, lists joined, a mapping as "key value" pairs, seats and cards readable.
function words(v) {
  if (v === true) return "yes";
  if (v === false) return "no";
  if (v === null || v === undefined || v === "") return "—";
  if (Array.isArray(v)) return v.length ? v.map(words).join(", ") : "none";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k.replace(/_/g, " ")} ${words(x)}`).join("; ");
  if (typeof v === "string") {
    if (SEAT_NAMES[v]) return SEAT_NAMES[v];
    const m = v.match(/^([SHDC])(10|[AKQJT2-9])$/);
    if (m) return SUIT_SYM[m[1]] + (m[2] === "T" ? "10" : m[2]);
    return v.replace(/_/g, " ");
  }
  return String(v);
}

function factsList(obj) {
  const entries = Object.entries(obj || {});
  if (!entries.length) return el("p", { class: "meta", text: "(none)" });
  const dl = el("dl", { class: "kv" });
  for (const [k, v] of entries) {
    const head = k.replace(/^[a-z]+:/, "").replace(/[._]/g, " ");
    const nested = v && typeof v === "object" && !Array.isArray(v);
    dl.append(el("dt", { text: head }), nested ? el("dd", {}, factsList(v)) : el("dd", { text: words(v) }));
  }
  return dl;
}

function drawTrace(r, view) {
  const ol = $("trace");
  ol.textContent = "";
  r.trace.forEach((st, i) => {
    const d = el("details", { class: "step", id: `step-${i + 1}` });
    const sum = el("summary");
    sum.append(el("strong", { text: st.clause }), ` ${st.reason}`);
    // the regulation a pack applied at this step, shown without opening it
    for (const c of st.cites || []) sum.append(el("br"), el("span", { class: "cite", text: `↳ ${c}` }));
    d.append(sum);
    const para = view.clauses[st.clause];
    const body = el("div", { class: "step-body" });
    body.append(el("p", {}, lawLink(st.clause, `Law ${st.clause}`),
      para ? ` — ${para.title}` : ""));
    if (para) body.append(el("p", { class: "paraphrase", text: para.paraphrase }));
    const where = [st.edition, ...st.packs].join("+");
    body.append(el("p", { class: "meta", text: `Rule ${st.rule} [${where}]${st.pack ? " from pack " + st.pack : ""}${st.text_verified ? "" : " (text unverified)"}${st.source ? " · " + st.source : ""}` }));
    body.append(el("h4", { text: "Rested on" }), factsList(st.facts));
    body.append(el("h4", { text: "Concluded" }), factsList(st.concluded));
    d.append(body);
    ol.append(el("li", {}, d));
  });
}

function drawWitnessPicker() {
  const box = $("witness-pick");
  box.textContent = "";
  const ws = current.ruling.witnesses;
  $("witness").hidden = !current.view.diagram;
  $("witness-h").textContent = ws.length ? "Witness line" : "The position at the claim";
  if (ws.length < 2) return;
  const sel = el("select", { id: "witness-select" });
  ws.forEach((w, i) => sel.append(el("option", { value: String(i), text: `${w.question.replace(/_/g, " ")}: ${w.side} take ${w.tricks}` })));
  sel.addEventListener("change", () => { witnessIndex = Number(sel.value); step = 0; drawWitness(); });
  box.append(el("label", { for: "witness-select", text: "Line " }), sel);
}

function rankText(c) { return c[1] === "T" ? "10" : c[1]; }

// A witness choice's licence in a Director's words, with its source (as the CLI prints it).
function whyOf(m) { return m.source ? `${m.meaning} (${m.source})` : m.meaning; }

function drawWitness() {
  const ws = current.ruling.witnesses;
  const dg = current.view.diagram;
  if (!dg) return;
  const w = ws[witnessIndex] || { tricks_played: [], leaders: [], words: "No line to step through: nothing in this ruling turned on the play." };
  const marks = w.choices || [];
  const n = w.tricks_played.length;
  step = Math.max(0, Math.min(step, n));
  const played = new Set(w.tricks_played.slice(0, step).flat());
  const markOf = (seat, card) => marks.find((m) => m.seat === seat && m.card === card);
  let center = {};
  let leader = dg.leader;
  let trickCards = dg.trick;
  if (step > 0) { trickCards = w.tricks_played[step - 1]; leader = w.leaders[step - 1]; }
  let seat = SEATS.indexOf(leader);
  for (const c of trickCards) { center[SEATS[seat % 4]] = c; seat++; }
  const table = $("witness-table");
  table.textContent = "";
  for (const s of SEATS) {
    const box = el("div", { class: "hand seat-" + s });
    box.append(el("div", { class: "who", text: SEAT_NAMES[s] }));
    for (const u of SUITS) {
      const row = el("div", { class: "suitrow" }, el("span", { class: "suit suit-" + u, text: SUIT_SYM[u], role: "img", "aria-label": SUIT_NAMES[u] }));
      const mine = dg.hands[s].filter((c) => c[0] === u && !played.has(c));
      if (!mine.length) row.append(el("span", { class: "void", text: "—" }));
      for (const c of mine) row.append(el("span", { class: "card", text: rankText(c) }));
      box.append(row);
    }
    table.append(box);
  }
  const mid = el("div", { class: "trick", role: "group", "aria-label": step ? `Trick ${step}` : "The trick in progress" });
  for (const s of SEATS) {
    const c = center[s];
    const spot = el("div", { class: "spot seat-" + s });
    if (c) {
      const m = markOf(s, c);
      const card = el("span", { class: "card played suit-" + c[0] + (m ? " marked" : ""), text: SUIT_SYM[c[0]] + rankText(c) });
      if (m) { card.title = whyOf(m); card.setAttribute("aria-label", `${SUIT_SYM[c[0]]}${rankText(c)}, ${m.licence}: ${whyOf(m)}`); card.append(el("sup", { text: "!" })); }
      if (s === leader) card.classList.add("lead");
      spot.append(el("span", { class: "sr-only", text: SEAT_NAMES[s] + " " }), card);
    }
    mid.append(spot);
  }
  table.append(mid);
  $("trick-no").textContent = step ? `Trick ${step} of ${n}` : `At the claim (${n} trick${n === 1 ? "" : "s"} to play)`;
  $("stepper").hidden = !ws.length;
  $("prev").disabled = step === 0;
  $("next").disabled = step >= n;
  $("witness-words").textContent = w.words;
  const ul = $("marks");
  ul.textContent = "";
  for (const m of marks) {
    const inTrick = step > 0 && w.tricks_played[step - 1].includes(m.card);
    ul.append(el("li", { class: inTrick ? "now" : "", text: `${SEAT_NAMES[m.seat]} ${SUIT_SYM[m.card[0]]}${rankText(m.card)} — ${m.licence}: ${whyOf(m)}` }));
  }
}

// -- an audit's results store (claimlaw serve --store): rows filtered and paged by the server, each a ruling ----

let storePage = 1;

async function loadStore() {
  const r = await fetch("/api/store");
  if (!r.ok) return;
  const sum = await r.json();
  $("store").hidden = false;
  $("store-name").textContent = `${sum.name}: ${sum.total} claim${sum.total === 1 ? "" : "s"}`;
  const sel = $("f-verdict");
  for (const [v, n] of Object.entries(sum.counts)) sel.append(el("option", { value: v, text: `${v.replace(/_/g, " ")} (${n})` }));
  $("store-filters").addEventListener("submit", (e) => { e.preventDefault(); storePage = 1; storeRows(); });
  $("store-prev").addEventListener("click", () => { storePage--; storeRows(); });
  $("store-next").addEventListener("click", () => { storePage++; storeRows(); });
  await storeRows();
}

async function storeRows() {
  const q = new URLSearchParams({ verdict: val("f-verdict"), contract: val("f-contract"), source: val("f-source"),
    board: val("f-board"), page: String(storePage) });
  const r = await fetch("/api/store/rows?" + q);
  const data = await r.json();
  if (!r.ok) { $("store-status").textContent = data.error.message; return; }
  storePage = data.page;
  $("store-counts").textContent = "Per verdict: " + (Object.entries(data.counts).map(([v, n]) => `${v.replace(/_/g, " ")} ${n}`).join(", ") || "no rows");
  $("store-status").textContent = `${data.total} row${data.total === 1 ? "" : "s"} kept by the filters`;
  $("store-page").textContent = `Page ${data.page} of ${data.pages}`;
  $("store-prev").disabled = data.page <= 1;
  $("store-next").disabled = data.page >= data.pages;
  const body = $("store-table").querySelector("tbody");
  body.textContent = "";
  for (const row of data.rows) {
    const open = el("button", { type: "button", class: "open-row", text: "Open",
      "aria-label": `Open board ${row.board} of ${row.source} as a ruling` });
    open.addEventListener("click", () => openRow(row));
    const claimed = row.claimed_for_declarer === null ? "—" : `${row.claimed_for_declarer} of ${row.remaining}`;
    body.append(el("tr", {}, el("td", { text: row.source }), el("td", { text: row.board + (row.room ? " " + row.room : "") }),
      el("td", { text: `${row.contract}${row.declarer ? " " + row.declarer : ""}` }), el("td", { text: claimed }),
      el("td", { text: row.verdict.replace(/_/g, " ") + (row.proven ? "" : " (not proven)") }),
      el("td", { text: row.law || row.message || "" }), el("td", {}, open)));
  }
}

async function openRow(row) {
  const q = new URLSearchParams({ file_hash: row.file_hash, board: row.board, room: row.room, claim_index: String(row.claim_index) });
  const r = await fetch("/api/store/case?" + q);
  const data = await r.json();
  if (!r.ok) { $("store-status").textContent = `Board ${row.board}: ${data.error.message}`; return; }
  fillForm(data.case);
  keep();
  await runRuling();
}

// -- start -------------------------------------------------------------------------------------------------------

// The leader until the Director chooses one: with no trick won or played yet, the declarer's left-hand opponent.
function leaderFromPlay() {
  if (leaderChosen) return;
  const played = (num("won-NS") || 0) + (num("won-EW") || 0);
  const d = val("declarer");
  $("leader").value = d && played === 0 && !val("trick") ? SEATS[(SEATS.indexOf(d) + 1) % 4] : "";
}

// A history entry's ruling (Back, Forward, a reload): its case into the form, the ruling as it was.
function showKept(state) {
  if (state?.ruling) {
    fillForm(state.case);
    // a ruling kept while its hinges were still being ruled: they are not coming any more
    showRuling(state.ruling.state === "running" ? { ...state.ruling, state: "done", hinges: null } : state.ruling);
  } else {
    $("ruling").hidden = true;
  }
}

async function start() {
  buildForm();
  const hasStore = await loadMeta();
  const form = $("case-form");
  form.addEventListener("submit", runRuling);
  form.addEventListener("input", (e) => { if (e.target.id !== "paste" && e.target.id !== "budget") checkSoon(); keep(); });
  form.addEventListener("change", keep);
  form.addEventListener("change", (e) => { if (e.target.name === "mode") showMode(); });
  $("import").addEventListener("click", () => importText($("paste").value));
  $("upload").addEventListener("change", async () => {
    const f = $("upload").files[0];
    if (f) await importText(await f.text());
  });
  $("picker").addEventListener("click", (e) => { const b = e.target.closest("button.pick"); if (b) pick(b.dataset.card); });
  $("hands-entry").addEventListener("input", (e) => { expandSmall(e.target); drawPicker(); });
  $("leader").addEventListener("change", () => { leaderChosen = !!val("leader"); });
  for (const id of ["declarer", "won-NS", "won-EW", "trick"]) $(id).addEventListener("input", leaderFromPlay);
  $("declarer").addEventListener("change", leaderFromPlay);
  window.addEventListener("popstate", (e) => showKept(e.state));
  drawPicker();
  $("download").addEventListener("click", download);
  $("share").addEventListener("click", shareLink);
  $("clear").addEventListener("click", () => { fillForm({}); base = {}; keep(); });
  $("stop").addEventListener("click", stopRuling);
  // leaving the page while a ruling searches stops it: its worker is free for others at once
  window.addEventListener("pagehide", () => {
    if (jobId && !$("progress").hidden) fetch(`/api/rulings/${jobId}`, { method: "DELETE", keepalive: true }).catch(() => {});
  });
  $("prev").addEventListener("click", () => { step--; drawWitness(); });
  $("next").addEventListener("click", () => { step++; drawWitness(); });
  const m = location.hash.match(/case=([A-Za-z0-9_-]+)/);
  if (history.state?.ruling) {
    showKept(history.state);  // back at a ruling (from a clause page, or a reload): shown again, not searched again
  } else if (m) {
    try { fillForm(decodeCase(m[1])); runRuling(); } catch (e) { $("form-error").textContent = "The link's case could not be read."; }
  } else {
    try { const kept = sessionStorage.getItem(KEPT); if (kept) fillForm(JSON.parse(kept)); } catch (e) { /* start empty */ }
  }
  if (hasStore) await loadStore();
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", start);
