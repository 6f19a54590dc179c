// Starts the console. Trunk would inline this; kept as a file so the Content-Security-Policy
// can forbid inline script. Trunk fills in the hashed file names (see pattern_script in
// Trunk.toml).

// A panic stops the console's code for good (the release build aborts: the wasm traps with
// "RuntimeError: unreachable"). Say so, instead of leaving a page that silently does nothing.
const internalError = () => {
  if (document.querySelector(".internal-error")) return;
  const notice = document.createElement("div");
  notice.className = "internal-error";
  notice.setAttribute("role", "alert");
  const text = document.createElement("p");
  text.textContent = "The console hit an internal error and stopped. Reload the page to go on; your keys in this tab are kept.";
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "button primary";
  reload.textContent = "Reload";
  reload.addEventListener("click", () => location.reload());
  notice.append(text, reload);
  document.body.prepend(notice);
  reload.focus();
};
const isTrap = (error) => error instanceof WebAssembly.RuntimeError;
addEventListener("error", (event) => isTrap(event.error) && internalError());
addEventListener("unhandledrejection", (event) => isTrap(event.reason) && internalError());

const tag = document.querySelector("script[data-wasm]");
const { default: init } = await import(tag.dataset.js);
await init({ module_or_path: tag.dataset.wasm });
