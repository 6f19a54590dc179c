//! Small shared pieces: time display, toasts, the confirm dialog, the error panel, the
//! form field.

use crate::support::*;
use gpudeck::api::ApiError;
use gpudeck::components::confirm::ConfirmDialog;
use gpudeck::components::error_panel::ErrorPanel;
use gpudeck::components::form_field::{FieldGroup, FormField, TextInput, TextKind};
use gpudeck::components::time::{format_absolute, Time};
use gpudeck::components::toasts::{provide_toasts, ToastRegion, Toasts};
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen_test::*;

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
            <p id="now">
                <Time unix_seconds=now />
            </p>
            <p id="then">
                <Time unix_seconds=1_600_000_000.0 />
            </p>
            <p id="again">
                <Time unix_seconds=now />
            </p>
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
        view! { <ToastRegion /> }
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
    page.wait_for_gone(".toast.success").await;
    // News hides like a success, on the same delay: its timer fires in a task of its own,
    // just after the success's, so the two may leave a moment apart.
    page.wait_for_gone(".toast.info").await;
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
            <ConfirmDialog
                open=open
                title="Sure?"
                confirm_label="Yes"
                on_confirm=Callback::new(|_| {})
            >
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
                error=ApiError::Http {
                    status: 503,
                    error: Some("busy".into()),
                    msg: "<i>try later</i>".into(),
                }
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

/// The attribute `name` of the element `selector`, if it has one.
fn attribute(page: &Mounted, selector: &str, name: &str) -> Option<String> {
    page.get(selector).get_attribute(name)
}

#[wasm_bindgen_test]
async fn a_form_field_names_its_control_and_links_hint_and_error() {
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let page = mount(move || {
        view! {
            <FormField id="size" label="Size (GB)" hint="Whole gigabytes." error=error>
                <TextInput kind=TextKind::Whole text=text attr:placeholder="e.g. 10" />
            </FormField>
        }
    });
    assert_eq!(page.text("label[for=size]"), "Size (GB)");
    assert_eq!(attribute(&page, "input", "id").as_deref(), Some("size"));
    assert_eq!(
        attribute(&page, "input", "inputmode").as_deref(),
        Some("numeric")
    );
    assert_eq!(
        attribute(&page, "#size", "aria-describedby").as_deref(),
        Some("size-hint size-error")
    );
    assert_eq!(page.text("#size-hint"), "Whole gigabytes.");
    assert_eq!(
        attribute(&page, "#size", "aria-invalid").as_deref(),
        Some("false")
    );
    assert_eq!(page.text("#size-error"), "");

    page.type_into("#size", "12");
    error.set(Some("The size must fit the offer.".into()));
    settle().await;
    assert_eq!(text.get_untracked(), "12");
    assert_eq!(
        attribute(&page, "#size", "aria-invalid").as_deref(),
        Some("true")
    );
    assert_eq!(
        page.text("#size-error[role=alert]"),
        "The size must fit the offer."
    );

    error.set(None);
    settle().await;
    assert_eq!(
        attribute(&page, "#size", "aria-invalid").as_deref(),
        Some("false")
    );
    assert_eq!(page.text("#size-error"), "");
}

#[wasm_bindgen_test]
async fn a_form_field_wraps_any_control_and_leaves_out_what_it_lacks() {
    let status = RwSignal::new("3 machines".to_owned());
    let error = RwSignal::new(None::<String>);
    let page = mount(move || {
        view! {
            <FormField id="pick" label="Role" label_class="visually-hidden">
                <select>
                    <option value="">"Choose…"</option>
                    <option value="member">"member"</option>
                </select>
            </FormField>
            <FormField
                id="ids"
                label="Machine ids"
                status=move || status.get()
                error=error
                beside=|| view! { <button type="button">"Clear"</button> }
            >
                <textarea rows="2"></textarea>
            </FormField>
            <FormField
                id="start"
                label=view! {
                    "Start "
                    <span class="zone">"(UTC)"</span>
                }
                error=error
            >
                <input type="datetime-local" />
            </FormField>
        }
    });
    // A field that cannot be wrong has no error line and describes nothing.
    assert_eq!(attribute(&page, "select", "id").as_deref(), Some("pick"));
    assert_eq!(
        attribute(&page, "label[for=pick]", "class").as_deref(),
        Some("visually-hidden")
    );
    assert_eq!(attribute(&page, "#pick", "aria-describedby"), None);
    assert_eq!(attribute(&page, "#pick", "aria-invalid"), None);
    assert!(page.find("#pick-error").is_none());

    // A status line instead of a hint, announced as it changes; controls beside the value.
    assert_eq!(attribute(&page, "textarea", "id").as_deref(), Some("ids"));
    assert_eq!(
        attribute(&page, "#ids", "aria-describedby").as_deref(),
        Some("ids-status ids-error")
    );
    assert_eq!(
        attribute(&page, "#ids-status", "aria-live").as_deref(),
        Some("polite")
    );
    assert_eq!(page.text("#ids-status"), "3 machines");
    assert!(page.find("#ids + button").is_some());
    status.set("4 machines".into());
    settle().await;
    assert_eq!(page.text("#ids-status"), "4 machines");

    // A label given as a view; one error signal marks every field it belongs to.
    assert_eq!(page.text("label[for=start]"), "Start (UTC)");
    assert_eq!(
        attribute(&page, "#start", "type").as_deref(),
        Some("datetime-local")
    );
    error.set(Some("Choose a start.".into()));
    settle().await;
    assert_eq!(
        attribute(&page, "#start", "aria-invalid").as_deref(),
        Some("true")
    );
    assert_eq!(
        attribute(&page, "#ids", "aria-invalid").as_deref(),
        Some("true")
    );
    assert_eq!(page.text("#start-error"), "Choose a start.");
}

#[wasm_bindgen_test]
async fn a_field_group_gives_its_hint_and_error_to_every_control_in_it() {
    let error = RwSignal::new(None::<String>);
    let page = mount(move || {
        view! {
            <FieldGroup
                id="limit"
                legend="Limit"
                legend_class="visually-hidden"
                hint="A field, how to compare, and a value."
                error=error
                class="row"
            >
                <FormField id="limit-field" label="Field">
                    <input type="text" />
                </FormField>
                <FormField id="limit-operator" label="Operator">
                    <select>
                        <option value="eq">"equals"</option>
                    </select>
                </FormField>
                <FormField id="limit-value" label="Value" hint="A number.">
                    <input type="text" />
                </FormField>
            </FieldGroup>
            <FormField id="after" label="After the group">
                <input type="text" />
            </FormField>
        }
    });
    // One fieldset named by its legend, with one hint line and one error line.
    assert_eq!(page.text("fieldset.row > legend.visually-hidden"), "Limit");
    assert_eq!(
        page.text("fieldset.row > #limit-hint.hint"),
        "A field, how to compare, and a value."
    );
    assert_eq!(
        attribute(&page, "fieldset.row > #limit-error", "role").as_deref(),
        Some("alert")
    );
    assert_eq!(page.all(".form-error").len(), 1);
    // Each control: its own lines first, then the group's.
    for (control, described_by) in [
        ("#limit-field", "limit-hint limit-error"),
        ("#limit-operator", "limit-hint limit-error"),
        ("#limit-value", "limit-value-hint limit-hint limit-error"),
    ] {
        assert_eq!(
            attribute(&page, control, "aria-describedby").as_deref(),
            Some(described_by),
            "{control}"
        );
        assert_eq!(
            attribute(&page, control, "aria-invalid").as_deref(),
            Some("false"),
            "{control}"
        );
    }

    error.set(Some("equals needs a number.".into()));
    settle().await;
    assert_eq!(page.text("#limit-error"), "equals needs a number.");
    for control in ["#limit-field", "#limit-operator", "#limit-value"] {
        assert_eq!(
            attribute(&page, control, "aria-invalid").as_deref(),
            Some("true"),
            "{control}"
        );
    }
    // A field after the group is not described by it.
    assert_eq!(attribute(&page, "#after", "aria-describedby"), None);
    assert_eq!(attribute(&page, "#after", "aria-invalid"), None);
}
