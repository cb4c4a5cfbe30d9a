// Computes pixelmatch's counts for the image pairs in this folder, the reference the Go
// diff is tested against. To rerun (pixelmatch 7.2.0, pngjs 7.0.0):
//   (in an empty scratch folder) npm pack pixelmatch@7.2.0 pngjs@7.0.0 &&
//   mkdir -p node_modules/pixelmatch node_modules/pngjs &&
//   tar xzf pixelmatch-7.2.0.tgz -C node_modules/pixelmatch --strip-components 1 &&
//   tar xzf pngjs-7.0.0.tgz -C node_modules/pngjs --strip-components 1 &&
//   cp <this folder>/pixelmatch-counts.mjs . && node pixelmatch-counts.mjs <this folder>
import fs from "node:fs";
import path from "node:path";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";

const dir = process.argv[2];
const pairs = [
  ["list.png", "list.png"],
  ["list.png", "list-1pct.png"],
  ["list.png", "list-5pct.png"],
  ["list.png", "modal.png"],
  ["circle-a.png", "circle-b.png"],
  ["circle-a.png", "circle-c.png"],
];
const out = {};
for (const [a, b] of pairs) {
  const i1 = PNG.sync.read(fs.readFileSync(path.join(dir, a)));
  const i2 = PNG.sync.read(fs.readFileSync(path.join(dir, b)));
  const t0 = process.hrtime.bigint();
  const n = pixelmatch(i1.data, i2.data, null, i1.width, i1.height, { threshold: 0.1 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  out[`${a} ${b}`] = n;
  console.error(`${a} vs ${b}: ${n} px (${ms.toFixed(1)} ms)`);
}
fs.writeFileSync(path.join(dir, "pixelmatch.json"), JSON.stringify(out, null, 2) + "\n");
