//! The role editor's model, free of the browser: the draft being edited, the checks made
//! before saving, what a save would change, and the role in plain words.

mod checks;
mod diff;
mod draft;
mod summary;

pub use checks::{constraint_problem, name_problem};
pub use diff::RoleDiff;
pub use draft::{ConstraintDraft, Place, RoleDraft, RouteDraft};
pub use summary::{group_words, RoleSummary};
