// The API reads a page makes as it opens, sent before the console's code has arrived
// (docs/load-path.md). boot.js starts them for the page opened cold in a tab that holds a
// session; sign-in (src/pages/sign_in.rs) for the page it is about to open. The console's
// API client (src/api/first_reads.rs) takes each answer instead of asking again.
//
// What a page reads comes from the route table (crates/pages, `first_reads`), as JSON:
//   { max_machine_ids, shell: [read], pages: [{ address, reads: [read], unless_query }] }
// where a read is { method, path, query: [[name, value]], body, gives }. In a path,
// `{user_id}` is the signed-in user's id and `{name}` the address's `:name` segment; a
// query value `{machine_ids}` is the ids of the machines an earlier read (`gives`) answered,
// and `{days_ago_N}` the UTC day index (days since 1970-01-01) of today less N.
//
// The same rules as the console's own requests: the key goes in a header, never in a URL;
// answers are kept unread, a few seconds, for the same server and key only; a failed answer
// is not offered (the console asks again through its own client, which decides what a
// refusal does); a refused key stops the rest.
if (!globalThis.gpudeckFirstReads) {
  // An answer nobody took by then is dropped rather than shown later as current.
  const OFFERED_FOR_MS = 10_000;
  // The lifetime in force: only the browser tests change it (`offerFor`), to see answers
  // dropped in milliseconds rather than wait ten seconds.
  let offeredForMs = OFFERED_FOR_MS;
  let started = null;

  const requestKey = (method, url, body) => `${method} ${url}\n${body ?? ""}`;

  // Percent-encodes all but RFC 3986's unreserved characters, as
  // gpudeck_wire::paths::encode_path_segment does.
  const segment = (text) => encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());

  // The values of `address`'s `:` segments when it serves `path` (one non-empty segment
  // each), else undefined. boot.js finds the opened page's pack with it too.
  const paramsOf = (address, path) => {
    const wanted = address.split("/");
    const given = path.split("/");
    if (wanted.length !== given.length) return undefined;
    const params = {};
    const serves = wanted.every((part, i) => {
      if (!part.startsWith(":")) return part === given[i];
      try {
        params[part.slice(1)] = decodeURIComponent(given[i]);
      } catch {
        return false;
      }
      return given[i] !== "";
    });
    return serves ? params : undefined;
  };

  // The page of `table` whose address serves `path`, and the values of its `:` segments.
  const pageAt = (table, path) => {
    for (const page of table.pages) {
      const params = paramsOf(page.address, path);
      if (params) return { page, params };
    }
    return undefined;
  };

  // The ids of N1 (list machines)'s answer, when they are whole numbers and one request of
  // seed op 1 (the windows of machines) takes them all.
  const machineIds = (text, max) => {
    try {
      const ids = JSON.parse(text).machines.map((machine) => machine.id);
      return ids.every(Number.isSafeInteger) && ids.length <= max ? JSON.stringify(ids) : undefined;
    } catch {
      return undefined;
    }
  };

  // `{days_ago_N}`'s value: today's UTC day index less N, as the console counts days.
  const daysAgo = (name) => {
    const days = Number(name.slice("days_ago_".length));
    return Number.isInteger(days) ? Math.floor(Date.now() / 86_400_000) - days : undefined;
  };

  // `text` with its `{…}` placeholders filled in from `known` (values or promises of
  // them); undefined when one is not known.
  const filled = async (text, known) => {
    let out = text;
    for (const [, name] of text.matchAll(/\{(\w+)\}/g)) {
      const value = name.startsWith("days_ago_") ? daysAgo(name) : await known[name];
      if (value === undefined || value === null) return undefined;
      out = out.replace(`{${name}}`, name === "machine_ids" ? value : segment(String(value)));
    }
    return out;
  };

  // The request of `read` for `run`, once its placeholders are known; undefined when one
  // never will be, or the run was abandoned meanwhile.
  const requestFor = async (run, read, known) => {
    const path = await filled(read.path, known);
    const query = [];
    for (const [name, value] of read.query) {
      const text = await filled(value, known);
      if (text === undefined) return undefined;
      query.push([name, text]);
    }
    if (path === undefined || run.abort.signal.aborted) return undefined;
    const url = new URL(run.base + path);
    if (query.length) url.search = new URLSearchParams(query).toString();
    const headers = { Accept: "application/json", Authorization: `Bearer ${run.key}` };
    if (read.body !== null) headers["Content-Type"] = "application/json";
    return new Request(url.href, {
      method: read.method,
      headers,
      body: read.body ?? undefined,
      signal: run.abort.signal,
    });
  };

  // The text of the 2xx answer to `request`, or null for any other outcome.
  const answerTo = async (request) => {
    // For the whole-app test and the bench: which reads left early, and when.
    performance.mark(`first read ${request.method} ${request.url}`);
    try {
      const response = await fetch(request);
      const text = await response.text();
      if (response.status === 401) abandon();
      return response.ok ? text : null;
    } catch {
      return null;
    }
  };

  // Sends `read` for `run` once its placeholders are known; its answer. Until the
  // request has left (or was given up), `run.yetToLeave` holds it.
  const send = (run, read, known) => {
    const pending = { method: read.method, prefix: run.base + read.path.split("{")[0] };
    run.yetToLeave.add(pending);
    // An object, not the answer itself, so that `left` does not wait for the answer.
    pending.left = requestFor(run, read, known).then((request) => {
      run.yetToLeave.delete(pending);
      if (!request) return { answer: null };
      const answer = answerTo(request);
      run.answers.set(requestKey(read.method, request.url, read.body), answer);
      return { answer };
    });
    return pending.left.then(({ answer }) => answer);
  };

  const abandon = () => {
    if (started) started.abort.abort();
    started = null;
  };

  // Starts, for the session of `base` and `key`, the reads of the page at `address`
  // (with its query) in `table`, after the shell's; `userId` is the signed-in user's, when
  // known. Resolves once each has left or was given up.
  const start = (table, base, key, userId, address) => {
    abandon();
    const url = new URL(address, location.origin);
    const found = pageAt(table, url.pathname);
    const skipped = !found || found.page.unless_query.some((name) => url.searchParams.has(name));
    const reads = [...table.shell, ...(skipped ? [] : found.page.reads)];
    if (!reads.length) return Promise.resolve();
    const run = {
      base,
      key,
      at: Date.now(),
      abort: new AbortController(),
      answers: new Map(),
      yetToLeave: new Set(),
    };
    started = run;
    const known = { ...(found ? found.params : {}), user_id: userId ?? undefined };
    for (const read of reads) {
      const answer = send(run, read, known);
      if (read.gives === "machine_ids") {
        known.machine_ids = answer.then((text) => text && machineIds(text, table.max_machine_ids));
      }
    }
    setTimeout(() => started === run && abandon(), offeredForMs);
    return untilLeft(run, () => true);
  };

  // Resolves once every read of `run` that `matches` has left or was given up.
  const untilLeft = async (run, matches) => {
    for (const pending of [...run.yetToLeave].filter(matches)) await pending.left;
  };

  // The answer to the request `method url body`, when it was started for `base` and `key`
  // and is still on offer: null at once when there is none, else a promise of its text (or
  // of null, should it fail). Taken once. A read that waits for an earlier answer (the
  // windows of N1's machines) is waited for; a write makes every answer on offer stale.
  const take = (base, key, method, url, body) => {
    const run = started;
    if (!run || run.base !== base || run.key !== key || Date.now() - run.at > offeredForMs) {
      return null;
    }
    const id = requestKey(method, url, body);
    if (run.answers.has(id)) return claim(run, id);
    const earlier = (pending) => pending.method === method && url.startsWith(pending.prefix);
    if (![...run.yetToLeave].some(earlier)) {
      if (method !== "GET") abandon();
      return null;
    }
    return untilLeft(run, earlier)
      .then(() => (started === run && run.answers.has(id) ? claim(run, id) : null));
  };

  const claim = (run, id) => {
    const answer = run.answers.get(id);
    run.answers.delete(id);
    return answer;
  };

  // Whether an answer is still on offer: the console's other pages' code waits meanwhile.
  const waiting = () => started !== null && started.answers.size > 0
    && Date.now() - started.at <= offeredForMs;

  // Answers started from now on are kept `ms` milliseconds; without it, ten seconds.
  const offerFor = (ms) => {
    offeredForMs = ms ?? OFFERED_FOR_MS;
  };

  globalThis.gpudeckFirstReads = { start, take, abandon, waiting, paramsOf, offerFor };
}
