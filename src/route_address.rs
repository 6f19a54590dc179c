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
