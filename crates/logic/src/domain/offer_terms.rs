//! The terms of a machine's offer as N1 (list machines) gives them, for every N22 (list
//! machine) the console sends (§1.3 rule 8): the public backend applies its own default to
//! a term it is not given and refuses a `null` `min_chunk`, so a request that changes one
//! term sends every other one at its current value. What N1 does not give cannot be sent,
//! and the previews say so instead of promising it is kept.

use crate::components::words::counted;
use gpudeck_wire::lenient::Nullable;
use gpudeck_wire::listing::DEFAULT_MIN_CHUNK;
use gpudeck_wire::{Lenient, ListMachineRequest, Machine, Whole};

/// An N22 body for `machine` carrying every term N1 gives, at its current value, and
/// `min_chunk` from `listed_min_gpu_count` (1, N22's own default, when N1 gives none).
/// The offer's end is left to the caller.
pub fn current_terms(machine: &Machine) -> ListMachineRequest {
    ListMachineRequest {
        price_gpu: machine.listed_gpu_cost.map(Into::into),
        price_min_bid: machine.min_bid_price.map(Into::into),
        price_disk: machine.listed_storage_cost.map(Into::into),
        price_inetu: machine.listed_inet_up_cost.map(Into::into),
        price_inetd: machine.listed_inet_down_cost.map(Into::into),
        credit_discount_max: machine.credit_discount_max.map(Into::into),
        vol_price: machine.listed_volume_cost.map(Into::into),
        min_chunk: Some(Whole(machine.listed_min_gpu_count.unwrap_or(DEFAULT_MIN_CHUNK)).into()),
        ..ListMachineRequest::new(machine.id)
    }
}

/// The N22 body that moves `machine`'s offer end date to `end` and keeps every other term
/// N1 gives.
pub fn ending_request(machine: &Machine, end: f64) -> ListMachineRequest {
    ListMachineRequest {
        end_date: Some(end.into()),
        ..current_terms(machine)
    }
}

/// The terms of the offer N1 does not give for `machine`, in words: a request cannot
/// send them, so the service decides them. N1 never gives the volume size.
pub fn terms_not_given(machine: &Machine) -> Vec<&'static str> {
    [
        (machine.listed_gpu_cost.is_none(), "on-demand price"),
        (machine.min_bid_price.is_none(), "interruptible floor"),
        (machine.listed_storage_cost.is_none(), "storage price"),
        (machine.listed_inet_up_cost.is_none(), "upload price"),
        (machine.listed_inet_down_cost.is_none(), "download price"),
        (machine.credit_discount_max.is_none(), "credit discount"),
        (true, "volume size"),
        (machine.listed_volume_cost.is_none(), "volume price"),
    ]
    .into_iter()
    .filter_map(|(missing, words)| missing.then_some(words))
    .collect()
}

/// What the request sends of the terms it does not change, for a preview line: `Its other
/// terms are sent as listed; the machine list gives no volume size: the service keeps or
/// resets it`. `changed` names the terms the action itself sets, left out here.
pub fn terms_sentence(machine: &Machine, changed: &[&str]) -> String {
    let missing: Vec<&str> = terms_not_given(machine)
        .into_iter()
        .filter(|t| !changed.contains(t))
        .collect();
    let mut sentence = "Its other terms are sent as listed".to_owned();
    if machine.listed_min_gpu_count.is_none() && !changed.contains(&"minimum GPUs") {
        sentence.push_str(&format!(
            "; the machine list gives no minimum GPUs, so {} is sent",
            counted(DEFAULT_MIN_CHUNK, "GPU", "GPUs")
        ));
    }
    if !missing.is_empty() {
        sentence.push_str(&format!(
            "; the machine list gives no {}: the service keeps or resets {}",
            and_list(&missing),
            if missing.len() == 1 { "it" } else { "them" }
        ));
    }
    sentence
}

/// Whether `machine`, as a re-read of N1 shows it, carries every term `request` sent: what
/// settles an N22 whose answer was lost. A term N1 does not give cannot contradict.
pub fn shows_terms(machine: &Machine, request: &ListMachineRequest) -> bool {
    let sent = |term: &Option<Lenient<f64>>| term.as_ref().and_then(|t| t.valid().copied());
    let same = |sent: Option<f64>, shown: Option<f64>| match (sent, shown) {
        (Some(sent), Some(shown)) => (sent - shown).abs() < 1e-9,
        _ => true,
    };
    let chunk = match &request.min_chunk {
        Some(Nullable::Value(Lenient::Valid(Whole(n)))) => Some(*n),
        _ => None,
    };
    same(sent(&request.price_gpu), machine.listed_gpu_cost)
        && same(sent(&request.price_min_bid), machine.min_bid_price)
        && same(sent(&request.price_disk), machine.listed_storage_cost)
        && same(sent(&request.price_inetu), machine.listed_inet_up_cost)
        && same(sent(&request.price_inetd), machine.listed_inet_down_cost)
        && same(
            sent(&request.credit_discount_max),
            machine.credit_discount_max,
        )
        && same(sent(&request.vol_price), machine.listed_volume_cost)
        && match (chunk, machine.listed_min_gpu_count) {
            (Some(sent), Some(shown)) => sent == shown,
            _ => true,
        }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::listing::fixture::{listed_machine, priced_machine};
    use serde_json::{json, Value};

    fn priced() -> Machine {
        priced_machine(1001)
    }

    #[test]
    fn ending_an_offer_sends_every_term_the_machine_list_gives_and_no_null_minimum() {
        let body = serde_json::to_value(ending_request(&priced(), 1.9e9)).unwrap();
        for (key, value) in [
            ("machine", json!(1001)),
            ("end_date", json!(1.9e9)),
            ("price_gpu", json!(0.4)),
            ("price_min_bid", json!(0.2)),
            ("price_disk", json!(0.15)),
            ("price_inetu", json!(0.02)),
            ("price_inetd", json!(0.01)),
            ("credit_discount_max", json!(0.3)),
            ("vol_price", json!(0.08)),
            ("min_chunk", json!(2)),
        ] {
            assert_eq!(body[key], value, "{key}");
        }
        // Not given by N1, so not sent; and never both an end date and a duration.
        assert_eq!(body.get("vol_size").unwrap_or(&Value::Null), &Value::Null);
        assert_eq!(body.get("duration").unwrap_or(&Value::Null), &Value::Null);
        assert_eq!(
            terms_sentence(&priced(), &[]),
            "Its other terms are sent as listed; the machine list gives no volume size: the \
             service keeps or resets it"
        );
    }

    #[test]
    fn a_reread_shows_the_terms_sent_only_when_each_it_gives_matches() {
        let sent = ListMachineRequest {
            price_gpu: Some(0.5.into()),
            ..ending_request(&priced(), 1.9e9)
        };
        let mut shown = priced();
        assert!(
            !shows_terms(&shown, &sent),
            "the old price is not the one sent"
        );
        shown.listed_gpu_cost = Some(0.5);
        assert!(shows_terms(&shown, &sent));
        shown.listed_min_gpu_count = Some(1);
        assert!(
            !shows_terms(&shown, &sent),
            "a minimum other than the one sent"
        );
        shown.listed_min_gpu_count = None;
        assert!(
            shows_terms(&shown, &sent),
            "a term N1 does not give cannot contradict"
        );
    }

    #[test]
    fn a_machine_list_without_a_minimum_sends_one_and_says_so() {
        let mut bare = listed_machine(1002, true, None, 0, None);
        bare.listed_min_gpu_count = None;
        let body = serde_json::to_value(ending_request(&bare, 1.9e9)).unwrap();
        assert_eq!(body["min_chunk"], 1);
        assert_eq!(
            terms_sentence(&bare, &[]),
            "Its other terms are sent as listed; the machine list gives no minimum GPUs, so \
             1 GPU is sent; the machine list gives no storage price, upload price, download \
             price, credit discount, volume size and volume price: the service keeps or \
             resets them"
        );
        assert_eq!(
            terms_sentence(&bare, &["minimum GPUs", "storage price"]),
            "Its other terms are sent as listed; the machine list gives no upload price, \
             download price, credit discount, volume size and volume price: the service \
             keeps or resets them"
        );
    }
}
