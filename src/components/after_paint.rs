//! Work that can wait until the browser has painted what is ready, so that a page's rows
//! reach the screen before counters and other things nobody reads first (issue 56).

use leptos::prelude::*;
use std::time::Duration;

/// Runs `work` right after the next frame is painted: a timer set from an animation frame
/// callback runs once that frame's paint is done.
pub fn after_the_next_paint(work: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(work, Duration::ZERO));
}
