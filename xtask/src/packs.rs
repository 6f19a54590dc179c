//! Page packs: everything a page's split needs in one file, which the split loader
//! fetches instead of the files one by one when the page is the first opened in its tab
//! (see `packs.js`): one file arrives far sooner than a hundred small ones sharing a
//! browser's six connections to one server, even from the browser's cache. The pack holds
//! the page's chunks merged into one module (see `merge.rs`), which a phone also starts
//! sooner than the hundred.

use anyhow::{bail, Result};
use gpudeck_pages::Page;
use std::fmt::Write as _;

/// What the loader's prelude does, with the packs' index in place of `/*PACKS*/ {}`.
const PRELUDE: &str = include_str!("packs.js");
const INDEX_SLOT: &str = "/*PACKS*/ {}";
/// How wasm-split's loader fetches a file, and what it fetches through instead.
const FETCH: &str = "fetch(new URL(";
const FETCH_PART: &str = "fetchPart(new URL(";
/// How it instantiates a fetched file, and what it instantiates through instead.
const INSTANTIATE: &str = "WebAssembly.instantiateStreaming(src, imports)";
const INSTANTIATE_PART: &str = "instantiatePart(src, imports)";
/// The loader's function giving the main module's memory, table and global, which the
/// prelude also gives the merged module.
const SHARED_IMPORTS: &str = "function getSharedImports(";

/// One split's pack, as published.
#[derive(Debug, Clone, PartialEq)]
pub struct Pack {
    /// wasm-split's name of the split, `__machines_route_view_<n>`.
    pub split: String,
    /// The published name of the pack.
    pub file: String,
}

/// The pack of the published chunk files `covered`, merged into `module`: a 4-byte
/// little-endian header length, the header (a line per file name), then the module;
/// `packs.js` reads it.
pub fn pack(covered: &[&str], module: &[u8]) -> Result<Vec<u8>> {
    let mut header = String::new();
    for name in covered {
        writeln!(header, "{}", plain(name)?)?;
    }
    let mut out = u32::try_from(header.len())?.to_le_bytes().to_vec();
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(module);
    Ok(out)
}

/// A name that goes into the loader or a pack header as it is: no quote, space or line
/// break to escape.
fn plain(text: &str) -> Result<&str> {
    if text.is_empty()
        || !text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
    {
        bail!("{text:?} is not a plain file or split name");
    }
    Ok(text)
}

/// wasm-split's loader, made to fetch through packs: the prelude with the packs' index
/// first, every file fetched through `fetchPart` and instantiated through
/// `instantiatePart`, and each split's exported loader wrapped in `withPack`. Fails when
/// the loader no longer has the shape this relies on.
pub fn route_loader_through_packs(loader: &str, packs: &[Pack]) -> Result<String> {
    let fetches = loader.matches(FETCH).count();
    if fetches == 0 {
        bail!("the split loader fetches nothing with `{FETCH}`");
    }
    if !loader.contains(SHARED_IMPORTS) {
        bail!("the split loader has no `{SHARED_IMPORTS}`, which packs.js calls");
    }
    if loader.matches(INSTANTIATE).count() != fetches {
        bail!("the split loader does not instantiate each file it fetches with `{INSTANTIATE}`");
    }
    let mut routed = loader
        .replace(FETCH, FETCH_PART)
        .replace(INSTANTIATE, INSTANTIATE_PART);
    for pack in packs {
        let export = format!(
            "export const __wasm_split_load_{} = wrapAsyncCb(",
            pack.split
        );
        let Some(start) = routed.find(&export) else {
            bail!("the split loader has no export for {}", pack.split);
        };
        // The export's statement ends with its dependency list: `[…]));`.
        let Some(end) = routed[start..].find("]));").map(|at| start + at) else {
            bail!("the export for {} does not end as expected", pack.split);
        };
        routed.replace_range(end..end + 4, "])));");
        let wrapped = format!(
            "export const __wasm_split_load_{} = withPack(\"{}\", wrapAsyncCb(",
            pack.split, pack.split
        );
        routed.replace_range(start..start + export.len(), &wrapped);
    }
    let Some(first_line_end) = routed.find('\n') else {
        bail!("the split loader has no import line");
    };
    let prelude = PRELUDE.replace(INDEX_SLOT, &index(packs)?);
    routed.insert_str(first_line_end + 1, &prelude);
    Ok(routed)
}

/// The packs' index as a JavaScript object: split → pack URL.
fn index(packs: &[Pack]) -> Result<String> {
    let mut out = String::from("{");
    for pack in packs {
        write!(
            out,
            "\"{}\": \"./{}\", ",
            plain(&pack.split)?,
            plain(&pack.file)?
        )?;
    }
    out.push('}');
    Ok(out)
}

/// Whether wasm-split's `split` is a page's, `__some_route_view_<n>` (`page!`'s route types
/// all end in `Route`), rather than a lazy function's, such as the Machines page's
/// rehearsal. Only pages get packs: a pack serves the first split a tab loads, and
/// sign-in loads the rehearsal only after its page.
pub fn is_page_split(split: &str) -> bool {
    split.starts_with("__") && split.contains("_route_view_")
}

/// Each lazy page's address (`/team/roles/:name`) and its pack's file, from the route
/// table (`gpudeck_pages`): a page whose route is `SomeRoute` is the split wasm-split names
/// `__some_route_view_<n>`. Fails when a lazy page has no pack, so that a router of
/// another shape never silently loses its early fetch.
pub fn route_packs(pages: &[&Page], packs: &[Pack]) -> Result<Vec<(String, String)>> {
    let mut routes = Vec::new();
    for page in pages {
        let Some(prefix) = page.split_prefix() else {
            continue;
        };
        let address = page.address;
        if !address
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/:_-".contains(&b))
        {
            bail!("{address:?} is not a plain route address");
        }
        let Some(pack) = packs.iter().find(|pack| pack.split.starts_with(&prefix)) else {
            bail!("no pack for the route {address} ({prefix}…)");
        };
        routes.push((address.to_owned(), plain(&pack.file)?.to_owned()));
    }
    if routes.is_empty() {
        bail!("the route table has no lazy page");
    }
    Ok(routes)
}

/// The routes' packs as the JSON object boot.js reads: address → `/file`.
pub fn route_packs_json(routes: &[(String, String)]) -> String {
    let entries: Vec<String> = routes
        .iter()
        .map(|(address, file)| format!("\"{address}\":\"/{file}\""))
        .collect();
    format!("{{{}}}", entries.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of wasm-split 0.2.4's loader, cut down to one split with its own module
    /// and one without.
    const LOADER: &str = r#"import { initSync } from "./gpudeck.js";
function getSharedImports() { return {}; }
function wrapAsyncCb(callee) { return callee; }
const __chunk_1 = makeLoad(() => {
    const src = fetch(new URL("./gpudeck-chunk_1-00.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
export const __wasm_split_load___a_route_view_1 = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./gpudeck-split___a-00.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_1]));
export const __wasm_split_load___b_route_view_2 = wrapAsyncCb(makeLoad(() => async (_imp) => ({}), [__chunk_1]));
"#;

    fn published(split: &str) -> Pack {
        Pack {
            split: split.into(),
            file: format!("gpudeck-pack{split}-00.bin"),
        }
    }

    #[test]
    fn only_pages_splits_are_pages() {
        assert!(is_page_split("__machines_route_view_7963141068498643669"));
        assert!(is_page_split("__team_role_route_view_1"));
        assert!(!is_page_split("rehearse_3816013688682616273"));
        assert!(!is_page_split("__rehearse_7"));
    }

    #[test]
    fn a_pack_is_its_header_of_file_names_then_the_merged_module() {
        let bytes = pack(&["a.wasm", "b.wasm"], &[0, 97, 115, 109]).unwrap();
        let header = "a.wasm\nb.wasm\n";
        assert_eq!(bytes[..4], (header.len() as u32).to_le_bytes());
        assert_eq!(&bytes[4..4 + header.len()], header.as_bytes());
        assert_eq!(bytes[4 + header.len()..], [0, 97, 115, 109]);
        assert!(pack(&["a b.wasm"], &[]).is_err());
    }

    #[test]
    fn every_fetch_and_every_packed_export_goes_through_the_prelude() {
        let packs = [published("__a_route_view_1"), published("__b_route_view_2")];
        let routed = route_loader_through_packs(LOADER, &packs).unwrap();
        assert!(routed.starts_with("import { initSync } from \"./gpudeck.js\";\n// Page packs"));
        assert!(!routed.contains("src = fetch(new URL("));
        assert_eq!(routed.matches("fetchPart(new URL(").count(), 2);
        assert!(!routed.contains("WebAssembly.instantiateStreaming(src"));
        assert_eq!(routed.matches("instantiatePart(src, imports)").count(), 2);
        assert!(routed.contains(
            "export const __wasm_split_load___a_route_view_1 = withPack(\"__a_route_view_1\", wrapAsyncCb(makeLoad(() => {"
        ));
        assert!(routed.contains(", [__chunk_1])));\nexport const __wasm_split_load___b"));
        assert!(routed.contains(
            "withPack(\"__b_route_view_2\", wrapAsyncCb(makeLoad(() => async (_imp) => ({}), [__chunk_1])));"
        ));
        assert!(routed.contains(
            "const packs = {\"__a_route_view_1\": \"./gpudeck-pack__a_route_view_1-00.bin\", \"__b_route_view_2\": \"./gpudeck-pack__b_route_view_2-00.bin\", };"
        ));
    }

    #[test]
    fn a_loader_of_another_shape_is_refused() {
        let packs = [published("__c_route_view_3")];
        let missing = route_loader_through_packs(LOADER, &packs).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "the split loader has no export for __c_route_view_3"
        );
        assert!(route_loader_through_packs("import x;\n", &[]).is_err());
        let without_shared_imports = LOADER.replace(SHARED_IMPORTS, "function other(");
        assert!(route_loader_through_packs(&without_shared_imports, &[]).is_err());
        let instantiated_otherwise =
            LOADER.replacen(INSTANTIATE, "WebAssembly.instantiate(src)", 1);
        assert!(route_loader_through_packs(&instantiated_otherwise, &[]).is_err());
        let mut odd = published("__a_route_view_1");
        odd.file = "a\"b.bin".into();
        let odd = [odd];
        assert!(route_loader_through_packs(LOADER, &odd).is_err());
    }
    #[test]
    fn each_lazy_route_of_the_router_gets_its_pack() {
        let router = [
            &gpudeck_pages::SIGN_IN,
            &gpudeck_pages::MACHINES,
            &gpudeck_pages::TEAM_ROLE,
        ];
        let packs = [
            published("__machines_route_view_1"),
            published("__team_role_route_view_1"),
            published("__team_roles_route_view_1"),
        ];
        let routes = route_packs(&router, &packs).unwrap();
        assert_eq!(
            routes,
            [
                (
                    "/machines".to_owned(),
                    "gpudeck-pack__machines_route_view_1-00.bin".to_owned()
                ),
                (
                    "/team/roles/:name".to_owned(),
                    "gpudeck-pack__team_role_route_view_1-00.bin".to_owned()
                ),
            ]
        );
        assert_eq!(
            route_packs_json(&routes),
            r#"{"/machines":"/gpudeck-pack__machines_route_view_1-00.bin","/team/roles/:name":"/gpudeck-pack__team_role_route_view_1-00.bin"}"#
        );
        let missing = route_packs(&router, &packs[..1]).unwrap_err().to_string();
        assert_eq!(
            missing,
            "no pack for the route /team/roles/:name (__team_role_route_view_…)"
        );
        assert!(route_packs(&[&gpudeck_pages::SIGN_IN], &packs).is_err());
    }

    #[test]
    fn every_lazy_page_of_the_table_is_found_by_its_route() {
        let named: Vec<Pack> = gpudeck_pages::PAGES
            .iter()
            .filter_map(|page| page.split_prefix())
            .map(|prefix| published(&format!("{prefix}7")))
            .collect();
        let lazy = gpudeck_pages::PAGES.len() - 1;
        assert_eq!(named.len(), lazy);
        assert_eq!(
            route_packs(gpudeck_pages::PAGES, &named).unwrap().len(),
            lazy
        );
    }
}
