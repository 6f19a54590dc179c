// Page packs (added by `cargo xtask split`, see xtask/src/packs.rs). The first page opened
// in a tab gets every file it needs in one request, its pack, instead of one request per
// file: a hundred small requests cost a page hundreds of milliseconds even from the
// browser's cache. The pack holds those files' modules merged into one (xtask/src/merge.rs),
// started once. Pages after it load what they still lack file by file.
const packs = /*PACKS*/ {};
let pack;
let anyRequested = false;
function withPack(split, load) {
    return (...args) => {
        if (!anyRequested && !pack && packs[split]) {
            const url = new URL(packs[split], import.meta.url);
            // boot.js may have fetched this page's pack already, beside the main module.
            const early = globalThis.__firstPack;
            const response = early && early.path === url.pathname ? early.response : fetch(url);
            pack = readPack(response, url);
            pack.catch(() => {});
        }
        return load(...args);
    };
}
// A pack: a 4-byte little-endian header length, the header (a line per file the pack
// covers), then the merged module. Its instance, once made, stands for every file covered.
async function readPack(fetched, url) {
    const response = await fetched;
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    const all = await response.arrayBuffer();
    const headerLength = new DataView(all).getUint32(0, true);
    const header = new TextDecoder().decode(new Uint8Array(all, 4, headerLength));
    const covered = new Set(header.split("\n").filter((line) => line));
    const module = all.slice(4 + headerLength);
    let started;
    const start = () =>
        (started ??= WebAssembly.instantiate(module, {
            pack: getSharedImports().__wasm_split,
        }));
    return { covered, start };
}
// What a covered file's fetch gives once the pack's merged module has started, which has
// filled the file's table slots already.
const STARTED = Symbol("started by its pack");
// What the loader's `fetch` of one file becomes: `STARTED` when the pack covers the file;
// else (or when the pack could not be had or started) a request of its own.
function fetchPart(url) {
    anyRequested = true;
    if (!pack) return fetch(url);
    const file = url.pathname.split("/").pop();
    return pack.then(
        ({ covered, start }) =>
            covered.has(file)
                ? start().then(
                      () => STARTED,
                      () => fetch(url),
                  )
                : fetch(url),
        () => fetch(url),
    );
}
// What the loader's instantiation of one fetched file becomes: nothing more to do for a
// file its pack started (instantiating even an empty module costs a phone a moment, and a
// pack covers a hundred files).
async function instantiatePart(fetched, imports) {
    const response = await fetched;
    return response === STARTED ? undefined : WebAssembly.instantiateStreaming(response, imports);
}
