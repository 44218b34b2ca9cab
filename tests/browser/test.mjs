// fgn html's pages in a real browser: one corpus game of each kind, from
// every perspective its page offers and from a view file, stepped through
// with the keyboard, the log and the perspective switch. At each stop the
// page must show what `fgn show` says of the same event and viewer: the
// same words (caption, turn, notes, result, hash), the same hash as
// `fgn show --format json` and the same squares (what each holds, its
// shade, the last move outlined, in the same order, so flipped alike) as
// `fgn show --format svg`. No request may leave the page, and nothing may
// fail in it.
import assert from "node:assert/strict";
import { fgn, launch, page, scratch } from "./lib.mjs";

const games = [
  {
    full: "corpus/survival-chess/valid/01-bishop-queen-mate.fgn",
    view: "corpus/survival-chess/views/01-bishop-queen-mate.white.fgn",
  },
  // An open-world-chess view file is read on its own (issue 37).
  {
    full: "corpus/open-world-chess/valid/owc-01-raid-king-killed.fgn",
    view: "corpus/open-world-chess/views/owc-01-raid-king-killed.white.fgn",
  },
  {
    full: "corpus/great-war-chess/valid/gwc-01-raids-no-charges.fgn",
    view: "corpus/great-war-chess/views/gwc-01-raids-no-charges.white.fgn",
  },
  {
    full: "corpus/magic-draughts/valid/04-charm-and-fury-win.fgn",
    view: "corpus/magic-draughts/views/04-charm-and-fury-win.white.fgn",
  },
];
const invalid = "corpus/survival-chess/invalid/02-two-queens.fgn";

/** What `fgn show` says of `file` after `at` events as `as`: the lines
 * after its board, and the hash of its JSON document. */
function shown(file, at, as) {
  const args = ["show", "--at", String(at), "--as", as, file];
  const text = fgn(args);
  assert.equal(text.code, 0, `fgn ${args.join(" ")}: ${text.stderr}`);
  const lines = text.stdout.split("\n");
  const words = lines.slice(lines.indexOf("") + 1).filter((l) => l !== "");
  const json = fgn(["--format", "json", ...args]);
  assert.equal(json.code, 0, json.stderr);
  const doc = JSON.parse(json.stdout);
  const hash = doc.state_hash ?? doc.knowledge_hash;
  const hashName = doc.state_hash ? "state hash" : "knowledge hash";
  const svg = fgn(["--format", "svg", ...args]);
  assert.equal(svg.code, 0, svg.stderr);
  const unescape = (t) =>
    t.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#39;/g, "'").replace(/&amp;/g, "&");
  const squares = [
    ...svg.stdout.matchAll(
      /<g class="square" data-square="([^"]*)" data-shade="([^"]*)" data-figures="([^"]*)"( data-highlight="true")?/g,
    ),
  ].map((m) => [m[1], m[2], unescape(m[3]), m[4] ? "highlight" : ""].join("|"));
  return { words, hash, hashName, squares };
}

/** What the page shows now. */
async function onPage(tab) {
  return tab.evaluate(() => {
    const data = JSON.parse(document.getElementById("fgn-data").textContent);
    const perspective = data.perspectives.find((p) => p.name === document.body.dataset.perspective);
    const frame = Number(document.body.dataset.frame);
    const squares = (root) =>
      [...root.querySelectorAll("g.square")].map((g) =>
        [g.dataset.square, g.dataset.shade, g.dataset.figures, g.dataset.highlight === "true" ? "highlight" : ""].join("|"),
      );
    const embedded = document.createElement("div");
    embedded.innerHTML = data.boards[perspective.frames[frame].board].map((n) => data.lines[n]).join("\n");
    const hash = document.getElementById("hash");
    const current = document.querySelectorAll("#log li.current");
    const inView = (item) => {
      const shown = document.getElementById("log").getBoundingClientRect();
      const rect = item.getBoundingClientRect();
      return rect.top >= shown.top - 1 && rect.bottom <= shown.bottom + 1;
    };
    return {
      perspective: perspective.name,
      frame,
      frames: perspective.frames.length,
      caption: document.getElementById("caption").textContent,
      facts: [...document.querySelectorAll("#facts li")].map((li) => li.textContent),
      hash: hash.dataset.hash,
      hashName: hash.dataset.hashName,
      squares: squares(document.getElementById("board")),
      frameSquares: squares(embedded),
      boardText: document.getElementById("board-text").children.length,
      live: document.getElementById("live").textContent,
      current: current.length === 1 ? [...current[0].parentNode.children].indexOf(current[0]) : -1,
      currentInView: current.length === 1 && inView(current[0]),
      slider: Number(document.getElementById("event-slider").value),
      perspectives: [...document.querySelectorAll("input[name=perspective]")].map((i) => i.value),
    };
  });
}

/** Checks the page shows event `at` of `file` as `as` saw it. */
async function check(tab, file, at, as, where) {
  const page = await onPage(tab);
  const want = shown(file, at, as);
  const label = `${file} as ${as} at ${at} (${where})`;
  assert.equal(page.frame, at, label);
  assert.equal(page.perspective, as, label);
  assert.deepEqual([page.caption, ...page.facts], want.words, label);
  assert.equal(page.hash, want.hash, label);
  assert.equal(page.hashName, want.hashName, label);
  assert.ok(want.squares.length > 0, label);
  assert.deepEqual(page.squares, want.squares, `${label}: the squares`);
  assert.deepEqual(page.squares, page.frameSquares, label);
  assert.ok(page.boardText > 0, `${label}: the board as text`);
  assert.equal(page.current, at, `${label}: the log marks the event`);
  assert.ok(page.currentInView, `${label}: the log shows the event`);
  assert.equal(page.slider, at, label);
  assert.ok(page.live.startsWith(page.caption), `${label}: announced`);
  checks += 1;
  if (page.squares.some((sq) => sq.endsWith("|highlight"))) outlined += 1;
}

let checks = 0;
// Positions whose last move is outlined (not the starts, nor events a
// player did not see): many.
let outlined = 0;
const requests = [];
const failures = [];
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
context.on("request", (r) => requests.push(r.url()));

/** Opens `url` in a new tab that records what fails in it. */
async function open(url) {
  const tab = await context.newPage();
  tab.on("pageerror", (e) => failures.push(`${url}: ${e.message}`));
  tab.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") failures.push(`${url}: console: ${m.text()}`);
  });
  await tab.goto(url);
  opened.push(url);
  return tab;
}
const opened = [];

/** Steps through one perspective with the keys and the log. */
async function stepThrough(tab, file, as) {
  const { frames } = await onPage(tab);
  const last = frames - 1;
  // The keys step from anywhere but a field that uses them (the switch).
  await tab.locator("#first").focus();
  await tab.keyboard.press("Home");
  await check(tab, file, 0, as, "Home");
  const ahead = Math.min(3, last);
  for (let i = 0; i < ahead; i++) await tab.keyboard.press("ArrowRight");
  await check(tab, file, ahead, as, "ArrowRight");
  await tab.keyboard.press("End");
  await check(tab, file, last, as, "End");
  await tab.keyboard.press("ArrowRight");
  await check(tab, file, last, as, "ArrowRight past the end");
  await tab.keyboard.press("ArrowLeft");
  await check(tab, file, last - 1, as, "ArrowLeft");
  const middle = Math.floor(last / 2);
  await tab.locator("#log li").nth(middle).locator("button").click();
  await check(tab, file, middle, as, "a click on the log");
  await tab.locator("#event-number").fill(String(ahead + 1));
  await tab.locator("#event-number").press("Enter");
  await check(tab, file, ahead + 1, as, "the event number");
  // Back to the document, where the arrow keys step again.
  await tab.locator("#forward").focus();
  await tab.keyboard.press("ArrowLeft");
  await check(tab, file, ahead, as, "ArrowLeft from a button");
}

for (const game of games) {
  // The full log's page: the switch offers all three, and each steps.
  const tab = await open(page([game.full]).url);
  assert.deepEqual((await onPage(tab)).perspectives, ["all", "white", "black"], game.full);
  for (const as of ["all", "white", "black"]) {
    await tab.locator(`#perspective-${as}`).check();
    await stepThrough(tab, game.full, as);
  }
  // The switch keeps the event.
  await tab.locator("#perspective-white").check();
  await tab.locator("#first").focus();
  await tab.keyboard.press("Home");
  await tab.keyboard.press("ArrowRight");
  await tab.keyboard.press("ArrowRight");
  await tab.locator("#perspective-black").check();
  await check(tab, game.full, 2, "black", "the switch keeps the event");
  await tab.close();
  // A page made for one player is that player's view of the log, as
  // `fgn view` makes it: it holds nothing the player did not know, not even
  // how many events it saw nothing of, and each of its positions is what
  // `fgn show` draws of the view file at the same event.
  const black = await open(page(["--as", "black", game.full]).url);
  const only = await black.evaluate(() => JSON.parse(document.getElementById("fgn-data").textContent).perspectives.map((p) => p.name));
  assert.deepEqual(only, ["black"], game.full);
  assert.equal(await black.locator("#perspectives").isVisible(), false);
  const made = fgn(["view", "--as", "black", game.full]);
  assert.equal(made.code, 0, made.stderr);
  const madeFile = scratch(`${game.full.replace(/[^a-z0-9]+/g, "-")}.black.fgn`, made.stdout);
  assert.equal(
    await black.evaluate(() => JSON.parse(document.getElementById("fgn-data").textContent).perspectives[0].frames.length),
    made.stdout.split("\n").filter((l) => /^[0-9]/.test(l)).length + 1,
    `${game.full}: a frame per line of black's view, and the start`,
  );
  await stepThrough(black, madeFile, "black");
  await black.close();
  // A view file offers its own side only.
  if (game.view) {
    const side = game.view.match(/\.(white|black)\.fgn$/)[1];
    const view = await open(page([game.view]).url);
    const state = await onPage(view);
    assert.deepEqual(state.perspectives, [], `${game.view}: no switch`);
    assert.match(await view.locator("#perspective-only").textContent(), new RegExp(`${side}'s view`));
    await stepThrough(view, game.view, side);
    await view.close();
  }
}

// The keyboard alone: Tab reaches the controls in order, each button has
// a name, and Enter on "forward" steps.
{
  const file = games[0].full;
  const tab = await open(page([file]).url);
  const names = await tab.$$eval("button", (buttons) =>
    buttons.map((b) => (b.getAttribute("aria-label") ?? b.textContent).trim()),
  );
  assert.ok(names.every((n) => n.length > 0), "every button has a name");
  let focused = "";
  for (let i = 0; i < 12 && focused !== "forward"; i++) {
    await tab.keyboard.press("Tab");
    focused = await tab.evaluate(() => document.activeElement?.id ?? "");
  }
  assert.equal(focused, "forward", "Tab reaches the forward button");
  await tab.keyboard.press("Enter");
  await check(tab, file, 1, "all", "Enter on forward");
  await tab.close();
}

// An invalid log: replayed up to the faulty event, with fgn validate's
// diagnostic shown and the faulty line in the log.
{
  const made = page([invalid], { allowInvalid: true });
  const validate = fgn(["validate", invalid]);
  assert.equal(validate.code, 1);
  const diagnostic = validate.stderr.split("\n")[0];
  const tab = await open(made.url);
  assert.ok(await tab.locator("#stop").isVisible(), invalid);
  assert.equal(await tab.locator("#stop-message").textContent(), diagnostic);
  assert.equal(await tab.locator("#log li.fault").count(), 1);
  await tab.keyboard.press("End");
  const { frame } = await onPage(tab);
  await check(tab, invalid, frame, "all", "the last event that applied");
  await tab.close();
}

await browser.close();
// Every request was one of the pages opened: nothing else was fetched.
const strays = requests.filter((url) => !opened.includes(url));
assert.deepEqual(strays, [], "requests that left the page");
assert.deepEqual(failures, [], "errors in the pages");
assert.ok(outlined >= checks / 4, `the last move outlined in only ${outlined} of ${checks} positions`);
console.log(`browser test: ${checks} positions checked on ${opened.length} pages, ${requests.length} requests (the pages themselves), no errors`);
