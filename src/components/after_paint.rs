//! Work that can wait until the browser has painted what is ready, so that a page's rows
//! reach the screen before counters and other things nobody reads first (issue 56).

use leptos::prelude::*;
use std::time::Duration;

/// Runs `work` right after the next frame is painted.
pub fn after_the_next_paint(work: impl FnOnce() + 'static) {
    request_animation_frame(move || after_this_frame(work));
}

/// From an animation frame callback: runs `work` once this frame is painted (a timer set
/// during a frame's callbacks runs after its paint).
pub fn after_this_frame(work: impl FnOnce() + 'static) {
    set_timeout(work, Duration::ZERO);
}
