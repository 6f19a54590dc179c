// Starts the console. Trunk would inline this; kept as a file so the Content-Security-Policy
// can forbid inline script. Trunk fills in the hashed file names (see pattern_script in
// Trunk.toml).
const tag = document.querySelector("script[data-wasm]");
const { default: init } = await import(tag.dataset.js);
await init({ module_or_path: tag.dataset.wasm });
