// wasm-opt -Oz --strip-producers --strip-target-features on every module named on stdin,
// in place, with binaryen's library: the code npm's `wasm-opt` command runs, loaded once.
//
// Usage: node optimiser.mjs <binaryen's index.js>; then a module's path per line on stdin.
// Answers a line per module: "ok", or "error <why>".

import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const { default: binaryen } = await import(pathToFileURL(process.argv[2]).href);
// -Oz: the default optimisation passes, optimising for size, and the module written through
// binaryen's optimised stack IR, as the command does (without it, the main module's code
// came out 2.8 KB larger).
binaryen.setOptimizeLevel(2);
binaryen.setShrinkLevel(2);
binaryen.setGenerateStackIR(true);
binaryen.setOptimizeStackIR(true);

for await (const path of createInterface({ input: process.stdin })) {
  let module;
  try {
    // The module's target_features section names the features it uses, as wasm-opt
    // reads them.
    module = binaryen.readBinary(readFileSync(path));
    module.optimize();
    module.runPasses(['strip-producers', 'strip-target-features']);
    writeFileSync(path, module.emitBinary());
    process.stdout.write('ok\n');
  } catch (error) {
    process.stdout.write(`error ${String(error?.message ?? error).replace(/\s+/g, ' ')}\n`);
  } finally {
    module?.dispose();
  }
}
