//! What a team page says when the acting key cannot use it: a personal key outside its
//! own team, or a team key whose role lacks `team_read`/`team_write`, or no team at all.

use crate::api::Refusal;
use crate::components::page_access::OutOfReach;

/// The notice of every team page, for [`crate::components::page::Page`]'s `out_of_reach`.
pub const TEAM_PAGE: OutOfReach = OutOfReach {
    name: "team-out-of-reach",
    heading: "The acting account cannot use this team page",
    advice: "Team pages need a key made in the team's context, whose role allows team_read (to look) or team_write (to change). Act as another key kept in this tab:",
    also: Some(Refusal::NotFound),
};
