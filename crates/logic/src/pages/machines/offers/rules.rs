//! What the offer actions will do and did, machine by machine, before any request goes:
//! the preview of "End offers at…" (which rentals N22 (list machine) extends, who still
//! has renters after the new end), of "Unlist…" (N23 (unlist machine) stops new rentals
//! only) and of "List again…" (the kept terms), the checks of each form, the N22 requests
//! built from them, and each machine's result in words. Pure, so it runs under `cargo
//! test`; times are written by the caller's `time`.

use crate::components::words::counted;
use crate::decimal::parse_decimal;
use crate::domain::bulk::Sorted;
use crate::domain::form_problem::optional_field;
use crate::domain::listing::{Listing, RentalsEnd};
use crate::domain::offer_terms::{current_terms, ending_request, shows_terms, terms_sentence};
use gpudeck_wire::listing::DEFAULT_MIN_CHUNK;
use gpudeck_wire::listing::{min_chunk_fits, ListingRefusal, OfferDuration};
use gpudeck_wire::{ListMachineRequest, ListMachineResponse, Machine};

/// One machine's line of a preview: whether a request goes to it, and what it does.
#[derive(Debug, Clone, PartialEq)]
pub struct PreviewLine {
    pub machine_id: i64,
    pub sent: bool,
    pub text: String,
}

/// How one machine's request ended, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferResult {
    pub machine_id: i64,
    pub outcome: ResultKind,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultKind {
    Done,
    /// Not applied (refused, or the re-read after a lost answer shows it was not).
    Refused,
    /// Sent, no answer, and the re-read could not tell.
    Unknown,
}

impl ResultKind {
    /// The list item's class.
    pub fn class(self) -> &'static str {
        match self {
            ResultKind::Done => "ok",
            ResultKind::Refused => "refused",
            ResultKind::Unknown => "unknown",
        }
    }
}

/// Whether two offer end dates are the same instant as N1 (list machines) reports it.
fn same_time(a: f64, b: f64) -> bool {
    (a - b).abs() < 1.0
}

/// `listed until T`, `listed, open-ended` or `not listed`.
pub fn listing_words(machine: &Machine, now: f64, time: &impl Fn(f64) -> String) -> String {
    match Listing::of(machine, now) {
        Listing::NotListed => "not listed".into(),
        Listing::OpenEnded => "listed, open-ended".into(),
        Listing::Until(end) => format!("listed until {}", time(end)),
    }
}

/// What moving the offer end date to `end` does to the machine's running rentals (§1.7,
/// extension): N1 gives only their count and the latest rental end date, and not the
/// prices they locked, so the words say what follows from those and no more.
pub fn extension_words(machine: &Machine, end: f64, time: &impl Fn(f64) -> String) -> String {
    let running = machine.current_rentals_running;
    let others = if running > 1 {
        format!(
            "; any of its rentals that ends before {} is extended to it, unless it locked a \
             lower price",
            time(end)
        )
    } else {
        String::new()
    };
    match RentalsEnd::of(machine) {
        RentalsEnd::NoRentals => "no rental is running, so none is extended".into(),
        RentalsEnd::NoEndDate => format!(
            "{} no end date; {} when the renter stops it",
            if running > 1 {
                "its rentals have"
            } else {
                "its rental has"
            },
            if running > 1 { "each ends" } else { "it ends" }
        ),
        RentalsEnd::At(latest) if latest < end && !same_time(latest, end) => format!(
            "extends its {} that {} before {} (latest now ends at {}) to {}, unless a rental \
             locked a lower price",
            if running > 1 { "rentals" } else { "rental" },
            if running > 1 { "end" } else { "ends" },
            time(end),
            time(latest),
            time(end)
        ),
        RentalsEnd::At(latest) if same_time(latest, end) => {
            format!("its latest rental ends at {} too{others}", time(end))
        }
        RentalsEnd::At(latest) => format!(
            "still has renters after {} (until {}){others}",
            time(end),
            time(latest)
        ),
    }
}

/// "End offers at…": one line per machine. A machine that is not listed is skipped, since
/// N22 on it would list it again.
pub fn end_offers_line(
    machine: &Machine,
    end: f64,
    now: f64,
    time: &impl Fn(f64) -> String,
) -> PreviewLine {
    let listing = Listing::of(machine, now);
    let text = if listing == Listing::NotListed {
        "skipped: not listed. Setting an offer end date would list it again; List again… \
         does that."
            .to_owned()
    } else {
        format!(
            "{}; the offer ends at {}; {}. {}.",
            capitalised(&listing_words(machine, now, time)),
            time(end),
            extension_words(machine, end, time),
            terms_sentence(machine, &[])
        )
    };
    PreviewLine {
        machine_id: machine.id,
        sent: listing != Listing::NotListed,
        text,
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// What goes when "End offers at…" is confirmed: the end date and one N22 body per listed
/// machine, with every term N1 gives.
#[derive(Debug, Clone, PartialEq)]
pub struct EndOffersPlan {
    pub end: f64,
    pub requests: Vec<(i64, ListMachineRequest)>,
    /// Machines left out, not listed.
    pub skipped: Vec<i64>,
}

/// Checks the "End offers at…" form: machines selected, a time given and later than now
/// (N22's own rule), and at least one listed machine.
pub fn check_end_offers(
    machines: &[Machine],
    end: Option<f64>,
    now: f64,
) -> Result<EndOffersPlan, String> {
    if machines.is_empty() {
        return Err("Select the machines in the table first.".into());
    }
    let end = end.ok_or("Enter the date and time the offers end.")?;
    if let Err(refusal) = ending_request(&machines[0], end).validate(now) {
        return Err(end_refusal_words(refusal));
    }
    let (listed, skipped): (Vec<&Machine>, Vec<&Machine>) = machines
        .iter()
        .partition(|m| Listing::of(m, now) != Listing::NotListed);
    if listed.is_empty() {
        return Err(
            "None of the selected machines is listed, so there is no offer to end. List \
             again… lists them."
                .into(),
        );
    }
    Ok(EndOffersPlan {
        end,
        requests: listed
            .iter()
            .map(|m| (m.id, ending_request(m, end)))
            .collect(),
        skipped: skipped.iter().map(|m| m.id).collect(),
    })
}

fn end_refusal_words(refusal: ListingRefusal) -> String {
    match refusal {
        ListingRefusal::EndDatePast => "The offer end must be later than now.".into(),
        ListingRefusal::EndDateAndDuration => {
            "Give an offer end date or a rolling duration, not both.".into()
        }
        other => format!("Not sent: {other}."),
    }
}

/// "Unlist…": every machine is sent (N23 changes nothing on one already unlisted, and says
/// so); the line says who still has renters and until when.
pub fn unlist_line(machine: &Machine, now: f64, time: &impl Fn(f64) -> String) -> PreviewLine {
    let rentals = match RentalsEnd::of(machine) {
        RentalsEnd::NoRentals => "no rental is running".to_owned(),
        RentalsEnd::At(end) => format!(
            "still has renters until {}: they go on to their end",
            time(end)
        ),
        RentalsEnd::NoEndDate => {
            "a rental has no end date: it goes on until its renter stops it".to_owned()
        }
    };
    let text = match Listing::of(machine, now) {
        Listing::NotListed => {
            format!("already unlisted (unlisting again changes nothing); {rentals}.")
        }
        _ if RentalsEnd::of(machine) == RentalsEnd::NoRentals => format!(
            "{}; {rentals}: once unlisted it is ready for maintenance.",
            capitalised(&listing_words(machine, now, time))
        ),
        _ => format!(
            "{}; unlisting stops new rentals only; {rentals}.",
            capitalised(&listing_words(machine, now, time))
        ),
    };
    PreviewLine {
        machine_id: machine.id,
        sent: true,
        text,
    }
}

/// A rolling offer's unit, as the form offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DurationUnit {
    Days,
    Weeks,
}

impl DurationUnit {
    pub fn key(self) -> &'static str {
        match self {
            DurationUnit::Days => "days",
            DurationUnit::Weeks => "weeks",
        }
    }

    pub fn from_key(key: &str) -> Self {
        if key == "weeks" {
            DurationUnit::Weeks
        } else {
            DurationUnit::Days
        }
    }
}

/// The "List again…" form as typed; `end` is the end date field read as a time (`None`
/// when empty or incomplete, `end_given` telling which).
#[derive(Debug, Clone, PartialEq)]
pub struct RelistForm {
    pub end: Option<f64>,
    pub end_given: bool,
    pub duration: String,
    pub unit: DurationUnit,
    pub price: String,
    pub min_chunk: String,
}

impl RelistForm {
    /// Nothing typed: each machine listed again on the terms N1 gives, a machine not
    /// listed open-ended (after maintenance, the one step back on the market).
    pub fn as_kept() -> Self {
        RelistForm {
            end: None,
            end_given: false,
            duration: String::new(),
            unit: DurationUnit::Days,
            price: String::new(),
            min_chunk: String::new(),
        }
    }
}

/// The form's fields, for placing each error next to its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelistField {
    Machines,
    End,
    Duration,
    Price,
    MinChunk,
}

/// How the new offer ends.
#[derive(Debug, Clone, PartialEq)]
pub enum NewEnd {
    /// No end date and no duration on a machine that is not listed (or listed open-ended):
    /// listed until unlisted.
    OpenEnded,
    Date(f64),
    /// `N days` or `N weeks`, as N22 takes it.
    Rolling(String),
    /// No end date and no duration on a machine listed until this time: N22 keeps its offer
    /// end date (or its rolling length), and only unlisting clears it.
    Kept(f64),
}

impl NewEnd {
    /// How the offer ends on `machine` at `now`, the form's end being `self`.
    pub fn on(&self, machine: &Machine, now: f64) -> NewEnd {
        match (self, Listing::of(machine, now)) {
            (NewEnd::OpenEnded, Listing::Until(end)) => NewEnd::Kept(end),
            (end, _) => end.clone(),
        }
    }
}

/// What "List again…" changes on every machine; `None` keeps the machine's own.
#[derive(Debug, Clone, PartialEq)]
pub struct RelistTerms {
    pub end: NewEnd,
    pub price_gpu: Option<f64>,
    pub min_chunk: Option<i64>,
}

/// What goes when "List again…" is confirmed: one N22 body per machine.
#[derive(Debug, Clone, PartialEq)]
pub struct RelistPlan {
    pub terms: RelistTerms,
    pub requests: Vec<RelistRequest>,
}

impl RelistPlan {
    /// Machine `id`'s request, if the plan has one.
    pub fn sent_to(&self, id: i64) -> Option<&RelistRequest> {
        self.requests.iter().find(|r| r.machine_id == id)
    }
}

/// One machine's N22 of a "List again…", and how its offer ends by it.
#[derive(Debug, Clone, PartialEq)]
pub struct RelistRequest {
    pub machine_id: i64,
    pub end: NewEnd,
    pub request: ListMachineRequest,
}

type Problems = Vec<(RelistField, String)>;

/// Reads the form's fields into terms, N22's rules judged by `ListMachineRequest::validate`
/// (the wire crate's one definition) and `min_chunk_fits` against every machine.
fn relist_terms(
    machines: &[Machine],
    form: &RelistForm,
    now: f64,
) -> Result<RelistTerms, Problems> {
    let mut problems = Problems::new();
    if form.end_given && form.end.is_none() {
        problems.push((
            RelistField::End,
            "Enter a whole date and time, or nothing.".into(),
        ));
    }
    let duration = match optional_field(&form.duration, str::parse::<u32>) {
        Ok(None) => None,
        Ok(Some(n)) if n > 0 => Some(format!("{n} {}", form.unit.key())),
        _ => {
            problems.push((
                RelistField::Duration,
                "The rolling duration must be a whole number above 0.".into(),
            ));
            None
        }
    };
    let price = optional_field(&form.price, |t| parse_decimal(t).ok_or(())).unwrap_or_else(|()| {
        problems.push((
            RelistField::Price,
            "The price must be a number, like 0.45.".into(),
        ));
        None
    });
    let min_chunk = optional_field(&form.min_chunk, str::parse::<i64>).unwrap_or_else(|_| {
        problems.push((
            RelistField::MinChunk,
            "The minimum GPUs must be a whole number, like 2.".into(),
        ));
        None
    });
    let request = ListMachineRequest {
        end_date: form.end.map(Into::into),
        duration: duration.clone().map(|d| OfferDuration::Text(d).into()),
        price_gpu: price.map(Into::into),
        ..ListMachineRequest::new(1)
    };
    if let Err(refusal) = request.validate(now) {
        problems.push(match refusal {
            ListingRefusal::Negative(_) => {
                (RelistField::Price, "The price must be 0 or more.".into())
            }
            ListingRefusal::EndDateAndDuration => {
                (RelistField::Duration, end_refusal_words(refusal))
            }
            ListingRefusal::Duration => (
                RelistField::Duration,
                "The rolling duration is too long.".into(),
            ),
            other => (RelistField::End, end_refusal_words(other)),
        });
    }
    if let Some(chunk) = min_chunk {
        let misfits: Vec<String> = machines
            .iter()
            .filter(|m| !min_chunk_fits(chunk, m.num_gpus))
            .map(|m| format!("{} ({} GPUs)", m.id, m.num_gpus))
            .collect();
        if !misfits.is_empty() {
            problems.push((
                RelistField::MinChunk,
                format!(
                    "The minimum GPUs must be 1 or a power of two up to the machine's GPUs; \
                     {chunk} does not fit machine {}.",
                    misfits.join(", ")
                ),
            ));
        }
    }
    if price.is_none() {
        let unpriced: Vec<String> = machines
            .iter()
            .filter(|m| m.listed_gpu_cost.is_none())
            .map(|m| m.id.to_string())
            .collect();
        if !unpriced.is_empty() {
            problems.push((
                RelistField::Price,
                format!(
                    "Machine {} has no price kept: give an on-demand price.",
                    unpriced.join(", ")
                ),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let end = match (form.end, duration) {
        (Some(end), _) => NewEnd::Date(end),
        (None, Some(duration)) => NewEnd::Rolling(duration),
        (None, None) => NewEnd::OpenEnded,
    };
    Ok(RelistTerms {
        end,
        price_gpu: price,
        min_chunk,
    })
}

/// Checks the "List again…" form and builds each machine's N22 body.
pub fn check_relist(
    machines: &[Machine],
    form: &RelistForm,
    now: f64,
) -> Result<RelistPlan, Problems> {
    if machines.is_empty() {
        return Err(vec![(
            RelistField::Machines,
            "Select the machines in the table first.".into(),
        )]);
    }
    let terms = relist_terms(machines, form, now)?;
    let requests = machines
        .iter()
        .map(|m| RelistRequest {
            machine_id: m.id,
            end: terms.end.on(m, now),
            request: relist_request(m, &terms),
        })
        .collect();
    Ok(RelistPlan { terms, requests })
}

/// The N22 body for `machine`: every term N1 gives at its current value (§1.3 rule 8), the
/// new end, and the price and minimum given in the form.
pub fn relist_request(machine: &Machine, terms: &RelistTerms) -> ListMachineRequest {
    let kept = current_terms(machine);
    let (end_date, duration) = match &terms.end {
        NewEnd::OpenEnded | NewEnd::Kept(_) => (None, None),
        NewEnd::Date(end) => (Some((*end).into()), None),
        NewEnd::Rolling(text) => (None, Some(OfferDuration::Text(text.clone()).into())),
    };
    ListMachineRequest {
        price_gpu: terms.price_gpu.map(Into::into).or(kept.price_gpu.clone()),
        min_chunk: terms
            .min_chunk
            .map(|c| gpudeck_wire::Whole(c).into())
            .or(kept.min_chunk.clone()),
        end_date,
        duration,
        ..kept
    }
}

/// `$0.40/GPU-hour`.
pub fn price_words(price: f64) -> String {
    format!("${price:.2}/GPU-hour")
}

/// `until T`, `rolling, 2 weeks ahead`, `open-ended`, `until T (its offer end kept)`.
fn new_end_words(end: &NewEnd, time: &impl Fn(f64) -> String) -> String {
    match end {
        NewEnd::OpenEnded => "open-ended (no offer end date)".into(),
        NewEnd::Date(end) => format!("until {}", time(*end)),
        NewEnd::Rolling(duration) => format!("rolling, always {duration} ahead"),
        NewEnd::Kept(end) => format!(
            "until {} (its offer end is kept: with no end given, only unlisting first makes \
             it open-ended)",
            time(*end)
        ),
    }
}

/// "List again…": the machine's kept terms, what changes, and the rentals a later offer
/// end date extends.
pub fn relist_line(
    machine: &Machine,
    terms: &RelistTerms,
    now: f64,
    time: &impl Fn(f64) -> String,
) -> PreviewLine {
    let price = match (terms.price_gpu, machine.listed_gpu_cost) {
        (Some(new), Some(kept)) if (new - kept).abs() > 1e-9 => {
            format!("{} (was {})", price_words(new), price_words(kept))
        }
        (Some(new), None) => format!("{} (new)", price_words(new)),
        (_, Some(kept)) => format!("{} (kept)", price_words(kept)),
        (None, None) => "no price".into(),
    };
    let chunk = match (terms.min_chunk, machine.listed_min_gpu_count) {
        (Some(new), Some(kept)) if new != kept => {
            format!("at least {new} GPUs a rental (was {kept})")
        }
        (Some(new), None) => format!("at least {} a rental (new)", counted(new, "GPU", "GPUs")),
        (_, Some(kept)) => format!("at least {} a rental (kept)", counted(kept, "GPU", "GPUs")),
        (None, None) => format!(
            "at least {} a rental (the machine list gives no minimum, so {DEFAULT_MIN_CHUNK} \
             is sent)",
            counted(DEFAULT_MIN_CHUNK, "GPU", "GPUs")
        ),
    };
    let mut changed = vec!["minimum GPUs"];
    if terms.price_gpu.is_some() {
        changed.push("on-demand price");
    }
    let before = match Listing::of(machine, now) {
        Listing::NotListed => "Not listed now".to_owned(),
        _ => format!(
            "Already {}: its offer changes",
            listing_words(machine, now, time)
        ),
    };
    let end = terms.end.on(machine, now);
    let extends = match &end {
        NewEnd::Date(end) => format!("; {}", extension_words(machine, *end, time)),
        NewEnd::Rolling(_) if machine.current_rentals_running > 0 => {
            "; its rentals that end before the rolling end date are extended to it, unless \
             one locked a lower price"
                .into()
        }
        _ => String::new(),
    };
    PreviewLine {
        machine_id: machine.id,
        sent: true,
        text: format!(
            "{before}. Listed {}, {price}, {chunk}{extends}. {}.",
            new_end_words(&end, time),
            terms_sentence(machine, &changed)
        ),
    }
}

/// `extended 2 contracts to T`, that none was, or that the answer did not say (§1.3 rule 9).
pub fn extended_words(extended: Option<i64>, to: &str) -> String {
    match extended {
        None => "the service did not say how many rentals it extended".into(),
        Some(0) => "no contract extended".into(),
        Some(n) => format!("extended {} to {to}", counted(n, "contract", "contracts")),
    }
}

/// The machine as the re-read (N1) after a lost answer shows it.
#[derive(Debug, Clone, Copy)]
pub enum Reread<'a> {
    Shows(&'a Machine),
    /// The re-read does not have it.
    Missing,
    /// The re-read failed too, or was not needed.
    Failed,
}

/// What a re-read shows of a request whose outcome was unknown, in words: `it unlisted`.
enum Shown {
    /// The change made.
    Applied(String),
    /// The machine as it was: the change was not made.
    NotApplied(String),
    /// Neither for sure: not every term sent, say.
    Unclear(String),
}

/// One machine's result: its answer, its refusal, or when the answer did not say, what
/// the re-read shows (`judge` tells).
fn settled<T>(
    machine_id: i64,
    sorted: Sorted<T>,
    done: impl FnOnce(T) -> String,
    reread: Reread<'_>,
    judge: impl FnOnce(&Machine) -> Shown,
) -> OfferResult {
    let (outcome, text) = match (sorted, reread) {
        (Sorted::Done(answer), _) => (ResultKind::Done, done(answer)),
        (Sorted::Refused(why), _) => (ResultKind::Refused, format!("not changed: {why}")),
        (Sorted::Unknown(why), Reread::Shows(machine)) => match judge(machine) {
            Shown::Applied(shown) => (
                ResultKind::Done,
                format!("{why}, but the re-read shows {shown}: done"),
            ),
            Shown::NotApplied(shown) => (
                ResultKind::Refused,
                format!("{why}, and the re-read shows {shown}: not changed"),
            ),
            Shown::Unclear(shown) => (
                ResultKind::Unknown,
                format!(
                    "{why}, and the re-read shows {shown}: it may not have changed; reload to see"
                ),
            ),
        },
        (Sorted::Unknown(why), Reread::Missing) => (
            ResultKind::Unknown,
            format!("{why}, and the re-read does not show this machine"),
        ),
        (Sorted::Unknown(why), Reread::Failed) => (
            ResultKind::Unknown,
            format!("{why} and the re-read failed: it may have changed; reload to see"),
        ),
    };
    OfferResult {
        machine_id,
        outcome,
        text,
    }
}

/// "End offers at…": the server's count of extended contracts, its refusal, or the re-read.
pub fn end_offer_result(
    machine_id: i64,
    end: f64,
    request: &ListMachineRequest,
    sorted: Sorted<ListMachineResponse>,
    reread: Reread<'_>,
    now: f64,
    time: &impl Fn(f64) -> String,
) -> OfferResult {
    let to = time(end);
    settled(
        machine_id,
        sorted,
        |answer| {
            format!(
                "the offer ends at {to}; {}",
                extended_words(answer.extended, &to)
            )
        },
        reread,
        |m| {
            let ends = m.listed && m.end_date.is_some_and(|at| same_time(at, end));
            let listing = listing_words(m, now, time);
            match (ends, shows_terms(m, request)) {
                (true, true) => Shown::Applied(format!("the offer ending at {to}")),
                (true, false) => Shown::Unclear(format!("it {listing}, not with the terms sent")),
                (false, _) => Shown::NotApplied(format!("it {listing}")),
            }
        },
    )
}

/// "Unlist…": unlisted, with the rentals that go on; or its refusal, or the re-read.
pub fn unlist_result(
    machine: &Machine,
    sorted: Sorted<()>,
    reread: Reread<'_>,
    now: f64,
    time: &impl Fn(f64) -> String,
) -> OfferResult {
    let rentals = match RentalsEnd::of(machine) {
        RentalsEnd::NoRentals => "no rental is running: ready for maintenance".to_owned(),
        RentalsEnd::At(end) => format!("its rentals go on until {}", time(end)),
        RentalsEnd::NoEndDate => "a rental with no end date goes on".to_owned(),
    };
    settled(
        machine.id,
        sorted,
        |()| format!("unlisted; {rentals}"),
        reread,
        |m| match m.listed {
            false => Shown::Applied("it unlisted".into()),
            true => Shown::NotApplied(format!("it {}", listing_words(m, now, time))),
        },
    )
}

/// "List again…": listed again, with the contracts a later end date extended; after an
/// answer that did not say, done only when the re-read shows the terms sent.
pub fn relist_result(
    sent: &RelistRequest,
    sorted: Sorted<ListMachineResponse>,
    reread: Reread<'_>,
    now: f64,
    time: &impl Fn(f64) -> String,
) -> OfferResult {
    let end = new_end_words(&sent.end, time);
    let to = match &sent.end {
        NewEnd::Date(at) => time(*at),
        _ => "the offer end date".into(),
    };
    settled(
        sent.machine_id,
        sorted,
        |answer| format!("listed {end}; {}", extended_words(answer.extended, &to)),
        reread,
        |m| {
            let listing = listing_words(m, now, time);
            let ends_as_sent = match &sent.end {
                NewEnd::OpenEnded => m.end_date.is_none(),
                NewEnd::Date(at) => m.end_date.is_some_and(|shown| same_time(shown, *at)),
                NewEnd::Rolling(_) | NewEnd::Kept(_) => m.end_date.is_some(),
            };
            match Listing::of(m, now) {
                Listing::NotListed => Shown::NotApplied(format!("it {listing}")),
                _ if ends_as_sent && shows_terms(m, &sent.request) => {
                    Shown::Applied(format!("it {listing} with the terms sent"))
                }
                _ => Shown::Unclear(format!("it {listing}, not with the terms sent")),
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_800_000_000.0;
    use gpudeck_wire::maintenance::HOUR;
    const DAY: f64 = 24.0 * HOUR;

    fn time(at: f64) -> String {
        format!("+{}h", (at - NOW) / HOUR)
    }

    use crate::domain::listing::fixture::listed_machine as machine;

    /// What the previews add for the fixture's machines, whose N1 gives the on-demand
    /// price, the floor and the minimum only.
    const UNSENT: &str = "Its other terms are sent as listed; the machine list gives no \
        storage price, upload price, download price, credit discount, volume size and volume \
        price: the service keeps or resets them.";

    #[test]
    fn a_later_end_extends_rentals_that_end_before_it_unless_priced_lower() {
        let rented = machine(1, true, Some(NOW + 72.0 * HOUR), 3, Some(NOW + 9.0 * HOUR));
        let line = end_offers_line(&rented, NOW + 96.0 * HOUR, NOW, &time);
        assert!(line.sent);
        assert_eq!(
            line.text,
            format!(
                "Listed until +72h; the offer ends at +96h; extends its rentals that end \
                 before +96h (latest now ends at +9h) to +96h, unless a rental locked a lower \
                 price. {UNSENT}"
            )
        );
        let one = machine(2, true, None, 1, Some(NOW + 5.0 * HOUR));
        assert_eq!(
            extension_words(&one, NOW + 10.0 * HOUR, &time),
            "extends its rental that ends before +10h (latest now ends at +5h) to +10h, \
             unless a rental locked a lower price"
        );
    }

    #[test]
    fn an_earlier_end_leaves_renters_after_it_and_says_until_when() {
        let one = machine(1, true, None, 1, Some(NOW + 48.0 * HOUR));
        assert_eq!(
            extension_words(&one, NOW + 24.0 * HOUR, &time),
            "still has renters after +24h (until +48h)"
        );
        // With more rentals, one of them may end before the new end and be extended.
        let three = machine(1, true, None, 3, Some(NOW + 48.0 * HOUR));
        assert_eq!(
            extension_words(&three, NOW + 24.0 * HOUR, &time),
            "still has renters after +24h (until +48h); any of its rentals that ends before \
             +24h is extended to it, unless it locked a lower price"
        );
        assert_eq!(
            extension_words(&one, NOW + 48.0 * HOUR, &time),
            "its latest rental ends at +48h too"
        );
    }

    #[test]
    fn rentals_without_an_end_date_or_none_running_are_said_as_such() {
        let endless = machine(1, true, None, 2, None);
        assert_eq!(
            extension_words(&endless, NOW + DAY, &time),
            "its rentals have no end date; each ends when the renter stops it"
        );
        let one = machine(1, true, None, 1, None);
        assert_eq!(
            extension_words(&one, NOW + DAY, &time),
            "its rental has no end date; it ends when the renter stops it"
        );
        let idle = machine(1, true, Some(NOW + DAY), 0, None);
        assert_eq!(
            extension_words(&idle, NOW + 2.0 * DAY, &time),
            "no rental is running, so none is extended"
        );
    }

    #[test]
    fn machines_not_listed_are_skipped_with_their_reason() {
        let unlisted = machine(1004, false, None, 1, Some(NOW + DAY));
        let expired = machine(1005, true, Some(NOW - 1.0), 0, None);
        for m in [&unlisted, &expired] {
            let line = end_offers_line(m, NOW + 2.0 * DAY, NOW, &time);
            assert!(!line.sent);
            assert_eq!(
                line.text,
                "skipped: not listed. Setting an offer end date would list it again; List \
                 again… does that."
            );
        }
        let listed = machine(1001, true, None, 0, None);
        let plan =
            check_end_offers(&[listed.clone(), unlisted.clone()], Some(NOW + DAY), NOW).unwrap();
        assert_eq!(plan.requests, [(1001, ending_request(&listed, NOW + DAY))]);
        assert_eq!(plan.skipped, [1004]);
        assert_eq!(
            check_end_offers(&[unlisted], Some(NOW + DAY), NOW).unwrap_err(),
            "None of the selected machines is listed, so there is no offer to end. List \
             again… lists them."
        );
    }

    #[test]
    fn the_end_offers_form_refuses_a_past_time_no_time_and_no_machine() {
        let listed = machine(1001, true, None, 0, None);
        assert_eq!(
            check_end_offers(std::slice::from_ref(&listed), Some(NOW - 60.0), NOW).unwrap_err(),
            "The offer end must be later than now."
        );
        assert_eq!(
            check_end_offers(std::slice::from_ref(&listed), Some(NOW), NOW).unwrap_err(),
            "The offer end must be later than now."
        );
        assert_eq!(
            check_end_offers(std::slice::from_ref(&listed), None, NOW).unwrap_err(),
            "Enter the date and time the offers end."
        );
        assert_eq!(
            check_end_offers(&[], Some(NOW + DAY), NOW).unwrap_err(),
            "Select the machines in the table first."
        );
    }

    #[test]
    fn ending_an_offer_sends_its_end_date_and_every_term_the_machine_list_gives() {
        let listed = machine(1001, true, None, 0, None);
        let plan = check_end_offers(std::slice::from_ref(&listed), Some(NOW + DAY), NOW).unwrap();
        let body = serde_json::to_value(&plan.requests[0].1).unwrap();
        assert_eq!(body["machine"], 1001);
        assert_eq!(body["end_date"], NOW + DAY);
        assert_eq!(body["price_gpu"], 0.4);
        assert_eq!(body["price_min_bid"], 0.2);
        assert_eq!(body["min_chunk"], 1);
    }

    #[test]
    fn unlisting_says_who_still_has_renters_and_who_is_already_unlisted() {
        let rented = machine(1, true, Some(NOW + DAY), 2, Some(NOW + 10.0 * HOUR));
        assert_eq!(
            unlist_line(&rented, NOW, &time).text,
            "Listed until +24h; unlisting stops new rentals only; still has renters until \
             +10h: they go on to their end."
        );
        let idle = machine(2, true, None, 0, None);
        assert_eq!(
            unlist_line(&idle, NOW, &time).text,
            "Listed, open-ended; no rental is running: once unlisted it is ready for \
             maintenance."
        );
        let withdrawn = machine(3, false, None, 1, Some(NOW + DAY));
        let line = unlist_line(&withdrawn, NOW, &time);
        assert!(line.sent);
        assert_eq!(
            line.text,
            "already unlisted (unlisting again changes nothing); still has renters until \
             +24h: they go on to their end."
        );
        let endless = machine(4, true, None, 1, None);
        assert!(unlist_line(&endless, NOW, &time)
            .text
            .ends_with("a rental has no end date: it goes on until its renter stops it."));
    }

    fn form() -> RelistForm {
        RelistForm {
            end: None,
            end_given: false,
            duration: String::new(),
            unit: DurationUnit::Days,
            price: String::new(),
            min_chunk: String::new(),
        }
    }

    #[test]
    fn listing_again_sends_every_term_with_the_changes_and_never_a_null_minimum() {
        let withdrawn = machine(1004, false, None, 1, Some(NOW + DAY));
        let plan = check_relist(
            std::slice::from_ref(&withdrawn),
            &RelistForm {
                end: Some(NOW + 3.0 * DAY),
                end_given: true,
                price: "0.40".into(),
                min_chunk: "1".into(),
                ..form()
            },
            NOW,
        )
        .unwrap();
        let body = serde_json::to_value(&plan.requests[0].request).unwrap();
        // The kept price, floor and minimum are sent as N1 gives them (§1.3 rule 8).
        assert_eq!(body["price_gpu"], 0.4);
        assert_eq!(body["price_min_bid"], 0.2);
        assert_eq!(body["min_chunk"], 1);
        assert_eq!(body["end_date"], NOW + 3.0 * DAY);
        assert_eq!(body["duration"], serde_json::Value::Null);

        let rolling = check_relist(
            std::slice::from_ref(&withdrawn),
            &RelistForm {
                duration: "2".into(),
                unit: DurationUnit::Weeks,
                price: "0.5".into(),
                min_chunk: "2".into(),
                ..form()
            },
            NOW,
        )
        .unwrap();
        let body = serde_json::to_value(&rolling.requests[0].request).unwrap();
        assert_eq!(body["duration"], "2 weeks");
        assert_eq!(body["end_date"], serde_json::Value::Null);
        assert_eq!(body["price_gpu"], 0.5);
        assert_eq!(body["price_min_bid"], 0.2);
        assert_eq!(body["min_chunk"], 2);
        assert_eq!(
            relist_line(&withdrawn, &rolling.terms, NOW, &time).text,
            format!(
                "Not listed now. Listed rolling, always 2 weeks ahead, $0.50/GPU-hour (was \
                 $0.40/GPU-hour), at least 2 GPUs a rental (was 1); its rentals that end \
                 before the rolling end date are extended to it, unless one locked a lower \
                 price. {UNSENT}"
            )
        );
        let open = check_relist(std::slice::from_ref(&withdrawn), &form(), NOW).unwrap();
        assert_eq!(open.terms.end, NewEnd::OpenEnded);
        assert_eq!(
            relist_line(&withdrawn, &open.terms, NOW, &time).text,
            format!(
                "Not listed now. Listed open-ended (no offer end date), $0.40/GPU-hour (kept), \
                 at least 1 GPU a rental (kept). {UNSENT}"
            )
        );
    }

    #[test]
    fn a_minimum_the_machine_list_does_not_give_is_sent_as_one_and_said_so() {
        let mut bare = machine(1004, false, None, 0, None);
        bare.listed_min_gpu_count = None;
        let open = check_relist(std::slice::from_ref(&bare), &form(), NOW).unwrap();
        let body = serde_json::to_value(&open.requests[0].request).unwrap();
        assert_eq!(body["min_chunk"], 1);
        assert_eq!(
            relist_line(&bare, &open.terms, NOW, &time).text,
            format!(
                "Not listed now. Listed open-ended (no offer end date), $0.40/GPU-hour (kept), \
                 at least 1 GPU a rental (the machine list gives no minimum, so 1 is sent). \
                 {UNSENT}"
            )
        );
    }

    #[test]
    fn listing_again_with_no_end_keeps_a_listed_offers_end_and_says_so() {
        // N22 with neither an end date nor a duration keeps the offer's end: the preview
        // and the result say that, not "open-ended".
        let listed = machine(1001, true, Some(NOW + 2.0 * DAY), 0, None);
        let plan = check_relist(std::slice::from_ref(&listed), &form(), NOW).unwrap();
        let sent = &plan.requests[0];
        assert_eq!(sent.end, NewEnd::Kept(NOW + 2.0 * DAY));
        let body = serde_json::to_value(&sent.request).unwrap();
        assert_eq!(body["end_date"], serde_json::Value::Null);
        assert_eq!(body["duration"], serde_json::Value::Null);
        let line = relist_line(&listed, &plan.terms, NOW, &time).text;
        assert_eq!(
            line,
            format!(
                "Already listed until +48h: its offer changes. Listed until +48h (its offer \
                 end is kept: with no end given, only unlisting first makes it open-ended), \
                 $0.40/GPU-hour (kept), at least 1 GPU a rental (kept). {UNSENT}"
            )
        );
        let answer = ListMachineResponse {
            success: true,
            extended: Some(0),
            msg: "offer updated".into(),
        };
        let result = relist_result(sent, Sorted::Done(answer), Reread::Failed, NOW, &time);
        assert_eq!(
            result.text,
            "listed until +48h (its offer end is kept: with no end given, only unlisting \
             first makes it open-ended); no contract extended"
        );
        // One listed open-ended stays so, and says so.
        let open = machine(1002, true, None, 0, None);
        let plan = check_relist(std::slice::from_ref(&open), &form(), NOW).unwrap();
        assert_eq!(plan.requests[0].end, NewEnd::OpenEnded);
    }

    #[test]
    fn after_a_lost_answer_listing_again_is_done_only_when_the_reread_shows_the_terms_sent() {
        let withdrawn = machine(1004, false, None, 0, None);
        let plan = check_relist(
            std::slice::from_ref(&withdrawn),
            &RelistForm {
                end: Some(NOW + 3.0 * DAY),
                end_given: true,
                price: "0.5".into(),
                ..form()
            },
            NOW,
        )
        .unwrap();
        let sent = &plan.requests[0];
        let lost = || Sorted::Unknown(crate::domain::bulk::NO_ANSWER.into());
        let result =
            |shown: &Machine| relist_result(sent, lost(), Reread::Shows(shown), NOW, &time);
        // Listed, but at the old price: not the terms sent, so not done.
        let old_price = machine(1004, true, Some(NOW + 3.0 * DAY), 0, None);
        let unclear = result(&old_price);
        assert_eq!(unclear.outcome, ResultKind::Unknown);
        assert_eq!(
            unclear.text,
            "no answer came, and the re-read shows it listed until +72h, not with the terms \
             sent: it may not have changed; reload to see"
        );
        // Listed with another end: not done either.
        let mut other_end = machine(1004, true, Some(NOW + DAY), 0, None);
        other_end.listed_gpu_cost = Some(0.5);
        assert_eq!(result(&other_end).outcome, ResultKind::Unknown);
        let mut as_sent = machine(1004, true, Some(NOW + 3.0 * DAY), 0, None);
        as_sent.listed_gpu_cost = Some(0.5);
        let done = result(&as_sent);
        assert_eq!(done.outcome, ResultKind::Done);
        assert_eq!(
            done.text,
            "no answer came, but the re-read shows it listed until +72h with the terms sent: \
             done"
        );
        let still_unlisted = result(&withdrawn);
        assert_eq!(still_unlisted.outcome, ResultKind::Refused);
        assert_eq!(
            still_unlisted.text,
            "no answer came, and the re-read shows it not listed: not changed"
        );
    }

    #[test]
    fn the_relist_form_names_each_bad_field() {
        let m = machine(1004, false, None, 0, None);
        let problems = |f: RelistForm| check_relist(std::slice::from_ref(&m), &f, NOW).unwrap_err();
        assert_eq!(
            problems(RelistForm {
                end: Some(NOW - 60.0),
                end_given: true,
                ..form()
            }),
            [(
                RelistField::End,
                "The offer end must be later than now.".into()
            )]
        );
        assert_eq!(
            problems(RelistForm {
                end: Some(NOW + DAY),
                end_given: true,
                duration: "3".into(),
                ..form()
            }),
            [(
                RelistField::Duration,
                "Give an offer end date or a rolling duration, not both.".into()
            )]
        );
        assert_eq!(
            problems(RelistForm {
                price: "-0.1".into(),
                ..form()
            }),
            [(RelistField::Price, "The price must be 0 or more.".into())]
        );
        assert_eq!(
            problems(RelistForm {
                min_chunk: "3".into(),
                ..form()
            }),
            [(
                RelistField::MinChunk,
                "The minimum GPUs must be 1 or a power of two up to the machine's GPUs; 3 \
                 does not fit machine 1004 (4 GPUs)."
                    .into()
            )]
        );
        assert_eq!(
            problems(RelistForm {
                min_chunk: "8".into(),
                ..form()
            })[0]
                .0,
            RelistField::MinChunk
        );
        assert_eq!(
            problems(RelistForm {
                duration: "0".into(),
                ..form()
            }),
            [(
                RelistField::Duration,
                "The rolling duration must be a whole number above 0.".into()
            )]
        );
        assert_eq!(
            problems(RelistForm {
                end_given: true,
                ..form()
            }),
            [(
                RelistField::End,
                "Enter a whole date and time, or nothing.".into()
            )]
        );
        assert_eq!(
            check_relist(&[], &form(), NOW).unwrap_err()[0].0,
            RelistField::Machines
        );
        let mut unpriced = m.clone();
        unpriced.listed_gpu_cost = None;
        assert_eq!(
            check_relist(&[unpriced], &form(), NOW).unwrap_err(),
            [(
                RelistField::Price,
                "Machine 1004 has no price kept: give an on-demand price.".into()
            )]
        );
    }

    #[test]
    fn results_say_the_servers_count_its_refusal_or_what_the_reread_shows() {
        let end = NOW + 96.0 * HOUR;
        let answer = |extended| ListMachineResponse {
            success: true,
            extended,
            msg: "offer updated".into(),
        };
        let listed = machine(1001, true, None, 1, None);
        let request = ending_request(&listed, end);
        let result =
            |sorted, reread| end_offer_result(1001, end, &request, sorted, reread, NOW, &time);
        fn lost<T>() -> Sorted<T> {
            Sorted::Unknown(crate::domain::bulk::NO_ANSWER.into())
        }
        assert_eq!(
            result(Sorted::Done(answer(Some(2))), Reread::Failed).text,
            "the offer ends at +96h; extended 2 contracts to +96h"
        );
        assert_eq!(
            result(Sorted::Done(answer(Some(0))), Reread::Failed).text,
            "the offer ends at +96h; no contract extended"
        );
        let refused = result(Sorted::Refused("No such machine id".into()), Reread::Failed);
        assert_eq!(refused.outcome, ResultKind::Refused);
        assert_eq!(refused.text, "not changed: No such machine id");
        let moved = machine(1001, true, Some(end), 1, Some(end));
        let found = result(lost(), Reread::Shows(&moved));
        assert_eq!(found.outcome, ResultKind::Done);
        assert_eq!(
            found.text,
            "no answer came, but the re-read shows the offer ending at +96h: done"
        );
        let unmoved = machine(1001, true, Some(NOW + DAY), 1, None);
        let not = result(lost(), Reread::Shows(&unmoved));
        assert_eq!(not.outcome, ResultKind::Refused);
        assert_eq!(
            not.text,
            "no answer came, and the re-read shows it listed until +24h: not changed"
        );
        assert_eq!(result(lost(), Reread::Failed).outcome, ResultKind::Unknown);

        let rented = machine(1, true, None, 1, Some(NOW + 5.0 * HOUR));
        assert_eq!(
            unlist_result(&rented, Sorted::Done(()), Reread::Failed, NOW, &time).text,
            "unlisted; its rentals go on until +5h"
        );
        let gone = machine(1, false, None, 1, Some(NOW + 5.0 * HOUR));
        assert_eq!(
            unlist_result(&rented, lost(), Reread::Shows(&gone), NOW, &time).text,
            "no answer came, but the re-read shows it unlisted: done"
        );
        let withdrawn = machine(1004, false, None, 1, None);
        let plan = check_relist(
            std::slice::from_ref(&withdrawn),
            &RelistForm {
                end: Some(end),
                end_given: true,
                ..form()
            },
            NOW,
        )
        .unwrap();
        let relisted =
            |sorted| relist_result(&plan.requests[0], sorted, Reread::Failed, NOW, &time);
        assert_eq!(
            relisted(Sorted::Done(answer(Some(1)))).text,
            "listed until +96h; extended 1 contract to +96h"
        );
    }

    #[test]
    fn an_answer_without_extended_is_said_as_not_said_never_as_none() {
        let end = NOW + 96.0 * HOUR;
        let silent = ListMachineResponse {
            success: true,
            extended: None,
            msg: String::new(),
        };
        let listed = machine(1001, true, None, 1, None);
        let ended = end_offer_result(
            1001,
            end,
            &ending_request(&listed, end),
            Sorted::Done(silent.clone()),
            Reread::Failed,
            NOW,
            &time,
        );
        assert_eq!(ended.outcome, ResultKind::Done);
        assert_eq!(
            ended.text,
            "the offer ends at +96h; the service did not say how many rentals it extended"
        );
        let plan = check_relist(std::slice::from_ref(&listed), &form(), NOW).unwrap();
        let relisted = relist_result(
            &plan.requests[0],
            Sorted::Done(silent),
            Reread::Failed,
            NOW,
            &time,
        );
        assert!(
            relisted
                .text
                .ends_with("; the service did not say how many rentals it extended"),
            "{}",
            relisted.text
        );
    }

    #[test]
    fn a_server_failure_or_an_unreadable_answer_is_unknown_and_settled_by_the_reread() {
        let end = NOW + 96.0 * HOUR;
        let listed = machine(1001, true, None, 1, None);
        let request = ending_request(&listed, end);
        for error in [
            crate::api::ApiError::from_response(500, "", r#"{"msg": "boom"}"#),
            crate::api::ApiError::Decode("invalid type: string, expected i64".into()),
        ] {
            let sorted = crate::domain::bulk::sort::<ListMachineResponse>(Err(error)).unwrap();
            let unread = end_offer_result(
                1001,
                end,
                &request,
                sorted.clone(),
                Reread::Failed,
                NOW,
                &time,
            );
            assert_eq!(unread.outcome, ResultKind::Unknown, "{}", unread.text);
            assert!(!unread.text.contains("not changed"), "{}", unread.text);
            let moved = machine(1001, true, Some(end), 1, None);
            let found = end_offer_result(
                1001,
                end,
                &request,
                sorted,
                Reread::Shows(&moved),
                NOW,
                &time,
            );
            assert_eq!(found.outcome, ResultKind::Done, "{}", found.text);
        }
    }
}
