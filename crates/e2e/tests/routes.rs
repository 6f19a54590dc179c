//! Every route loaded cold, by its address, in a browser session of its own: the page's
//! heading and tab title appear and the page reports no error. In the build split by
//! route (`cargo xtask test` tests that one) this is the proof that each page's chunk
//! loads and runs on its own, without another page having loaded code before it.

use gpudeck_e2e::{demo, Harness};

/// Runs before any page script: notes when each main heading first appears. A page's
/// heading needs its code, and the preload only starts after that page has painted, so
/// the files whose requests started before then are the files the page itself needed.
const HEADING_TIMES: &str = r#"
    window.__headingAt = {};
    new MutationObserver(() => {
        const heading = document.querySelector('main h1, h1');
        const text = heading && heading.textContent.trim();
        if (text && !(text in window.__headingAt)) {
            window.__headingAt[text] = performance.now();
        }
    }).observe(document, { subtree: true, childList: true, characterData: true });
"#;

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

/// The files `target/split/chunks.txt` says the route's page needs beyond the main
/// module (its chunks and its own module, by the page's route name), or every file of
/// every page for `None`; `None` overall when the build is not split.
fn split_files(page: Option<&str>) -> anyhow::Result<Option<Vec<String>>> {
    let dist = gpudeck_e2e::dist_dir()?;
    let Some(listing) = dist.parent().map(|split| split.join("chunks.txt")) else {
        return Ok(None);
    };
    if !listing.exists() {
        return Ok(None);
    }
    let mut files = Vec::new();
    for line in std::fs::read_to_string(&listing)?.lines() {
        let mut parts = line.split_whitespace();
        let Some(module) = parts.next() else { continue };
        let wanted = match page {
            Some(page) => module.starts_with(&format!("__{page}_route_view_")),
            None => module != "main",
        };
        if wanted {
            files.extend(parts.map(str::to_owned));
        }
    }
    Ok(Some(files))
}

struct Route {
    /// Names the test's browser session (and nothing else).
    name: &'static str,
    path: &'static str,
    heading: &'static str,
    title: &'static str,
}

const ROUTES: &[Route] = &[
    Route {
        name: "cold_sign_in",
        path: "/sign-in",
        heading: "gpudeck",
        title: "Sign in · gpudeck",
    },
    Route {
        name: "cold_machines",
        path: "/machines",
        heading: "Machines",
        title: "Machines · gpudeck",
    },
    Route {
        name: "cold_schedule",
        path: "/machines/schedule?ids=1001",
        heading: "Schedule maintenance",
        title: "Schedule maintenance · gpudeck",
    },
    Route {
        name: "cold_maintenance",
        path: "/machines/maintenance",
        heading: "Maintenance windows",
        title: "Maintenance windows · gpudeck",
    },
    Route {
        name: "cold_defrag",
        path: "/machines/defrag",
        heading: "Defragment GPU offers",
        title: "Defragment GPU offers · gpudeck",
    },
    Route {
        name: "cold_templates",
        path: "/templates",
        heading: "Templates",
        title: "Templates · gpudeck",
    },
    Route {
        name: "cold_volumes",
        path: "/volumes",
        heading: "Volumes",
        title: "Volumes · gpudeck",
    },
    Route {
        name: "cold_subaccounts",
        path: "/subaccounts",
        heading: "Subaccounts",
        title: "Subaccounts · gpudeck",
    },
    Route {
        name: "cold_team_members",
        path: "/team/members",
        heading: "Team members",
        title: "Team members · gpudeck",
    },
    Route {
        name: "cold_team_roles",
        path: "/team/roles",
        heading: "Team roles",
        title: "Team roles · gpudeck",
    },
    Route {
        name: "cold_new_role",
        path: "/team/new-role?from=manager",
        heading: "New role",
        title: "New role · gpudeck",
    },
    Route {
        name: "cold_team_role",
        path: "/team/roles/owner",
        heading: "Team role",
        title: "Team role · gpudeck",
    },
    Route {
        name: "cold_edit_role",
        path: "/team/roles/member/edit",
        heading: "Edit role",
        title: "Edit role · gpudeck",
    },
    Route {
        name: "cold_acting_account",
        path: "/acting-account",
        heading: "Acting account",
        title: "Acting account · gpudeck",
    },
];

#[tokio::test(flavor = "multi_thread")]
async fn every_route_loads_cold_by_its_address() -> anyhow::Result<()> {
    let mut problems = Vec::new();
    for route in ROUTES {
        if let Err(problem) = load_cold(route).await {
            problems.push(format!("{}: {problem:#}", route.path));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    Ok(())
}

async fn load_cold(route: &Route) -> anyhow::Result<()> {
    let app = Harness::start(route.name).await?;
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
        app.wait_for_text("main h1, h1", route.heading).await?;
        let title = app.eval("return document.title").await?;
        anyhow::ensure!(title == route.title, "the tab is titled {title}");
        // In the split build, sign-in came with the main module alone, and every other page
        // requested the files chunks.txt lists for it before its heading showed.
        let page = route.name.strip_prefix("cold_").unwrap_or(route.name);
        if let Some(expected) = split_files((page != "sign_in").then_some(page))? {
            if page == "sign_in" {
                let fetched = fetched_before_heading(&app, route.heading).await?;
                let early: Vec<&String> = expected.iter().filter(|f| fetched.contains(f)).collect();
                anyhow::ensure!(early.is_empty(), "sign-in requested page files {early:?}");
            } else {
                anyhow::ensure!(!expected.is_empty(), "chunks.txt lists no files for {page}");
                // A request is listed once its response has ended: wait for the last ones.
                let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
                let missing = loop {
                    let fetched = fetched_before_heading(&app, route.heading).await?;
                    let missing: Vec<&String> =
                        expected.iter().filter(|f| !fetched.contains(f)).collect();
                    if missing.is_empty() || tokio::time::Instant::now() > deadline {
                        break missing;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                };
                anyhow::ensure!(
                    missing.is_empty(),
                    "{} of its {} files were not requested before its heading, e.g. {:?}",
                    missing.len(),
                    expected.len(),
                    &missing[..missing.len().min(3)]
                );
            }
        }
        let errors = app.page_errors().await?;
        anyhow::ensure!(errors.is_empty(), "the page reported {errors:?}");
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

#[tokio::test(flavor = "multi_thread")]
async fn after_the_first_paint_every_pages_chunk_is_preloaded() -> anyhow::Result<()> {
    // Every wasm file of the build: the main module and, when split, each route's
    // module and the pieces the routes share.
    let mut expected: Vec<String> = std::fs::read_dir(gpudeck_e2e::dist_dir()?)?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".wasm"))
        .collect();
    expected.sort();
    let app = Harness::start("split_preload").await?;
    app.record_every_fetch().await?;
    app.open("/sign-in").await?;
    app.find("#api-key").await?;
    let fetched = "return [...new Set(performance.getEntriesByType('resource')
           .map(r => r.name.split('/').pop()).filter(n => n.endsWith('.wasm')))];";
    let deadline = tokio::time::Instant::now() + PRELOAD_PATIENCE;
    let outcome = loop {
        let loaded: Vec<String> = serde_json::from_value(app.eval(fetched).await?)?;
        let missing: Vec<&String> = expected.iter().filter(|n| !loaded.contains(n)).collect();
        if missing.is_empty() {
            break Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            break Err(anyhow::anyhow!(
                "{} of {} wasm files were never fetched, e.g. {:?}",
                missing.len(),
                expected.len(),
                &missing[..missing.len().min(5)]
            ));
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    app.finish().await?;
    outcome
}
