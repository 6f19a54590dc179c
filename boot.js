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
// The tab's session as src/session.rs stores it, or null.
const storedSession = () => {
  try {
    return JSON.parse(sessionStorage.getItem("gpudeck.session"));
  } catch {
    return null;
  }
};
const session = storedSession();
if (servedSignIn && !session) {
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

// The split build names each route's pack of code (data-packs, address → file): the page
// being opened is fetched beside the main module instead of after it, and the split loader
// takes this response (xtask/src/packs.js). On sign-in, the page to come back to is the one
// opened next: without one, the home page (HOME in src/routes.rs).
const packFor = (path) => {
  for (const [route, file] of Object.entries(JSON.parse(tag.dataset.packs || "{}"))) {
    if (globalThis.gpudeckFirstReads.paramsOf(route, path)) return file;
  }
  return undefined;
};
const opening = location.pathname === "/sign-in"
  ? new URL(new URLSearchParams(location.search).get("next") || "/machines", location.origin)
  : new URL(location.href);
const firstPack = packFor(opening.pathname);
if (firstPack) {
  const response = fetch(firstPack);
  response.catch(() => {}); // a failure is the loader's to see, when it asks for the pack
  globalThis.__firstPack = { path: firstPack, response };
}
// The page's first API reads leave now too, with the session's key (first_reads.js, from
// the route table's data-reads); the console takes their answers instead of asking again.
// A tab without a session starts none.
if (session && tag.dataset.reads) {
  globalThis.gpudeckFirstReads.start(JSON.parse(tag.dataset.reads), session.base_url,
    session.api_key, session.user?.id, opening.pathname + opening.search);
}
const { default: init } = await import(tag.dataset.js);
await init({ module_or_path: tag.dataset.wasm });
