//! A route table address as the router's path: Leptos' `path!` takes only literals, so
//! the router matches each page's address from the table (`gpudeck_pages`) with this.

use leptos_router::{
    ParamSegment, PartialPathMatch, PathSegment, PossibleRouteMatch, StaticSegment,
};

/// An address such as `/team/roles/:name`: static segments, and `:name` segments that
/// take one segment of the path as the parameter `name`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Address(pub &'static str);

impl Address {
    fn segments(&self) -> impl Iterator<Item = &'static str> {
        self.0.split('/').filter(|segment| !segment.is_empty())
    }
}

impl PossibleRouteMatch for Address {
    fn optional(&self) -> bool {
        false
    }

    /// Matches each segment in turn, as a tuple of `path!`'s segments does.
    fn test<'a>(&self, path: &'a str) -> Option<PartialPathMatch<'a>> {
        let mut remaining = path;
        let mut params = Vec::new();
        for segment in self.segments() {
            let matched = match segment.strip_prefix(':') {
                Some(name) => ParamSegment(name).test(remaining)?,
                None => StaticSegment(segment).test(remaining)?,
            };
            remaining = matched.remaining();
            params.extend(matched.params());
        }
        let matched_len = path.len() - remaining.len();
        Some(PartialPathMatch::new(
            remaining,
            params,
            &path[..matched_len],
        ))
    }

    fn generate_path(&self, path: &mut Vec<PathSegment>) {
        for segment in self.segments() {
            match segment.strip_prefix(':') {
                Some(name) => ParamSegment(name).generate_path(path),
                None => StaticSegment(segment).generate_path(path),
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use leptos_router::path;

    /// The same answers as the `path!` the router had before, for each kind of address.
    #[test]
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

    #[test]
    fn a_parameter_is_named_by_its_segment() {
        let matched = Address("/team/roles/:name/edit")
            .test("/team/roles/owner/edit")
            .expect("matches");
        assert!(matched.is_complete());
        assert_eq!(matched.params(), vec![("name".into(), "owner".to_owned())]);
    }

    #[test]
    fn generates_the_segments_path_would() {
        let mut ours = Vec::new();
        Address("/team/roles/:name").generate_path(&mut ours);
        let mut theirs = Vec::new();
        path!("/team/roles/:name").generate_path(&mut theirs);
        assert_eq!(ours, theirs);
    }
}
