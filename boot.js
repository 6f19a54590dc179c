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

// The sign-in form in the page (index.html) works before the console's code has arrived:
// shown at once when this tab holds no session, its base URL hint filled in, and an Enter
// pressed early is kept for the console, which signs in when it takes the form over
// (src/pages/sign_in.rs). A tab with a session goes straight to its page instead.
const servedSignIn = document.querySelector("[data-served-sign-in]");
const hasSession = () => {
  try {
    return sessionStorage.getItem("gpudeck.session") !== null;
  } catch {
    return false;
  }
};
if (servedSignIn && !hasSession()) {
  servedSignIn.querySelector("#base-url").placeholder = location.origin;
  servedSignIn.querySelector("form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (servedSignIn.hasAttribute("data-live")) return;
    servedSignIn.dataset.submitted = "";
    servedSignIn.querySelector("button").textContent = "Signing in…";
  });
  servedSignIn.hidden = false;
}

const tag = document.querySelector("script[data-wasm]");
const { default: init } = await import(tag.dataset.js);
await init({ module_or_path: tag.dataset.wasm });
