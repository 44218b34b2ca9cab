// What the browser test and the screenshots share: the fgn binary, the
// pages it writes, and Debian's Chromium, started offline.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const fgnPath = process.env.FGN ?? join(root, "target/debug/fgn");
export const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** Runs fgn with `args` from the repository's root; its exit code and output. */
export function fgn(args) {
  const run = spawnSync(fgnPath, ["--color", "never", ...args], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.error) {
    throw run.error;
  }
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const pages = mkdtempSync(join(tmpdir(), "fgn-html-"));
let made = 0;

/** Writes `text` into a file beside the pages; its path. */
export function scratch(name, text) {
  const file = join(pages, name);
  writeFileSync(file, text);
  return file;
}

/** Writes the page `fgn html ...args` makes into a file; its file:// URL. */
export function page(args, { allowInvalid = false } = {}) {
  const run = fgn(["html", ...args]);
  if (run.code !== 0 && !(allowInvalid && run.code === 1)) {
    throw new Error(`fgn html ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  }
  made += 1;
  const file = join(pages, `page-${made}.html`);
  writeFileSync(file, run.stdout);
  return { url: pathToFileURL(file).href, stderr: run.stderr };
}

/** Debian's Chromium, headless, with everything that would call home off;
 * playwright never downloads a browser of its own. */
export function launch() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
