//! Every route (`gpudeck_e2e::ROUTES`) loaded cold, by its address, in a browser session
//! of its own: the page's heading, tab title and content appear and the page reports no
//! error. In the build split by
//! route (`cargo xtask test` tests that one) this is the proof that each page's chunk
//! loads and runs on its own, without another page having loaded code before it.

use gpudeck_e2e::{demo, Harness, Route, Throttle, ROUTES};
use gpudeck_pages::SHELL_READS;
use gpudeck_wire::paths;
use std::collections::BTreeMap;

/// Runs before any page script: notes when each main heading the console shows first
/// appears. A page's heading needs its code, and the preload only starts after that page
/// has painted, so the files whose requests started before then are the files the page
/// itself needed. Not the served sign-in form's heading, there before any code runs: the
/// sign-in page's counts once the console has taken that form over.
const HEADING_TIMES: &str = r#"
    window.__headingAt = {};
    new MutationObserver(() => {
        const heading = [...document.querySelectorAll('main h1, h1')]
            .find((h) => !h.closest('[data-served-sign-in]:not([data-live])'));
        const text = heading && heading.textContent.trim();
        if (text && !(text in window.__headingAt)) {
            window.__headingAt[text] = performance.now();
        }
    }).observe(document, {
        subtree: true, childList: true, characterData: true,
        attributes: true, attributeFilter: ['data-live'],
    });
"#;

/// The sign-in page once the console has taken over the form the served page carries:
/// that form, its heading and its key field are there before any of the console's code.
const CONSOLE_SIGN_IN: &str = "[data-served-sign-in][data-live]";

/// The files fetched so far whose requests started before `heading` first appeared (a
/// request is listed once its response has ended, which can be after the heading).
const FETCHED_BEFORE_HEADING: &str = "
    const at = window.__headingAt[arguments[0]];
    return performance.getEntriesByType('resource')
        .filter(r => r.startTime < at)
        .map(r => r.name.split('/').pop());
";

async fn fetched_before_heading(app: &Harness, heading: &str) -> anyhow::Result<Vec<String>> {
    let fetched = app
        .driver
        .execute(FETCHED_BEFORE_HEADING, vec![serde_json::json!(heading)])
        .await?;
    Ok(serde_json::from_value(fetched.json().clone())?)
}

/// What the split build's lists say of each split, by wasm-split's name for it (a lazy
/// route, `__machines_route_view_<n>`, or the Machines page's rehearsal): the files it
/// needs beyond the main module (`target/split/chunks.txt`) and, for a route, the pack
/// that holds them all (`packs.txt`). The whole-app suite serves the split build only:
/// lists that are not there are an error, not a reason to check less.
struct SplitListing {
    files: BTreeMap<String, Vec<String>>,
    packs: BTreeMap<String, String>,
}

/// A line of those lists: the split's name, then file names.
type Line = (String, Vec<String>);

impl SplitListing {
    fn read() -> anyhow::Result<Self> {
        let dist = gpudeck_e2e::dist_dir()?;
        let split_dir = dist
            .parent()
            .ok_or_else(|| anyhow::anyhow!("{} has no parent folder", dist.display()))?;
        let lines = |name: &str| -> anyhow::Result<Vec<Line>> {
            let path = split_dir.join(name);
            let text = std::fs::read_to_string(&path).map_err(|error| {
                anyhow::anyhow!(
                    "{}: {error}; serve the split build (`cargo xtask split`, \
                     GPUDECK_DIST=target/split/dist)",
                    path.display()
                )
            })?;
            let lines: Vec<Line> = text
                .lines()
                .filter_map(|line| {
                    let mut parts = line.split_whitespace().map(str::to_owned);
                    Some((parts.next()?, parts.collect()))
                })
                .collect();
            anyhow::ensure!(!lines.is_empty(), "{} lists nothing", path.display());
            Ok(lines)
        };
        let (files, packs) = (lines("chunks.txt")?, lines("packs.txt")?);
        let files = files
            .into_iter()
            .filter(|(split, _)| split != "main")
            .collect();
        let packs = packs
            .into_iter()
            .filter_map(|(split, mut pack)| Some((split, pack.pop()?)))
            .collect();
        Ok(SplitListing { files, packs })
    }

    /// The split of the page the test names `page` (`team_members`).
    fn split_of(&self, page: &str) -> anyhow::Result<&str> {
        let prefix = format!("__{page}_route_view_");
        self.files
            .keys()
            .find(|split| split.starts_with(&prefix))
            .map(String::as_str)
            .ok_or_else(|| anyhow::anyhow!("chunks.txt lists no split for {page}"))
    }

    /// The files the Machines page's rehearsal (`rehearse_<n>`, loaded by sign-in after the
    /// page's pack) needs beyond that page's.
    fn rehearsal_files(&self) -> anyhow::Result<Vec<&String>> {
        self.files_beyond_page("rehearse_", "machines")
    }

    /// The files the split whose name starts with `split` (a page's part, `machines_part_`)
    /// needs beyond those of `page`'s split, which are in its pack. There must be some: the
    /// split holds code of its own.
    fn files_beyond_page(&self, split: &str, page: &str) -> anyhow::Result<Vec<&String>> {
        let on_the_page = &self.files[self.split_of(page)?];
        let (_, files) = self
            .files
            .iter()
            .find(|(name, _)| name.starts_with(split))
            .ok_or_else(|| anyhow::anyhow!("chunks.txt lists no split {split}…"))?;
        let own: Vec<&String> = files.iter().filter(|f| !on_the_page.contains(f)).collect();
        anyhow::ensure!(!own.is_empty(), "{split}… has no module of its own");
        Ok(own)
    }

    /// Every file of every page, and every pack.
    fn all(&self) -> Vec<&String> {
        self.files
            .values()
            .flatten()
            .chain(self.packs.values())
            .collect()
    }
}

/// The API paths the page asked for since it was opened.
const API_READS: &str = "
    return performance.getEntriesByType('resource')
        .map(r => new URL(r.name).pathname)
        .filter(path => path.startsWith('/api/'));
";

/// The API paths the served page asked for before the console's code had arrived
/// (`first_reads.js` marks each).
const EARLY_READS: &str = "
    return performance.getEntriesByType('mark')
        .filter(m => m.name.startsWith('first read '))
        .map(m => new URL(m.name.split(' ')[3]).pathname);
";

/// Whether `path` is an address of the API path `template`, whose `{name}` segments match
/// any one segment; a trailing slash is neither here nor there.
fn is_path_of(template: &str, path: &str) -> bool {
    let (template, path) = (template.trim_end_matches('/'), path.trim_end_matches('/'));
    let (wanted, given): (Vec<&str>, Vec<&str>) =
        (template.split('/').collect(), path.split('/').collect());
    wanted.len() == given.len()
        && wanted
            .iter()
            .zip(&given)
            .all(|(want, give)| want == give || (want.starts_with('{') && !give.is_empty()))
}

/// The route table says which API reads each page makes first: opened cold, the page asked
/// for each of them, and for nothing else but the shell's, each once.
fn first_reads_are_the_tables(route: &Route, asked: &[String]) -> anyhow::Result<()> {
    let expected: Vec<&str> = route
        .page
        .first_reads
        .iter()
        .map(|read| read.path)
        .collect();
    let missing: Vec<&&str> = expected
        .iter()
        .filter(|read| !asked.iter().any(|path| is_path_of(read, path)))
        .collect();
    anyhow::ensure!(
        missing.is_empty(),
        "it never asked for {missing:?} ({asked:?})"
    );
    let shell = SHELL_READS.iter().map(|read| read.path);
    let other: Vec<&String> = asked
        .iter()
        .filter(|path| {
            !expected
                .iter()
                .copied()
                .chain(shell.clone())
                .any(|read| is_path_of(read, path))
        })
        .collect();
    anyhow::ensure!(
        other.is_empty(),
        "it asked for {other:?}, not in the route table"
    );
    let mut seen = std::collections::BTreeSet::new();
    let twice: Vec<&String> = asked.iter().filter(|path| !seen.insert(*path)).collect();
    anyhow::ensure!(twice.is_empty(), "it asked for {twice:?} twice ({asked:?})");
    Ok(())
}

/// Opened cold in a tab with a session, the served page sent the shell's and the page's
/// first reads itself, before the console's code had arrived (the page then took their
/// answers: [`first_reads_are_the_tables`] finds each asked once).
fn the_served_page_asked_first(route: &Route, early: &[String]) -> anyhow::Result<()> {
    let expected = SHELL_READS.iter().chain(route.page.first_reads);
    let missing: Vec<&str> = expected
        .map(|read| read.path)
        .filter(|read| !early.iter().any(|path| is_path_of(read, path)))
        .collect();
    anyhow::ensure!(
        missing.is_empty(),
        "the served page did not ask for {missing:?} (it asked for {early:?})"
    );
    Ok(())
}

#[test]
fn api_paths_are_matched_by_their_templates() {
    assert!(is_path_of(
        paths::USER_TEMPLATES,
        "/api/v0/users/1/templates/"
    ));
    assert!(is_path_of(
        paths::TEAM_ROLES_FULL,
        "/api/v0/team/roles-full/"
    ));
    assert!(is_path_of(paths::MACHINES, "/api/v0/machines"));
    assert!(!is_path_of(
        paths::MACHINES,
        "/api/v0/machines/maintenances"
    ));
    assert!(!is_path_of(paths::TEAM_ROLE, "/api/v0/team/roles/"));
}

#[tokio::test(flavor = "multi_thread")]
async fn every_route_loads_cold_by_its_address() -> anyhow::Result<()> {
    let mut problems = Vec::new();
    for route in ROUTES.iter() {
        if let Err(problem) = load_cold(route).await {
            problems.push(format!("{}: {problem:#}", route.path));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    Ok(())
}

async fn load_cold(route: &'static Route) -> anyhow::Result<()> {
    let app = Harness::start(&route.name).await?;
    let outcome = async {
        app.record_page_errors().await?;
        app.record_every_fetch().await?;
        app.run_before_page_scripts(HEADING_TIMES, "the heading clock")
            .await?;
        if route.path != "/sign-in" {
            // The key lives in the tab's sessionStorage: sign in, then load the route
            // afresh, so its code starts from nothing but the address.
            app.open("/sign-in").await?;
            app.sign_in(demo::ALICE_KEY).await?;
            app.find("[data-testid=identity]").await?;
        }
        app.open(route.path).await?;
        if route.path == "/sign-in" {
            app.find(CONSOLE_SIGN_IN).await?;
        }
        app.wait_for_text("main h1, h1", route.heading).await?;
        // The bench's `felt` part times each page to this.
        app.find(route.content).await?;
        app.wait_for_title(&route.title).await?;
        // Sign-in came with the main module alone, and every other page, the first opened
        // in its tab, requested its pack before its heading showed.
        let listing = SplitListing::read()?;
        if route.name == "cold_sign_in" {
            let fetched = fetched_before_heading(&app, route.heading).await?;
            // But the Machines page's pack and rehearsal, which sign-in fetches as it shows
            // (see sign_in_keeps_other_pages_code_off_the_network_then_all_is_preloaded).
            let machines_pack = &listing.packs[listing.split_of("machines")?];
            let rehearsal = listing.rehearsal_files()?;
            let early: Vec<&String> = listing
                .all()
                .into_iter()
                .filter(|f| fetched.contains(f))
                .filter(|f| *f != machines_pack && !rehearsal.contains(f))
                .collect();
            anyhow::ensure!(early.is_empty(), "sign-in requested page files {early:?}");
        } else {
            let page = route.name.trim_start_matches("cold_");
            let split = listing.split_of(page)?;
            let pack = &listing.packs[split];
            // A request is listed once its response has ended: wait for it.
            let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
            let fetched = loop {
                let fetched = fetched_before_heading(&app, route.heading).await?;
                if fetched.contains(pack) {
                    break fetched;
                }
                anyhow::ensure!(
                    tokio::time::Instant::now() < deadline,
                    "its pack {pack} was not requested before its heading"
                );
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            };
            // The pack's merged module stands for the page's files; one of them
            // fetched by itself means the loader fell back to the files.
            let by_themselves: Vec<&String> = listing.files[split]
                .iter()
                .filter(|file| fetched.contains(*file))
                .collect();
            anyhow::ensure!(
                by_themselves.is_empty(),
                "{} of its {} files were fetched by themselves, not from its pack ({})",
                by_themselves.len(),
                listing.files[split].len(),
                by_themselves[0]
            );
        }
        let errors = app.page_errors().await?;
        anyhow::ensure!(errors.is_empty(), "the page reported {errors:?}");
        let asked: Vec<String> = serde_json::from_value(app.eval(API_READS).await?)?;
        first_reads_are_the_tables(route, &asked)?;
        let early: Vec<String> = serde_json::from_value(app.eval(EARLY_READS).await?)?;
        if route.path == "/sign-in" {
            anyhow::ensure!(
                early.is_empty(),
                "a tab without a session asked for {early:?}"
            );
        } else {
            the_served_page_asked_first(route, &early)?;
        }
        if route.path != "/sign-in" {
            // Signing out disposes the page at once: nothing of it may run on after that
            // (a panic shows as an error here).
            app.click("header button.sign-out").await?;
            app.wait_for_text("main h1, h1", "gpudeck").await?;
            app.wait_for_text(".notice", "You signed out").await?;
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            let errors = app.page_errors().await?;
            anyhow::ensure!(
                errors.is_empty(),
                "signing out, the page reported {errors:?}"
            );
        }
        Ok(())
    }
    .await;
    app.driver.quit().await?;
    app.server.shutdown().await?;
    outcome
}

/// How long the preload may take to fetch every file. Not a speed target: 250-odd small
/// modules compiled one route after another on a loaded 2-core machine take a while.
const PRELOAD_PATIENCE: std::time::Duration = std::time::Duration::from_secs(120);

/// The wasm files and packs fetched so far, by file name.
const CODE_FETCHED: &str = "return [...new Set(performance.getEntriesByType('resource')
    .map(r => r.name.split('/').pop()).filter(n => /\\.(wasm|bin)$/.test(n)))];";

/// How long the sign-in page is watched for other pages' code: in the split build the main
/// module and the next page's pack arrive within a second on loopback, and the preload
/// would have started long before this.
const SIGN_IN_WATCHED: std::time::Duration = std::time::Duration::from_secs(3);

#[tokio::test(flavor = "multi_thread")]
async fn sign_in_keeps_other_pages_code_off_the_network_then_all_is_preloaded() -> anyhow::Result<()>
{
    // Every wasm file of the build: the main module, each route's module and the pieces
    // the routes share, each fetched by itself or in a pack.
    let mut expected: Vec<String> = std::fs::read_dir(gpudeck_e2e::dist_dir()?)?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".wasm"))
        .collect();
    expected.sort();
    let listing = SplitListing::read()?;
    let app = Harness::start("split_preload").await?;
    let outcome = async {
        app.record_every_fetch().await?;
        app.open("/sign-in").await?;
        app.find("#api-key").await?;
        tokio::time::sleep(SIGN_IN_WATCHED).await;
        let on_sign_in: Vec<String> = serde_json::from_value(app.eval(CODE_FETCHED).await?)?;
        // The main module, the pack of the Machines page that Enter opens, and what
        // the rehearsal of that page's table adds to it.
        let machines_pack = &listing.packs[listing.split_of("machines")?];
        let rehearsal = listing.rehearsal_files()?;
        let others: Vec<&String> = on_sign_in
            .iter()
            .filter(|n| *n != machines_pack && !rehearsal.contains(n))
            .filter(|n| !n.ends_with("_bg.wasm"))
            .collect();
        anyhow::ensure!(
            others.is_empty(),
            "on the sign-in page, other pages' code was fetched: {others:?}"
        );
        anyhow::ensure!(
            on_sign_in.contains(machines_pack),
            "the Machines page's pack was not fetched on sign-in: {on_sign_in:?}"
        );
        let unfetched: Vec<&String> = rehearsal
            .into_iter()
            .filter(|n| !on_sign_in.contains(n))
            .collect();
        anyhow::ensure!(
            unfetched.is_empty(),
            "the Machines page was not rehearsed on sign-in: {unfetched:?} not fetched"
        );
        app.sign_in(demo::ALICE_KEY).await?;
        app.find("tbody tr:not(.spacer)").await?;
        let deadline = tokio::time::Instant::now() + PRELOAD_PATIENCE;
        loop {
            let mut loaded: Vec<String> = serde_json::from_value(app.eval(CODE_FETCHED).await?)?;
            for (split, pack) in &listing.packs {
                if loaded.contains(pack) {
                    loaded.extend(listing.files[split].iter().cloned());
                }
            }
            let missing: Vec<&String> = expected.iter().filter(|n| !loaded.contains(n)).collect();
            if missing.is_empty() {
                return Ok(());
            }
            anyhow::ensure!(
                tokio::time::Instant::now() < deadline,
                "{} of {} wasm files were never fetched, e.g. {:?}",
                missing.len(),
                expected.len(),
                &missing[..missing.len().min(5)]
            );
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }
    .await;
    app.finish().await?;
    outcome
}

/// When each file's request started and its response ended, by file name.
const REQUEST_TIMES: &str = "
    return performance.getEntriesByType('resource')
        .map(r => [r.name.split('/').pop(), r.startTime, r.responseEnd]);
";

#[tokio::test(flavor = "multi_thread")]
async fn a_page_opened_cold_fetches_its_pack_beside_the_main_module() -> anyhow::Result<()> {
    let listing = SplitListing::read()?;
    let route = ROUTES
        .iter()
        .find(|r| r.path == "/templates")
        .expect("the templates route");
    let pack = listing.packs[listing.split_of("templates")?].clone();
    let app = Harness::start("early_pack").await?;
    let outcome = async {
        app.record_page_errors().await?;
        app.open("/sign-in").await?;
        app.sign_in(demo::ALICE_KEY).await?;
        app.find("[data-testid=identity]").await?;
        // Slow enough that the main module takes a second or two to arrive.
        Throttle {
            download_kbits: 800.0,
            upload_kbits: 800.0,
            round_trip_ms: 20.0,
            cpu_slowdown: 1.0,
        }
        .apply(&app.driver)
        .await?;
        app.open(route.path).await?;
        app.wait_for_text("main h1", route.heading).await?;
        app.find(route.content).await?;
        let times: Vec<(String, f64, f64)> =
            serde_json::from_value(app.eval(REQUEST_TIMES).await?)?;
        let main_wasm = times
            .iter()
            .find(|(file, ..)| file.starts_with("gpudeck-") && file.ends_with("_bg.wasm"))
            .ok_or_else(|| anyhow::anyhow!("no main module among {times:?}"))?;
        let pack_requests: Vec<_> = times.iter().filter(|(file, ..)| *file == pack).collect();
        anyhow::ensure!(
            pack_requests.len() == 1,
            "the pack {pack} was requested {} times",
            pack_requests.len()
        );
        let (_, pack_start, _) = pack_requests[0];
        anyhow::ensure!(
            *pack_start < main_wasm.2,
            "the pack was requested at {pack_start:.0} ms, after the main module arrived at {:.0} ms",
            main_wasm.2
        );
        let errors = app.page_errors().await?;
        anyhow::ensure!(errors.is_empty(), "the page reported {errors:?}");
        Ok(())
    }
    .await;
    app.driver.quit().await?;
    app.server.shutdown().await?;
    outcome
}

/// What a page shows only on demand (`page_part!`) is not in its pack: the Machines page's
/// offer actions arrive after the page has painted, without being asked for, and then open.
#[tokio::test(flavor = "multi_thread")]
async fn a_pages_part_is_not_in_its_pack_and_loads_after_it_paints() -> anyhow::Result<()> {
    let listing = SplitListing::read()?;
    let part = listing.files_beyond_page("machines_part_", "machines")?;
    let route = ROUTES
        .iter()
        .find(|r| r.path == "/machines")
        .expect("the machines route");
    let app = Harness::start("page_part").await?;
    let outcome = async {
        app.record_page_errors().await?;
        app.record_every_fetch().await?;
        app.run_before_page_scripts(HEADING_TIMES, "the heading clock")
            .await?;
        app.open("/sign-in").await?;
        app.sign_in(demo::ALICE_KEY).await?;
        app.find("[data-testid=identity]").await?;
        app.open(route.path).await?;
        app.wait_for_text("main h1", route.heading).await?;
        app.find("tbody tr:not(.spacer)").await?;
        let deadline = tokio::time::Instant::now() + PRELOAD_PATIENCE;
        loop {
            let loaded: Vec<String> = serde_json::from_value(app.eval(CODE_FETCHED).await?)?;
            let missing: Vec<&&String> = part.iter().filter(|f| !loaded.contains(f)).collect();
            if missing.is_empty() {
                break;
            }
            anyhow::ensure!(
                tokio::time::Instant::now() < deadline,
                "the offer actions were never loaded: {missing:?}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let before_paint = fetched_before_heading(&app, route.heading).await?;
        let early: Vec<&&String> = part.iter().filter(|f| before_paint.contains(f)).collect();
        anyhow::ensure!(
            early.is_empty(),
            "the offer actions were fetched before the page painted: {early:?}"
        );
        app.click("td.select input[aria-label='Select 1001']")
            .await?;
        app.click("[data-action=end-offers]").await?;
        app.wait_for_text("#offer-panel-heading", "End offers at")
            .await?;
        let errors = app.page_errors().await?;
        anyhow::ensure!(errors.is_empty(), "the page reported {errors:?}");
        Ok(())
    }
    .await;
    // With the panel open: a screenshot and axe-core.
    app.finish().await?;
    outcome
}
