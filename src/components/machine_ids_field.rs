//! The machine-ids field and named sets of ids kept in localStorage.
//!
//! Parsing is `gpudeck_wire::parse_machine_ids`, the function the server uses too.

use crate::components::form_field::{FormField, TextInput, TextKind};
use crate::components::words::counted;
use crate::storage::Stored;
use gpudeck_wire::machine_ids::format_machine_ids;
use gpudeck_wire::{parse_machine_ids, MachineIdsError};
use leptos::prelude::*;
use std::collections::BTreeMap;

const SETS_KEY: &str = "gpudeck.machine-sets";

/// What the field holds, parsed.
pub fn parsed(text: &str) -> Result<Vec<i64>, MachineIdsError> {
    parse_machine_ids(text)
}

#[component]
pub fn MachineIdsField(
    /// The text as typed.
    text: RwSignal<String>,
    /// A refusal about these ids (from the server, or "enter some ids"); shown under the field.
    #[prop(into)]
    problem: Signal<Option<String>>,
    #[prop(default = "machine-ids")] id: &'static str,
    /// What the line under the field says once the ids parse, for a page that knows more
    /// about them (which are yours, how they are sent); by default `3 machines`. One line,
    /// so the count is not said twice.
    #[prop(optional, into)]
    count: Option<Signal<String>>,
) -> impl IntoView {
    let parse = Memo::new(move |_| parsed(&text.get()));
    let own_error = move || match parse.get() {
        Err(MachineIdsError::Empty) => None,
        Err(e) => Some(e.to_string()),
        Ok(_) => None,
    };
    let status = move || match parse.get() {
        Ok(ids) => match count {
            Some(count) => count.get(),
            None => counted(ids.len() as i64, "machine", "machines"),
        },
        Err(_) => "Separate ids with commas, spaces or new lines; ranges like 100-110 work too."
            .to_owned(),
    };
    let error = Signal::derive(move || own_error().or_else(|| problem.get()));
    view! {
        <FormField id=id label="Machine ids" status=status error=error class="machine-ids">
            <textarea
                rows="2"
                spellcheck="false"
                autocomplete="off"
                placeholder="e.g. 1001, 1002 1005-1010"
                prop:value=text
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
        </FormField>
    }
}

/// The form of the machines area: the ids field, the saved sets, then the page's own
/// actions. Submitting calls `on_ids` with ids that parse; with none it says so under the
/// field, and a bad token is already named by the field.
#[component]
pub fn MachineIdsForm(
    text: RwSignal<String>,
    /// A problem with the ids found elsewhere (the address, the server's refusal).
    #[prop(optional, into)]
    problem: Option<Signal<Option<String>>>,
    on_ids: impl Fn(Vec<i64>) + 'static,
    children: Children,
) -> impl IntoView {
    let nothing_typed = RwSignal::new(None::<String>);
    let shown = Signal::derive(move || {
        nothing_typed
            .get()
            .or_else(|| problem.and_then(|p| p.get()))
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        nothing_typed.set(None);
        match parsed(&text.get_untracked()) {
            Ok(ids) => on_ids(ids),
            Err(MachineIdsError::Empty) => {
                nothing_typed.set(Some("Enter at least one machine id.".into()))
            }
            Err(_) => {}
        }
    };
    view! {
        <form class="ids-form" on:submit=submit novalidate>
            <MachineIdsField text=text problem=shown />
            <SavedSets text=text />
            <div class="form-actions">{children()}</div>
        </form>
    }
}

/// The saved sets: name → ids in compact form (`1001-1010,1042`). Only ids, never keys.
pub fn load_sets() -> BTreeMap<String, String> {
    stored_sets().load().unwrap_or_default()
}

fn store_sets(sets: &BTreeMap<String, String>) {
    stored_sets().save(sets);
}

fn stored_sets() -> Stored<BTreeMap<String, String>> {
    Stored::in_local(SETS_KEY)
}

/// Pick, save and delete named sets of machine ids.
#[component]
pub fn SavedSets(text: RwSignal<String>) -> impl IntoView {
    let sets = RwSignal::new(load_sets());
    let chosen = RwSignal::new(String::new());
    let new_name = RwSignal::new(String::new());
    let message = RwSignal::new(None::<String>);

    let pick = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if let Some(ids) = sets.with(|s| s.get(&name).cloned()) {
            text.set(ids);
        }
        chosen.set(name);
    };
    let save = move |_| {
        let name = new_name.get_untracked().trim().to_owned();
        match (name.is_empty(), parsed(&text.get_untracked())) {
            (true, _) => message.set(Some("Name the set first.".into())),
            (false, Err(e)) => message.set(Some(format!("Nothing saved: {e}"))),
            (false, Ok(ids)) => {
                sets.update(|s| {
                    s.insert(name.clone(), format_machine_ids(&ids));
                });
                sets.with_untracked(store_sets);
                chosen.set(name.clone());
                new_name.set(String::new());
                message.set(Some(format!("Saved \"{name}\" ({} machines).", ids.len())));
            }
        }
    };
    let delete = move |_| {
        let name = chosen.get_untracked();
        sets.update(|s| {
            s.remove(&name);
        });
        sets.with_untracked(store_sets);
        chosen.set(String::new());
        message.set(Some(format!("Deleted \"{name}\".")));
    };

    let set_list = move || sets.get().into_iter().collect::<Vec<(String, String)>>();
    view! {
        <fieldset class="saved-sets">
            <legend>"Saved sets"</legend>
            <FormField
                id="saved-set-pick"
                label="Saved set"
                label_class="visually-hidden"
                class="field-in-row"
            >
                <select on:change=pick prop:value=chosen>
                    <option value="">"Choose a saved set…"</option>
                    <For each=set_list key=|(name, ids)| format!("{name}={ids}") let:set>
                        <option value=set.0.clone()>{format!("{} ({})", set.0, set.1)}</option>
                    </For>
                </select>
            </FormField>
            <button
                type="button"
                class="button"
                on:click=delete
                disabled=move || chosen.with(String::is_empty)
            >
                "Delete set"
            </button>
            <FormField
                id="saved-set-name"
                label="Name for the current ids"
                label_class="visually-hidden"
                class="field-in-row"
            >
                <TextInput
                    kind=TextKind::Plain
                    text=new_name
                    attr:maxlength="60"
                    attr:placeholder="Name for these ids"
                />
            </FormField>
            <button type="button" class="button" on:click=save>
                "Save set"
            </button>
            <span class="hint" role="status">
                {move || message.get()}
            </span>
        </fieldset>
    }
}
