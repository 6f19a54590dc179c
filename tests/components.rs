//! Small shared pieces: time display, toasts, the confirm dialog, the error panel.
#![cfg(target_arch = "wasm32")]

mod support;

use gpudeck::api::ApiError;
use gpudeck::components::confirm::ConfirmDialog;
use gpudeck::components::error_panel::ErrorPanel;
use gpudeck::components::time::{format_absolute, Time};
use gpudeck::components::toasts::{provide_toasts, ToastRegion, Toasts};
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use support::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn times_read_naturally() {
    assert_eq!(
        format_absolute(1_800_000_000.0, true),
        "2027-01-15 08:00 UTC"
    );
    assert_eq!(format_absolute(f64::NAN, true), "—");
}

#[wasm_bindgen_test]
async fn a_time_this_year_leaves_out_the_year_and_others_keep_it() {
    let now = js_sys::Date::now() / 1000.0;
    let this_year = js_sys::Date::new_0().get_full_year();
    let page = mount(move || {
        view! {
            <p id="now"><Time unix_seconds=now/></p>
            <p id="then"><Time unix_seconds=1_600_000_000.0/></p>
            <p id="again"><Time unix_seconds=now/></p>
        }
    });
    let shown = page.text("#now time");
    assert!(!shown.starts_with(&format!("{this_year}-")), "{shown}");
    assert_eq!(shown.len(), "11-23 14:05".len(), "{shown}");
    // The second time this year, with the year kept from the first, reads the same.
    assert_eq!(page.text("#again time"), shown);
    assert!(
        page.text("#then time").starts_with("2020-09-1"),
        "{}",
        page.text("#then time")
    );
}

#[wasm_bindgen_test]
async fn toasts_success_and_news_hide_themselves_errors_stay_until_dismissed() {
    let toasts = Rc::new(Cell::new(None::<Toasts>));
    let handle = toasts.clone();
    let page = mount(move || {
        handle.set(Some(provide_toasts()));
        view! { <ToastRegion/> }
    });
    let toasts = toasts.get().unwrap();
    toasts.error("<b>Refused</b>: in use");
    toasts.success("Saved");
    toasts.info("Nothing needed to change");
    settle().await;
    assert_eq!(
        page.get(".toasts").get_attribute("role").as_deref(),
        Some("status")
    );
    assert_eq!(page.all(".toast").len(), 3);
    assert_eq!(
        page.text(".toast.info .toast-text"),
        "Nothing needed to change"
    );
    assert_eq!(
        page.text(".toast.error .toast-text"),
        "<b>Refused</b>: in use"
    );
    assert!(
        page.find(".toast b").is_none(),
        "server text must stay text"
    );
    assert!(
        wait_until(8000, || page.find(".toast.success").is_none()).await,
        "success toasts hide"
    );
    assert!(
        page.find(".toast.info").is_none(),
        "news hides like a success"
    );
    assert_eq!(page.all(".toast.error").len(), 1);
    page.click(".toast.error .toast-close");
    settle().await;
    assert!(page.find(".toast").is_none());
}

#[wasm_bindgen_test]
async fn confirm_dialog_confirms_cancels_and_escapes() {
    let open = RwSignal::new(false);
    let confirmed = RwSignal::new(0);
    let page = mount(move || {
        view! {
            <ConfirmDialog
                open=open
                title="Delete template 5?"
                confirm_label="Delete"
                danger=true
                on_confirm=Callback::new(move |_| confirmed.update(|n| *n += 1))
            >
                <p>"It is removed from your account."</p>
            </ConfirmDialog>
        }
    });
    let dialog = || -> web_sys::HtmlDialogElement {
        wasm_bindgen::JsCast::unchecked_into(page.get("dialog"))
    };
    settle().await;
    assert!(!dialog().open());

    open.set(true);
    settle().await;
    assert!(dialog().open());
    assert_eq!(page.text("dialog h2"), "Delete template 5?");
    let active = document().active_element().unwrap();
    assert_eq!(
        active.text_content().as_deref(),
        Some("Cancel"),
        "focus starts on the safe choice"
    );

    page.click("dialog .button.danger");
    settle().await;
    assert!(!dialog().open());
    assert_eq!(confirmed.get_untracked(), 1);

    open.set(true);
    settle().await;
    page.click("dialog .button:not(.danger)");
    settle().await;
    assert!(!dialog().open() && !open.get_untracked());
    assert_eq!(confirmed.get_untracked(), 1);

    // Escape fires `cancel` on a modal dialog; it closes without confirming.
    open.set(true);
    settle().await;
    dialog()
        .dispatch_event(&web_sys::Event::new("cancel").unwrap())
        .unwrap();
    settle().await;
    assert!(!open.get_untracked());
    assert_eq!(confirmed.get_untracked(), 1);
}

#[wasm_bindgen_test]
async fn confirm_dialog_keeps_focus_inside() {
    let open = RwSignal::new(true);
    let page = mount(move || {
        view! {
            <button id="outside">"outside"</button>
            <ConfirmDialog open=open title="Sure?" confirm_label="Yes" on_confirm=Callback::new(|_| {})>
                <p>"Body"</p>
            </ConfirmDialog>
        }
    });
    settle().await;
    let buttons = page.all("dialog button");
    let last: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(buttons[1].clone());
    last.focus().unwrap();
    let tab = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &{
        let init = web_sys::KeyboardEventInit::new();
        init.set_key("Tab");
        init.set_bubbles(true);
        init.set_cancelable(true);
        init
    })
    .unwrap();
    last.dispatch_event(&tab).unwrap();
    assert_eq!(
        document()
            .active_element()
            .unwrap()
            .text_content()
            .as_deref(),
        Some("Cancel")
    );
}

#[wasm_bindgen_test]
async fn error_panel_shows_status_message_and_retries() {
    let retried = RwSignal::new(0);
    let page = mount(move || {
        view! {
            <ErrorPanel
                error=ApiError::Http { status: 503, error: Some("busy".into()), msg: "<i>try later</i>".into() }
                on_retry=Callback::new(move |_| retried.update(|n| *n += 1))
            />
        }
    });
    settle().await;
    assert_eq!(
        page.get(".error-panel").get_attribute("role").as_deref(),
        Some("alert")
    );
    assert_eq!(
        page.text(".error-heading"),
        "The server refused the request (503, busy)"
    );
    assert_eq!(page.text(".error-message"), "<i>try later</i>");
    page.click(".error-panel button");
    assert_eq!(retried.get_untracked(), 1);
}
