//! The router's side of the route table: an address matches as Leptos' `path!` would,
//! every page of the table is routed, and the Machines page's rehearsal fleet decodes as
//! the page decodes the service. They need Leptos' router and the fetch layer's decoders,
//! so they are tested in the browser rather than with the pure logic (`gpudeck_logic`).

mod route_address {
    use gpudeck::route_address::Address;
    use leptos_router::path;
    use leptos_router::PossibleRouteMatch;
    use wasm_bindgen_test::*;

    /// The same answers as the `path!` the router had before, for each kind of address.
    #[wasm_bindgen_test]
    fn matches_as_the_literal_path_did() {
        let cases: [(&str, &str); 9] = [
            ("/machines", "/machines"),
            ("/machines", "/machines/rolling"),
            ("/machines/rolling", "/machines/rolling"),
            ("/machines/rolling", "/machines"),
            ("/team/roles/:name", "/team/roles/owner"),
            ("/team/roles/:name", "/team/roles/owner/edit"),
            ("/team/roles/:name/edit", "/team/roles/a%20b/edit"),
            ("/team/roles/:name", "/team/roles"),
            ("/sign-in", "/sign-in?next=%2Fmachines"),
        ];
        for (address, path) in cases {
            let ours = Address(address)
                .test(path)
                .map(|m| (m.remaining().to_owned(), m.matched().to_owned(), m.params()));
            let theirs = match address {
                "/machines" => path!("/machines").test(path),
                "/machines/rolling" => path!("/machines/rolling").test(path),
                "/team/roles/:name" => path!("/team/roles/:name").test(path),
                "/team/roles/:name/edit" => path!("/team/roles/:name/edit").test(path),
                _ => path!("/sign-in").test(path),
            }
            .map(|m| (m.remaining().to_owned(), m.matched().to_owned(), m.params()));
            assert_eq!(ours, theirs, "{address} on {path}");
        }
    }

    #[wasm_bindgen_test]
    fn a_parameter_is_named_by_its_segment() {
        let matched = Address("/team/roles/:name/edit")
            .test("/team/roles/owner/edit")
            .expect("matches");
        assert!(matched.is_complete());
        assert_eq!(matched.params(), vec![("name".into(), "owner".to_owned())]);
    }

    #[wasm_bindgen_test]
    fn generates_the_segments_path_would() {
        let mut ours = Vec::new();
        Address("/team/roles/:name").generate_path(&mut ours);
        let mut theirs = Vec::new();
        path!("/team/roles/:name").generate_path(&mut theirs);
        assert_eq!(ours, theirs);
    }
}

mod app {
    use gpudeck::app::ROUTED;
    use gpudeck_pages::PAGES;
    use std::collections::BTreeSet;
    use wasm_bindgen_test::*;

    /// A page in the table the router does not serve would be a link to nowhere, and the
    /// build would find no pack for it.
    #[wasm_bindgen_test]
    fn the_router_serves_every_page_of_the_route_table() {
        let routed: BTreeSet<&str> = ROUTED.iter().map(|page| page.address).collect();
        let table: BTreeSet<&str> = PAGES.iter().map(|page| page.address).collect();
        assert_eq!(routed, table);
        assert_eq!(ROUTED.len(), PAGES.len(), "a page is routed twice");
    }
}

mod rehearsal {
    use gpudeck::domain::health::FleetHealth;
    use gpudeck::pages::machines::fleet_rows;
    use gpudeck::pages::machines::rehearsal::rehearsal_fleet;
    use wasm_bindgen_test::*;

    #[wasm_bindgen_test]
    fn the_made_up_fleet_decodes_as_the_page_decodes_the_service() {
        let fleet = rehearsal_fleet().expect("the rehearsal's fleet decodes");
        let health = FleetHealth::judge(&fleet.machines, &fleet.windows, None, fleet.at);
        let rows = fleet_rows(&fleet.machines, &fleet.windows, &health);
        let hostnames: Vec<&str> = rows.iter().map(|r| r.machine.hostname.as_str()).collect();
        assert_eq!(hostnames, ["rehearsal-1", "rehearsal-2"]);
        assert_eq!(rows.iter().map(|r| r.active).collect::<Vec<_>>(), [2, 0]);
        assert_eq!(rows[0].next, Some((1.0, 7201.0)));
    }
}
