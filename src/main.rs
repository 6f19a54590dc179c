//! Entry point of the wasm bundle: mount the console and nothing else.

fn main() {
    leptos::mount::mount_to_body(gpudeck::app::App);
}
