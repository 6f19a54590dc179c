// Page packs (added by `cargo xtask split`, see xtask/src/packs.rs). The first page opened
// in a tab gets every file it needs in one request, its pack, instead of one request per
// file: a hundred small requests cost a page hundreds of milliseconds even from the
// browser's cache. Pages after it load what they still lack file by file.
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
// A pack: a 4-byte little-endian header length, the header (a line "<file> <length>" per
// file), then the files end to end.
async function readPack(fetched, url) {
    const response = await fetched;
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    const all = await response.arrayBuffer();
    const headerLength = new DataView(all).getUint32(0, true);
    const header = new TextDecoder().decode(new Uint8Array(all, 4, headerLength));
    const parts = new Map();
    let offset = 4 + headerLength;
    for (const line of header.split("\n")) {
        if (!line) continue;
        const [file, length] = line.split(" ");
        parts.set(file, all.slice(offset, offset + Number(length)));
        offset += Number(length);
    }
    return parts;
}
// What the loader's `fetch` of one file becomes: its part of the pack when the pack holds
// it, else (or when the pack could not be had) a request of its own.
function fetchPart(url) {
    anyRequested = true;
    if (!pack) return fetch(url);
    const file = url.pathname.split("/").pop();
    return pack.then(
        (parts) => {
            const bytes = parts.get(file);
            if (!bytes) return fetch(url);
            parts.delete(file);
            return new Response(bytes, { headers: { "Content-Type": "application/wasm" } });
        },
        () => fetch(url),
    );
}
