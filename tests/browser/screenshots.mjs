// The pictures of fgn html's pages in docs/images/: one game of each kind,
// at a given event, from a given side. Rerun with
// `tests/browser/run.sh screenshots` after the page or the boards change.
import { join } from "node:path";
import { launch, page, root } from "./lib.mjs";

const shots = [
  {
    file: "html-survival-chess.png",
    args: ["corpus/survival-chess/valid/01-bishop-queen-mate.fgn"],
    event: 13,
  },
  {
    // A player's view in its fog: white's view file, drawn from the file
    // alone, after black's knight went back into the fog.
    file: "html-open-world-chess-white.png",
    args: ["corpus/open-world-chess/views/owc-04-fog-10x10-in-progress.white.fgn"],
    after: "2 b Nd4-? {t=69}",
  },
  {
    file: "html-great-war-chess-black.png",
    args: ["--as", "black", "corpus/great-war-chess/valid/gwc-01-raids-no-charges.fgn"],
    event: 12,
  },
  {
    file: "html-magic-draughts-view.png",
    args: ["corpus/magic-draughts/views/04-charm-and-fury-win.white.fgn"],
    event: 9,
  },
];

const browser = await launch();
// 1200 CSS pixels drawn at two thirds: pictures 800 pixels wide.
const context = await browser.newContext({ viewport: { width: 1200, height: 780 }, deviceScaleFactor: 2 / 3 });
context.on("request", (r) => {
  if (!r.url().startsWith("file://")) throw new Error(`a request left the page: ${r.url()}`);
});
for (const shot of shots) {
  const tab = await context.newPage();
  await tab.goto(page(shot.args).url);
  const event =
    shot.event ??
    (await tab.evaluate((after) => {
      const data = JSON.parse(document.getElementById("fgn-data").textContent);
      return data.perspectives[0].frames.findIndex((f) => f.seen === after);
    }, shot.after));
  if (event < 0) throw new Error(`${shot.file}: no frame after ${shot.after}`);
  await tab.locator("#event-number").fill(String(event));
  await tab.locator("#event-number").press("Enter");
  await tab.locator("#forward").focus();
  await tab.locator("#forward").evaluate((b) => b.blur());
  const path = join(root, "docs/images", shot.file);
  await tab.screenshot({ path });
  console.log(`wrote ${path}`);
  await tab.close();
}
await browser.close();
