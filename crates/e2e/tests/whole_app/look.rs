//! Every page, as everyone sees it: at a phone's, a laptop's and a desktop's size, in light
//! and dark mode, with axe-core finding nothing and no page scrolling sideways. Each
//! combination is saved in `target/e2e/look/`.

use gpudeck_e2e::{demo, Harness, DESKTOP, LAPTOP, PHONE, VIEWPORTS};

/// A page of the console in a state with data on it.
struct Shown {
    name: &'static str,
    path: &'static str,
    /// What the test waits for before looking.
    ready: &'static str,
    /// The browser tab's title.
    title: &'static str,
}

const PAGES: &[Shown] = &[
    Shown {
        name: "machines",
        path: "/machines",
        ready: "tbody tr:not(.spacer) .occupancy",
        title: "Machines · gpudeck",
    },
    Shown {
        name: "schedule",
        path: "/machines/schedule?ids=1001-1003",
        ready: "form.schedule-form",
        title: "Schedule maintenance · gpudeck",
    },
    Shown {
        name: "rolling",
        path: "/machines/rolling?ids=1001-1012",
        ready: "form.rolling-form",
        title: "Plan rolling maintenance · gpudeck",
    },
    Shown {
        name: "maintenance-all",
        path: "/machines/maintenance",
        ready: "figure.timeline",
        title: "Maintenance windows · gpudeck",
    },
    Shown {
        name: "maintenance",
        path: "/machines/maintenance?ids=1001-1012",
        ready: "figure.timeline",
        title: "Maintenance windows · gpudeck",
    },
    Shown {
        name: "defrag",
        path: "/machines/defrag",
        ready: "form.ids-form",
        title: "Defragment GPU offers · gpudeck",
    },
    Shown {
        name: "templates",
        path: "/templates",
        ready: ".template-library tbody tr:not(.spacer)",
        title: "Templates · gpudeck",
    },
    Shown {
        name: "volumes",
        path: "/volumes",
        ready: ".my-volumes tbody tr:not(.spacer)",
        title: "Volumes · gpudeck",
    },
    Shown {
        name: "volumes-search",
        path: "/volumes?size=25&max_price=0.3&order=price",
        ready: ".offer-search tbody tr:not(.spacer)",
        title: "Volumes · gpudeck",
    },
    Shown {
        name: "subaccounts",
        path: "/subaccounts",
        ready: "tbody tr:not(.spacer)",
        title: "Subaccounts · gpudeck",
    },
    Shown {
        name: "notifications",
        path: "/notifications",
        ready: ".preferences tbody tr:not(.spacer)",
        title: "Notifications · gpudeck",
    },
    Shown {
        name: "team-members",
        path: "/team/members",
        ready: "tbody tr:not(.spacer)",
        title: "Team members · gpudeck",
    },
    Shown {
        name: "team-role",
        path: "/team/roles/owner",
        ready: "table.permission-grid",
        title: "Team role · gpudeck",
    },
    Shown {
        name: "team-roles",
        path: "/team/roles",
        ready: ".roles-table tbody tr",
        title: "Team roles · gpudeck",
    },
    Shown {
        name: "role-editor",
        path: "/team/roles/member/edit",
        ready: ".constraint-row",
        title: "Edit role · gpudeck",
    },
    Shown {
        name: "new-role",
        path: "/team/new-role?from=manager",
        ready: "#group-team_write",
        title: "New role · gpudeck",
    },
    Shown {
        name: "acting-account",
        path: "/acting-account",
        ready: "form.add-key",
        title: "Acting account · gpudeck",
    },
    Shown {
        name: "machine-detail",
        path: "/machines/1037",
        ready: "[data-testid=earnings-total]",
        title: "Machine 1037 · alice-gpu-037 · gpudeck",
    },
    Shown {
        name: "machine-detail-reports",
        path: "/machines/1058",
        ready: "[data-testid=machine-reports] .report",
        title: "Machine 1058 · alice-gpu-058 · gpudeck",
    },
    Shown {
        // Another account's machine (bob's).
        name: "machine-not-found",
        path: "/machines/2001",
        ready: "[data-testid=machine-not-found]",
        title: "No such machine · gpudeck",
    },
    Shown {
        name: "not-found",
        path: "/no/such/page",
        // Its own heading: the served page's sign-in form has an `h1` from the first byte.
        ready: ".not-found h1",
        title: "Page not found · gpudeck",
    },
];

/// A page added to the route table is looked at too: each page of the table but sign-in
/// (looked at on the way in) is one of [`PAGES`].
#[test]
fn every_page_of_the_route_table_is_looked_at() {
    let looked_at = |page: &gpudeck_pages::Page| {
        PAGES
            .iter()
            .any(|shown| page.serves(shown.path.split('?').next().unwrap_or_default()))
    };
    let missing: Vec<&str> = gpudeck_pages::PAGES
        .iter()
        .filter(|page| page.route.is_some() && !looked_at(page))
        .map(|page| page.address)
        .collect();
    assert!(missing.is_empty(), "not looked at: {missing:?}");
}

async fn signed_in(name: &'static str) -> anyhow::Result<Harness> {
    let app = Harness::start(name).await?;
    app.open("/sign-in").await?;
    app.find("#api-key").await?;
    app.check_look("sign-in").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.find("[data-testid=identity]").await?;
    Ok(app)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_page_at_three_sizes_in_both_schemes() -> anyhow::Result<()> {
    let app = signed_in("look_every_page").await?;
    let mut problems = Vec::new();
    for page in PAGES {
        app.open(page.path).await?;
        app.find(page.ready).await?;
        // A page named after what it shows sets its title once that has loaded.
        if let Err(problem) = app.wait_for_title(page.title).await {
            problems.push(format!("{}: {problem}", page.name));
        }
        if let Err(problem) = app.check_look_showing(page.name, Some(page.ready)).await {
            problems.push(format!("{problem:#}"));
        }
    }
    app.finish().await?;
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn dialogs_and_results_at_three_sizes_in_both_schemes() -> anyhow::Result<()> {
    let app = signed_in("look_dialogs_and_results").await?;
    app.open("/machines/defrag").await?;
    app.fill("#machine-ids", "1001, 1002, 1003").await?;
    app.click("form.ids-form button[type=submit]").await?;
    app.find("dialog[open]").await?;
    app.check_look("defrag-confirm").await?;
    app.click("dialog[open] .confirm-actions button:last-child")
        .await?;
    app.find("[data-testid=defrag-result]").await?;
    for viewport in VIEWPORTS {
        app.set_viewport(viewport).await?;
        let overlap = app
            .eval(
                "const a = document.querySelector('.toast').getBoundingClientRect();
                 const b = document.querySelector('form.ids-form button[type=submit]').getBoundingClientRect();
                 return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;",
            )
            .await?;
        assert_eq!(
            overlap, false,
            "the toast covers the main button at {}",
            viewport.name
        );
    }
    app.check_look("defrag-result").await?;

    app.open("/machines/maintenance?ids=999999").await?;
    app.find("[aria-invalid=true]").await?;
    app.check_look("maintenance-refused").await?;

    // A volume in use: the confirmation's warning, then the refusal in plain words.
    app.open("/volumes").await?;
    app.click(".my-volumes button[aria-label='Delete volume V.20118470']")
        .await?;
    app.find("dialog[open]").await?;
    app.check_look("volume-delete-confirm").await?;
    app.click("dialog[open] .confirm-actions button:last-child")
        .await?;
    app.find("[data-testid=volume-refusal]:not(:empty)").await?;
    app.check_look("volume-in-use").await?;

    // A new subaccount's checks, each next to its field.
    app.open("/subaccounts").await?;
    app.find(".subaccounts tbody tr:not(.spacer)").await?;
    app.click(".create-form button[type=submit]").await?;
    app.find("#sub-email[aria-invalid=true]").await?;
    app.check_look("subaccount-checks").await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn on_a_phone_the_header_says_who_acts_and_the_navigation_is_a_bar() -> anyhow::Result<()> {
    let app = signed_in("look_phone_shell").await?;
    app.open("/team/roles/owner").await?;
    app.find("table.permission-grid").await?;
    app.set_viewport(PHONE).await?;
    let heights = app
        .eval(
            "const h = s => document.querySelector(s).getBoundingClientRect().height;
             return [h('.topbar'), h('.identity'), h('.sidenav'), h('.sidenav a[aria-current=page]')];",
        )
        .await?;
    let [header, identity, nav, active]: [f64; 4] = serde_json::from_value(heights)?;
    // One line of text is about 22 px. The header has two: the brand and its buttons (the
    // account switch and Sign out), then who acts and through which key.
    assert!(
        identity <= 30.0,
        "who is signed in takes {identity} px: more than one line"
    );
    assert!(
        header <= 84.0,
        "the header is {header} px tall: more than two lines"
    );
    for shown in [
        ".identity-label",
        ".identity-name",
        "[data-testid=key-scope]",
        ".switch-link",
        "button.sign-out",
    ] {
        assert!(
            app.find(shown).await?.is_displayed().await?,
            "{shown} is hidden on a phone"
        );
    }
    assert!(
        nav <= 52.0,
        "the navigation is {nav} px tall: not a compact bar"
    );
    assert!(active <= 40.0, "the active link is {active} px tall");
    app.set_viewport(LAPTOP).await?;
    app.finish().await
}

/// At a phone's width the header keeps the acting account's name whole beside the team
/// key's scope and the connection badge, which give way first: carol acts with a team key,
/// the longest identity line of the demo.
#[tokio::test(flavor = "multi_thread")]
async fn on_a_phone_the_header_keeps_the_acting_name_whole() -> anyhow::Result<()> {
    let app =
        Harness::start_signed_in("look_phone_carol", "/team/members", demo::CAROL_TEAM_KEY).await?;
    app.find("[data-testid=key-scope]").await?;
    app.set_viewport(PHONE).await?;
    let name = app
        .eval(
            "const n = document.querySelector('.identity-name');
             const r = n.getBoundingClientRect();
             return [n.textContent, n.scrollWidth, n.clientWidth, r.right, innerWidth];",
        )
        .await?;
    let (text, wide, room, right, width): (String, f64, f64, f64, f64) =
        serde_json::from_value(name)?;
    assert_eq!(text, "carol");
    assert!(wide <= room, "the name needs {wide} px and has {room} px");
    assert!(
        right <= width,
        "the name ends at {right} px, past the {width} px screen"
    );
    app.set_viewport(LAPTOP).await?;
    app.finish().await
}

/// The widest things the console writes in the Machines table's Next window cell: the
/// stage, the longest distance, in the bold of a window under way, and more windows (up
/// to ten active windows on a machine, as on the busiest machines of the bench's fleet).
const LONGEST_STAGE: &str = "Upcoming ·";
const LONGEST_DISTANCE: &str = "under a minute left";
const MOST_WINDOWS: &str = "+9";

/// At 1280 px the Machines table shows every column and every cell whole (its rows take
/// two lines), and at 1920 px too (on one line), whatever the relative times say: a minute after loading, "in 3 d" becomes
/// "in 2 d 23 h" and "2 h left" becomes "1 h 59 min left". Every row of the fleet is given
/// the widest Next window text, and every row stays as tall as the first (the windowing
/// counts on it).
#[tokio::test(flavor = "multi_thread")]
async fn at_a_laptop_the_machines_table_shows_every_column_whole() -> anyhow::Result<()> {
    let app =
        Harness::start_signed_in("look_machines_whole", "/machines?rows=all", demo::ALICE_KEY)
            .await?;
    app.set_viewport(LAPTOP).await?;
    // The width policy's first step, taken a frame or two after the rows are drawn.
    app.find("main .data-table.two-line tbody tr:not(.spacer)")
        .await?;
    let shown = app
        .driver
        .execute(
            "const box = document.querySelector('main .table-scroll');
             const rows = [...box.querySelectorAll('tbody tr:not(.spacer)')];
             for (const cell of box.querySelectorAll('.next-window')) {
               cell.classList.add('ongoing');
               cell.textContent = '';
               const stage = document.createElement('span');
               stage.className = 'stage';
               stage.textContent = arguments[0];
               const distance = document.createElement('span');
               distance.className = 'distance';
               const more = document.createElement('span');
               more.className = 'more-windows';
               more.textContent = arguments[2];
               distance.append(arguments[1], ' ', more);
               cell.append(stage, ' ', distance);
             }
             const heights = rows.map(row => row.getBoundingClientRect().height);
             return [rows.length, box.querySelectorAll('.next-window').length,
                     box.closest('.data-table').classList.contains('two-line'),
                     Math.min(...heights), Math.max(...heights)];",
            vec![
                serde_json::json!(LONGEST_STAGE),
                serde_json::json!(LONGEST_DISTANCE),
                serde_json::json!(MOST_WINDOWS),
            ],
        )
        .await?
        .json()
        .clone();
    let (rows, rewritten, two_lines, lowest, tallest): (usize, usize, bool, f64, f64) =
        serde_json::from_value(shown)?;
    assert_eq!(rows, 120, "every machine of the demo fleet is rendered");
    assert!(rewritten >= 100, "only {rewritten} Next window cells");
    assert!(two_lines, "at 1280 px the rows take two lines");
    assert!(
        tallest - lowest < 0.5,
        "rows from {lowest} to {tallest} px tall"
    );
    let hidden = app.hidden_in_tables(true).await?;
    assert!(hidden.is_empty(), "at 1280 px: {hidden:?}");
    let cut = app.cut_cells("main .table-scroll").await?;
    assert!(cut.is_empty(), "at 1280 px these cells are cut: {cut:?}");

    // From a desktop up the rows take one line, and the same texts are whole.
    app.set_viewport(DESKTOP).await?;
    app.find("main .data-table:not(.two-line) tbody tr:not(.spacer)")
        .await?;
    let cut = app.cut_cells("main .table-scroll").await?;
    assert!(cut.is_empty(), "at 1920 px these cells are cut: {cut:?}");
    assert!(app.hidden_in_tables(true).await?.is_empty());
    app.set_viewport(LAPTOP).await?;
    app.finish().await
}
