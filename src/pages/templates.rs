//! The caller's templates (N9, the caller's template library) in a sortable, filterable
//! table, each deletable from its row (its Actions column), and deletion by id for those
//! who know it; both after a confirmation that explains the soft delete (hidden from lists
//! and searches, kept) and the in-use rule. The ids deleted in this tab are listed.

use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::data_table::{Column, DataTable};
use crate::components::form_field::{parse_positive_whole, FormField, TextInput, TextKind};
use crate::components::narrow_form::NarrowForm;
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, with_loaded, ResourceView};
use crate::components::time::{format_absolute, use_utc, Time};
use crate::components::toasts::use_toasts;
use crate::components::words::said_or;
use crate::session::use_session;
use crate::storage::Stored;
use gpudeck_wire::Template;
use leptos::prelude::*;

/// sessionStorage key (followed by the user id) of the ids deleted in this tab: ids only,
/// per user, so another account signed in later in the same tab does not see them.
const DELETED_KEY_PREFIX: &str = "gpudeck.deleted-templates.";

const PAGE_LEDE: &str = "Your templates, newest changes first. Delete one from its row or by its \
    id; templates other users still rely on are kept until they stop using them.";

/// The template ids `user_id` deleted in this tab, most recent first.
fn deleted_ids(user_id: i64) -> Stored<Vec<i64>> {
    Stored::in_session(format!("{DELETED_KEY_PREFIX}{user_id}"))
}

/// `pytorch/pytorch:2.3.1`.
pub fn image_and_tag(template: &Template) -> String {
    format!("{}:{}", template.image, template.tag)
}

/// How the confirmation names a template: its id, and its name when the list has it.
pub fn template_title(id: i64, known: Option<&Template>) -> String {
    match known {
        Some(t) => format!("Template {id} · {} ({})", t.name, image_and_tag(t)),
        None => format!("Template {id}"),
    }
}

/// Text that a narrow column may cut short, whole in its tooltip.
fn with_tooltip(text: String) -> AnyView {
    let title = text.clone();
    view! { <span title=title>{text}</span> }.into_any()
}

fn template_columns(utc: Signal<bool>, on_delete: Callback<i64>) -> Vec<Column<Template>> {
    let time_text = move |t: f64| format_absolute(t, utc.get_untracked());
    vec![
        Column::text("name", "Name", |t: &Template| t.name.clone())
            .with_cell(|t| with_tooltip(t.name.clone())),
        Column::whole("id", "Id", |t: &Template| t.id),
        Column::text("image", "Image", image_and_tag).with_cell(|t| with_tooltip(image_and_tag(t))),
        Column::number(
            "created",
            "Created",
            |t: &Template| t.created_at,
            move |t| time_text(t.created_at),
        )
        .with_cell(|t| view! { <Time unix_seconds=t.created_at/> }.into_any()),
        Column::number(
            "last_used",
            "Last used",
            |t: &Template| t.recent_create_date.unwrap_or(f64::NEG_INFINITY),
            move |t| {
                t.recent_create_date
                    .map(time_text)
                    .unwrap_or_else(|| "Never".into())
            },
        )
        .with_cell(|t| match t.recent_create_date {
            Some(at) => view! { <Time unix_seconds=at/> }.into_any(),
            None => view! { <span class="muted">"Never"</span> }.into_any(),
        }),
        Column::whole("instances", "Instances created", |t: &Template| {
            t.count_created
        }),
        Column::text("visibility", "Visibility", |t: &Template| {
            if t.private { "Private" } else { "Public" }.to_owned()
        }),
        Column::actions(move |t: &Template| {
            let id = t.id;
            let label = format!("Delete template {id} {}", t.name);
            view! {
                <button type="button" class="button small danger" aria-label=label on:click=move |_| on_delete.run(id)>
                    "Delete…"
                </button>
            }
            .into_any()
        }),
    ]
}

#[component]
pub fn TemplatesPage() -> impl IntoView {
    let session = use_session();
    let toasts = use_toasts();
    let utc = use_utc();
    let user_id = session
        .get_untracked()
        .map(|s| s.user.id)
        .unwrap_or_default();

    let text = RwSignal::new(String::new());
    let input_error = RwSignal::new(None::<String>);
    let deleted = RwSignal::new(deleted_ids(user_id).load().unwrap_or_default());
    let library = use_api_resource(move |api| async move { api.template_library(user_id).await });
    // Whether the deletion asked for came from a row (its refusal shows above the list)
    // or from the id form (next to the field).
    let from_row = RwSignal::new(false);

    let delete = ConfirmedAction::new(
        move |api, template_id: i64| async move { api.delete_template(user_id, template_id).await },
        move |template_id, answer| {
            let message = said_or(answer.msg, format!("Template {template_id} deleted"));
            toasts.success(message.clone());
            text.try_set(String::new());
            deleted.try_update(|ids| {
                ids.retain(|&id| id != template_id);
                ids.insert(0, template_id);
                deleted_ids(user_id).save(ids);
            });
            library.refetch();
            message
        },
    );
    let pending = delete.pending();

    let ask = move || {
        delete.clear();
        match parse_positive_whole("template id", &text.get_untracked()) {
            Ok(id) => {
                input_error.set(None);
                from_row.set(false);
                delete.ask(id);
            }
            Err(problem) => input_error.set(Some(problem)),
        }
    };
    let field_error = Signal::derive(move || {
        input_error
            .get()
            .or_else(|| delete.refusal_where(|_| !from_row.get()))
    });
    let row_refusal = move || {
        let message = delete.refusal_where(|_| from_row.get())?;
        let id = delete.asked()?;
        Some(format!("Template {id} was not deleted: {message}"))
    };
    let ask_from_row = Callback::new(move |id: i64| {
        delete.clear();
        input_error.set(None);
        from_row.set(true);
        delete.ask(id);
    });
    let asked_title = move || {
        let id = delete.asked()?;
        let template = with_loaded(library, |all| all.iter().find(|t| t.id == id).cloned());
        Some(template_title(id, template.flatten().as_ref()))
    };

    view! {
        <Page class="templates" entry=&gpudeck_pages::TEMPLATES lede=PAGE_LEDE>
            <section class="template-library" aria-labelledby="library-heading">
                <h2 id="library-heading">"Your templates"</h2>
                <p class="form-error" role="alert" data-testid="template-refusal">
                    {row_refusal}
                </p>
                {ResourceView::new(library, "Loading your templates…")
                    .with_reload_button()
                    .show(move |templates| {
                        view! {
                            <DataTable
                                rows=templates
                                columns=template_columns(utc.into(), ask_from_row)
                                row_key=|t: &Template| t.id.to_string()
                                empty="You have no templates. Templates are made on the marketplace's site or with its command-line client."
                                csv_name="templates"
                                caption="Your templates"
                            />
                        }
                    })}
            </section>
            <h2>"Delete by id"</h2>
            <NarrowForm on_submit=ask>
                <FormField
                    id="template-id"
                    label="Template id"
                    hint="The number of the template, e.g. 501."
                    error=field_error
                    class="short-field"
                >
                    <TextInput kind=TextKind::Whole text=text />
                </FormField>
                <div class="form-actions">
                    <SubmitButton
                        pending=pending
                        idle="Delete template…"
                        busy="Deleting…"
                        danger=true
                    />
                </div>
            </NarrowForm>
            <ActionDialog
                action=delete
                title="Delete this template?"
                confirm_label="Delete template"
                danger=true
            >
                <p>
                    <strong class="id-list" data-testid="delete-title">
                        {asked_title}
                    </strong>
                </p>
                <p data-testid="soft-delete">
                    "Deleting hides the template from your list of templates and from searches. It is not erased: it is kept, marked as deleted (a soft delete), and instances already made from it keep running."
                </p>
                <p>"While other users still use it, it is kept and the deletion is refused."</p>
            </ActionDialog>
            {delete.failure_view()}
            {move || {
                delete
                    .done()
                    .map(|message| {
                        view! {
                            <div class="result" role="status" data-testid="template-result">
                                <h2>"Deleted"</h2>
                                <p>{message}</p>
                            </div>
                        }
                    })
            }}
            <RecentlyDeleted deleted=deleted />
        </Page>
    }
}

/// The templates deleted in this tab, newest first.
#[component]
fn RecentlyDeleted(deleted: RwSignal<Vec<i64>>) -> impl IntoView {
    view! {
        <section class="recently-deleted" aria-labelledby="recently-deleted-heading">
            <h2 id="recently-deleted-heading">"Deleted in this session"</h2>
            {move || {
                let ids = deleted.get();
                if ids.is_empty() {
                    view! { <p class="muted">"No templates deleted yet in this tab."</p> }
                        .into_any()
                } else {
                    view! {
                        <ul class="id-chips" data-testid="recently-deleted">
                            {ids.into_iter().map(|id| view! { <li>{id}</li> }).collect_view()}
                        </ul>
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
