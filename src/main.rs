//! Entry point of the wasm bundle: mount the console and nothing else.

fn main() {
    leptos::mount::mount_to_body(gpudeck::app::App);
    // In the split build, the other pages' chunks and parts load once this one has painted.
    gpudeck::split::preload_after_first_paint(gpudeck::app::PAGE_PARTS);
}
