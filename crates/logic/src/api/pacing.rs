//! Pacing: how often the console sends each operation, so that a rate limit is met by
//! waiting rather than shown as a refusal. The public service keeps each operation of a key
//! to a minimum interval (spec neighbours §1.5) and says so with a 429 that often carries
//! no `Retry-After`, so its table is the console's default. Pure and unit-tested natively;
//! the client (`client.rs`) owns the timers.

use std::cell::Cell;
use std::collections::HashMap;

use gpudeck_wire::operations;
pub use gpudeck_wire::rate_limits::PublicInterval;

/// The wait after a 429 on an operation the table does not know, when no `Retry-After`
/// says how long: the public service's most common interval.
pub const UNLISTED_INTERVAL_SECONDS: f64 = 2.0;

/// Added to every interval: a request's timer may fire late and the next one's on time,
/// so slots spaced exactly would now and then arrive too close and be refused again.
pub const PACE_MARGIN_MS: f64 = 100.0;

/// The API path of `url`: from `/api/` on, without query or fragment, whatever base URL
/// (scheme, host, a prefix) comes before it.
fn api_path(url: &str) -> &str {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    path.find("/api/").map_or(path, |at| &path[at..])
}

/// The public interval of `method` on `url`, if the operation table gives it one.
pub fn public_interval(method: &str, url: &str) -> Option<PublicInterval> {
    PublicInterval::of(operations::of_request(method, api_path(url))?)
}

/// An operation as a rate limit counts it: the method and the path with its numeric
/// segments (machine, member and role ids) as `{id}`, so that every machine's N5 keeps one
/// pace; and its public interval when the table has one.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    pub key: String,
    pub public_seconds: Option<f64>,
}

impl Endpoint {
    pub fn of(method: &str, url: &str) -> Self {
        let path = api_path(url).trim_end_matches('/');
        let segments: Vec<&str> = path
            .split('/')
            .map(|segment| {
                let is_id = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
                if is_id {
                    "{id}"
                } else {
                    segment
                }
            })
            .collect();
        Endpoint {
            key: format!("{method} {}", segments.join("/")),
            public_seconds: public_interval(method, url).map(|i| i.seconds),
        }
    }
}

thread_local! {
    static PUBLIC_PACE_SCALE: Cell<f64> = const { Cell::new(1.0) };
}

/// Multiplies every public interval of the clients made from now on by `factor`. Only for
/// tests of whole pages, which cannot reach the client the page shell builds: they keep
/// the public pace's order and spacing without waiting its seconds.
pub fn scale_public_intervals(factor: f64) {
    PUBLIC_PACE_SCALE.set(factor.max(0.0));
}

pub fn public_pace_scale() -> f64 {
    PUBLIC_PACE_SCALE.get()
}

/// When each endpoint may be sent next. Instants and waits are in milliseconds.
#[derive(Debug)]
pub struct Pacer {
    /// Per endpoint key: the interval kept and the next free slot.
    paces: HashMap<String, Pace>,
    /// Per key of an endpoint the table gives an interval: when it last left, paced or
    /// not, so that a pace begun later counts from it (the service counts every call).
    last_sent_ms: HashMap<String, f64>,
    /// Public intervals are multiplied by this ([`scale_public_intervals`]).
    scale: f64,
}

#[derive(Debug, Clone, Copy)]
struct Pace {
    interval_ms: f64,
    next_slot_ms: f64,
    /// When its last request left ([`Pacer::take_turn`]).
    left_ms: f64,
}

impl Pace {
    fn new(interval_ms: f64, next_slot_ms: f64) -> Self {
        Self {
            interval_ms,
            next_slot_ms,
            left_ms: f64::NEG_INFINITY,
        }
    }
}

impl Default for Pacer {
    fn default() -> Self {
        Self::new(1.0)
    }
}

impl Pacer {
    pub fn new(scale: f64) -> Self {
        Self {
            paces: HashMap::new(),
            last_sent_ms: HashMap::new(),
            scale,
        }
    }

    fn public_ms(&self, endpoint: &Endpoint) -> Option<f64> {
        endpoint.public_seconds.map(|s| s * 1000.0 * self.scale)
    }

    /// Reserves the next slot of `endpoint` and says how many ms from `now` it is. An
    /// endpoint never refused nor asked to keep its pace goes at once.
    pub fn reserve(&mut self, endpoint: &Endpoint, now: f64) -> f64 {
        let slot = match self.paces.get_mut(&endpoint.key) {
            Some(pace) => {
                let slot = now.max(pace.next_slot_ms);
                pace.next_slot_ms = slot + pace.interval_ms;
                slot
            }
            None => now,
        };
        self.note_sent(endpoint, slot);
        slot - now
    }

    /// From now on `endpoint` keeps its public interval, from its very next request (an
    /// interval after its last one): for bulk actions that know they will meet the limit. No change for an endpoint the table
    /// does not list, nor to a pace a server already set.
    pub fn keep_public_pace(&mut self, endpoint: &Endpoint) {
        let Some(public) = self.public_ms(endpoint) else {
            return;
        };
        let interval_ms = public + PACE_MARGIN_MS;
        let next_slot_ms = self
            .last_sent_ms
            .get(&endpoint.key)
            .map_or(f64::NEG_INFINITY, |last| last + interval_ms);
        self.paces
            .entry(endpoint.key.clone())
            .or_insert(Pace::new(interval_ms, next_slot_ms));
    }

    /// Whether a request to `endpoint` sent at `now` would neither wait for its pace nor
    /// come within its public interval of the last one sent: for reads nobody waits for
    /// (the navigation's attention count), which are sent only then.
    pub fn is_free(&self, endpoint: &Endpoint, now: f64) -> bool {
        let slot_free = self
            .paces
            .get(&endpoint.key)
            .is_none_or(|pace| pace.next_slot_ms <= now);
        let interval_past = match (
            self.public_ms(endpoint),
            self.last_sent_ms.get(&endpoint.key),
        ) {
            (Some(public), Some(last)) => now - last >= public + PACE_MARGIN_MS,
            _ => true,
        };
        slot_free && interval_past
    }

    /// A request to `endpoint` was answered at `now`: a kept pace's next slot is at least
    /// an interval after it. The service counted the call somewhere between its leaving
    /// and its answer, and a timer that fired late or a slow network can hold one call
    /// back longer than the next, so slots spaced only from when calls left would now and
    /// then arrive too close; counted from the answer, a run that sends one at a time
    /// never does.
    pub fn answered(&mut self, endpoint: &Endpoint, now: f64) {
        if let Some(pace) = self.paces.get_mut(&endpoint.key) {
            pace.next_slot_ms = pace.next_slot_ms.max(now + pace.interval_ms);
        }
        self.note_sent(endpoint, now);
    }

    /// Whether a request of `endpoint` whose slot has come may leave at `now` (noting that
    /// it left), or how many ms it must wait still. A kept pace's requests leave at least
    /// the public interval (and the margin) apart as they really left, not only as their
    /// slots were planned: a run sends several at once, their slots reserved together, and
    /// one whose timer fired late would let the next, on time, arrive too close and be
    /// refused. (Longer waits a refusal asked for are the slots' to keep.)
    pub fn take_turn(&mut self, endpoint: &Endpoint, now: f64) -> Result<(), f64> {
        let public = self.public_ms(endpoint);
        let (Some(pace), Some(public)) = (self.paces.get_mut(&endpoint.key), public) else {
            return Ok(());
        };
        let free_at = pace.left_ms + public + PACE_MARGIN_MS;
        if now < free_at {
            return Err(free_at - now);
        }
        pace.left_ms = now;
        Ok(())
    }

    /// A request to `endpoint` was answered without the client sending it (the served
    /// page sent it before the console's code ran; `first_reads.rs`), the answer taken at
    /// `now`: a pace kept from now on counts its interval from then.
    pub fn answered_early(&mut self, endpoint: &Endpoint, now: f64) {
        self.note_sent(endpoint, now);
    }

    /// `endpoint` left at `at` (a slot, or an early answer's taking, later than its send).
    fn note_sent(&mut self, endpoint: &Endpoint, at: f64) {
        if endpoint.public_seconds.is_some() {
            let last = self.last_sent_ms.entry(endpoint.key.clone()).or_insert(at);
            *last = last.max(at);
        }
    }

    /// A request to `endpoint` was refused with 429 at `now`, with the seconds of its
    /// `Retry-After` if it had one. The endpoint's next slot is at least the longer of the
    /// public interval and that wait from now (the last call let through is not known), and
    /// it keeps that interval afterwards. Returns the interval kept, in ms.
    pub fn refused(
        &mut self,
        endpoint: &Endpoint,
        retry_after_seconds: Option<f64>,
        now: f64,
    ) -> f64 {
        let told = retry_after_seconds.map(|s| s * 1000.0);
        let interval = match (self.public_ms(endpoint), told) {
            (Some(public), Some(told)) => public.max(told),
            (Some(public), None) => public,
            (None, Some(told)) => told,
            (None, None) => UNLISTED_INTERVAL_SECONDS * 1000.0 * self.scale,
        } + PACE_MARGIN_MS;
        let pace = self
            .paces
            .entry(endpoint.key.clone())
            .or_insert(Pace::new(0.0, now));
        pace.interval_ms = pace.interval_ms.max(interval);
        pace.next_slot_ms = pace.next_slot_ms.max(now + interval);
        pace.interval_ms
    }
}

/// Seconds `count` requests of an operation with the public interval `seconds` take at the
/// public service's pace: the first goes at once, each one after waits its interval.
pub fn paced_seconds(count: usize, seconds: f64) -> f64 {
    count.saturating_sub(1) as f64 * (seconds + PACE_MARGIN_MS / 1000.0)
}

/// What a bulk action says before it starts: `20 machines: about 50 s at the public
/// service's pace`. Nothing when it takes less than a few seconds.
pub fn duration_sentence(what: &str, seconds: f64) -> Option<String> {
    if seconds < 3.0 {
        return None;
    }
    let said = if seconds < 90.0 {
        format!("about {} s", (seconds / 5.0).round().max(1.0) as i64 * 5)
    } else if seconds < 600.0 {
        // Under ten minutes, to the nearest ten seconds: 30 offers at 5 s are 2 min 30 s.
        let tens = (seconds / 10.0).round() as i64;
        match (tens / 6, tens % 6) {
            (minutes, 0) => format!("about {minutes} min"),
            (minutes, tens) => format!("about {minutes} min {} s", tens * 10),
        }
    } else {
        format!("about {} min", (seconds / 60.0).round() as i64)
    };
    Some(format!("{what}: {said} at the public service's pace"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "http://127.0.0.1:8787";

    fn cancel(id: i64) -> Endpoint {
        Endpoint::of("PUT", &format!("{H}/api/v0/machines/{id}/cancel_maint/"))
    }

    #[test]
    fn every_machine_of_an_operation_shares_its_pace_and_interval() {
        assert_eq!(cancel(1001), cancel(1002));
        assert_eq!(cancel(1001).key, "PUT /api/v0/machines/{id}/cancel_maint");
        assert_eq!(cancel(1001).public_seconds, Some(2.5));
        let n2 = Endpoint::of("GET", &format!("{H}/api/v0/machines/1001?owner=me"));
        let n1 = Endpoint::of("GET", &format!("{H}/api/v0/machines?owner=me"));
        assert_ne!(n1.key, n2.key);
        assert_eq!(n1.public_seconds, Some(2.5));
        assert_eq!(n2.public_seconds, Some(1.1));
        // Another method on the same path is another operation.
        assert_eq!(
            Endpoint::of("PUT", &format!("{H}/api/v0/machines/1001")).public_seconds,
            None
        );
        // A base URL with a prefix of its own.
        let prefixed = Endpoint::of(
            "POST",
            "https://x.test/proxy/api/v0/machines/maintenances/batch",
        );
        assert_eq!(prefixed.key, "POST /api/v0/machines/maintenances/batch");
        assert_eq!(prefixed.public_seconds, Some(2.0));
        // Seed op 1 (GET on the maintenances) is not N6 (DELETE).
        let seed = Endpoint::of(
            "GET",
            &format!("{H}/api/v0/machines/maintenances?machine_ids=[1]"),
        );
        assert_eq!(seed.public_seconds, Some(2.0));
    }

    #[test]
    fn the_table_is_the_public_services() {
        let seconds = |method: &str, path: &str| {
            public_interval(method, &format!("{H}{path}")).map(|i| (i.operation, i.seconds))
        };
        assert_eq!(
            seconds("PUT", "/api/v0/machines/7/dnotify/"),
            Some(("N3", 2.5))
        );
        assert_eq!(
            seconds("POST", "/api/v0/machines/maintenances/batch"),
            Some(("N4", 2.0))
        );
        assert_eq!(
            seconds("DELETE", "/api/v0/machines/maintenances/batch"),
            Some(("N7", 2.0))
        );
        assert_eq!(
            seconds("DELETE", "/api/v0/machines/maintenances"),
            Some(("N6", 1.0))
        );
        assert_eq!(
            seconds("PUT", "/api/v0/machines/create_asks/"),
            Some(("N22", 5.0))
        );
        assert_eq!(
            seconds("DELETE", "/api/v0/machines/1001/asks/"),
            Some(("N23", 1.8))
        );
        // The generated reference's 2, not the docs' 5.5 and 3.0.
        assert_eq!(
            seconds("DELETE", "/api/v0/volumes/?id=4"),
            Some(("N12", 2.0))
        );
        assert_eq!(
            seconds("DELETE", "/api/v0/team/members/4/"),
            Some(("N18", 2.0))
        );
        // The seed operations' own thresholds, in the paths the console sends.
        assert_eq!(
            seconds("GET", "/api/v0/machines/maintenances?owner=me"),
            Some(("seed op 1", 2.0))
        );
        assert_eq!(
            seconds("PUT", "/api/v0/machines/defrag_offers/"),
            Some(("seed op 2", 2.8))
        );
        assert_eq!(
            seconds("DELETE", "/api/v0/users/42/templates/"),
            Some(("seed op 3", 0.9))
        );
        assert_eq!(seconds("PUT", "/api/v0/volumes/"), Some(("seed op 4", 1.0)));
        assert_eq!(
            seconds("GET", "/api/v0/subaccounts?owner=me"),
            Some(("seed op 5", 2.1))
        );
        assert_eq!(
            seconds("GET", "/api/v0/team/roles/a%20b/"),
            Some(("seed op 6", 2.0))
        );
        assert_eq!(
            seconds("GET", "/api/v0/team/members/"),
            Some(("seed op 7", 2.0))
        );
        assert_eq!(
            seconds("DELETE", "/api/v0/team/roles/ops/"),
            Some(("N16", 2.0))
        );
        assert_eq!(seconds("GET", "/api/v0/users/current"), None);
        assert_eq!(
            seconds("GET", "/api/v0/team/roles-full/"),
            Some(("N13", 2.0))
        );
    }

    #[test]
    fn an_endpoint_goes_at_once_until_refused_then_keeps_the_public_interval() {
        let mut pacer = Pacer::default();
        let n5 = cancel(1001);
        assert_eq!(pacer.reserve(&n5, 0.0), 0.0);
        assert_eq!(pacer.reserve(&n5, 10.0), 0.0);
        // A plain-text 429, no Retry-After: wait the public 2.5 s (and the margin).
        assert_eq!(pacer.refused(&n5, None, 1000.0), 2600.0);
        assert_eq!(pacer.reserve(&n5, 1000.0), 2600.0);
        // The next machine's N5 takes the slot after, not the same one.
        assert_eq!(pacer.reserve(&cancel(1002), 1000.0), 5200.0);
        // Long after, a request goes at once and the one after it waits a whole interval.
        assert_eq!(pacer.reserve(&n5, 100_000.0), 0.0);
        assert_eq!(pacer.reserve(&n5, 100_000.0), 2600.0);
        // Another operation is not held back.
        let n4 = Endpoint::of("POST", &format!("{H}/api/v0/machines/maintenances/batch"));
        assert_eq!(pacer.reserve(&n4, 100_000.0), 0.0);
    }

    #[test]
    fn a_longer_retry_after_overrides_the_public_interval_and_a_shorter_does_not() {
        let mut pacer = Pacer::default();
        let n4 = Endpoint::of("POST", &format!("{H}/api/v0/machines/maintenances/batch"));
        assert_eq!(pacer.refused(&n4, Some(1.0), 0.0), 2100.0);
        assert_eq!(pacer.reserve(&n4, 0.0), 2100.0);
        let mut pacer = Pacer::default();
        assert_eq!(pacer.refused(&n4, Some(7.0), 0.0), 7100.0);
        assert_eq!(pacer.reserve(&n4, 0.0), 7100.0);
        // An operation the table does not know: the Retry-After, else a default.
        let user = Endpoint::of("GET", &format!("{H}/api/v0/users/current"));
        assert_eq!(pacer.refused(&user, Some(1.0), 0.0), 1100.0);
        let other = Endpoint::of("GET", &format!("{H}/api/v0/team/invites/"));
        assert_eq!(pacer.refused(&other, None, 0.0), 2100.0);
        // A second refusal never shortens the pace.
        assert_eq!(pacer.refused(&user, Some(0.0), 0.0), 1100.0);
    }

    #[test]
    fn a_bulk_action_keeps_the_public_pace_from_its_first_request() {
        let mut pacer = Pacer::default();
        let n5 = cancel(1001);
        pacer.keep_public_pace(&n5);
        let waits: Vec<f64> = (0..4).map(|_| pacer.reserve(&n5, 0.0)).collect();
        assert_eq!(waits, [0.0, 2600.0, 5200.0, 7800.0]);
        // An operation the table does not list is not held back.
        let other = Endpoint::of("GET", &format!("{H}/api/v0/team/invites/"));
        pacer.keep_public_pace(&other);
        assert_eq!(pacer.reserve(&other, 0.0), 0.0);
        assert_eq!(pacer.reserve(&other, 0.0), 0.0);
        // Scaled, for tests of whole pages.
        let mut quick = Pacer::new(0.01);
        quick.keep_public_pace(&n5);
        assert_eq!(quick.reserve(&n5, 0.0), 0.0);
        assert_eq!(quick.reserve(&n5, 0.0), 125.0);
    }

    #[test]
    fn a_kept_pace_counts_each_interval_from_the_answer() {
        let mut pacer = Pacer::default();
        let n5 = cancel(1001);
        pacer.keep_public_pace(&n5);
        assert_eq!(pacer.reserve(&n5, 0.0), 0.0);
        // The first call's timer fired late and its answer came 700 ms after its slot:
        // the second waits a whole interval from then, not from the slot.
        pacer.answered(&n5, 700.0);
        assert_eq!(pacer.reserve(&n5, 710.0), 2590.0);
        // A quick answer leaves the slot where it was.
        pacer.answered(&n5, 3320.0);
        assert_eq!(pacer.reserve(&n5, 3330.0), 2590.0);
        // An answer on an endpoint that keeps no pace holds nothing back, but a pace begun
        // after it counts from it.
        let n4 = Endpoint::of("POST", &format!("{H}/api/v0/machines/maintenances/batch"));
        pacer.answered(&n4, 1000.0);
        assert_eq!(pacer.reserve(&n4, 1000.0), 0.0);
        pacer.answered(&n4, 1500.0);
        pacer.keep_public_pace(&n4);
        assert_eq!(pacer.reserve(&n4, 1600.0), 2000.0);
    }

    #[test]
    fn a_kept_pace_spaces_requests_as_they_left_not_as_they_were_planned() {
        let mut pacer = Pacer::default();
        let n23 = Endpoint::of("DELETE", &format!("{H}/api/v0/machines/1001/asks/"));
        pacer.keep_public_pace(&n23);
        // A run reserves its first two slots together: at once, and an interval later.
        assert_eq!(pacer.reserve(&n23, 0.0), 0.0);
        assert_eq!(pacer.reserve(&n23, 0.0), 1900.0);
        // The first one's timer fired 400 ms late; the second's, on time, waits for the
        // interval from when the first really left.
        assert_eq!(pacer.take_turn(&n23, 400.0), Ok(()));
        assert_eq!(pacer.take_turn(&n23, 1900.0), Err(400.0));
        assert_eq!(pacer.take_turn(&n23, 2300.0), Ok(()));
        assert_eq!(pacer.take_turn(&n23, 2300.0), Err(1900.0));
        // A refusal's longer wait is kept by the slots, not by the turns.
        pacer.refused(&n23, Some(5.0), 2300.0);
        assert_eq!(pacer.take_turn(&n23, 4200.0), Ok(()));
        // An endpoint that keeps no pace is never held back.
        let other = Endpoint::of("GET", &format!("{H}/api/v0/team/invites/"));
        assert_eq!(pacer.take_turn(&other, 0.0), Ok(()));
        assert_eq!(pacer.take_turn(&other, 0.0), Ok(()));
    }

    #[test]
    fn a_bulk_action_waits_out_the_interval_of_a_request_sent_before_it() {
        let n1 = Endpoint::of("GET", &format!("{H}/api/v0/machines/"));
        // The page's read went at once, 1 s before a paced action reads the fleet again.
        let mut pacer = Pacer::default();
        assert_eq!(pacer.reserve(&n1, 0.0), 0.0);
        pacer.keep_public_pace(&n1);
        assert_eq!(pacer.reserve(&n1, 1000.0), 1600.0);
        // The page's read was answered before the console's code ran (the served page
        // sent it): its interval counts from when the answer was taken.
        let mut pacer = Pacer::default();
        pacer.answered_early(&n1, 5000.0);
        pacer.keep_public_pace(&n1);
        assert_eq!(pacer.reserve(&n1, 5500.0), 2100.0);
        assert_eq!(pacer.reserve(&n1, 5500.0), 4700.0);
        // Long before, it holds nothing back.
        assert_eq!(Pacer::default().reserve(&n1, 0.0), 0.0);
        let mut pacer = Pacer::default();
        pacer.answered_early(&n1, 0.0);
        pacer.keep_public_pace(&n1);
        assert_eq!(pacer.reserve(&n1, 60_000.0), 0.0);
    }

    #[test]
    fn a_bulk_action_says_how_long_it_will_take() {
        assert_eq!(
            duration_sentence("20 machines", 20.0 * 2.5),
            Some("20 machines: about 50 s at the public service's pace".into())
        );
        assert!((paced_seconds(20, 2.5) - 19.0 * 2.6).abs() < 1e-9);
        assert_eq!(
            duration_sentence("20 machines", paced_seconds(20, 2.5)).as_deref(),
            Some("20 machines: about 50 s at the public service's pace")
        );
        assert_eq!(paced_seconds(1, 2.5), 0.0);
        assert_eq!(paced_seconds(0, 2.5), 0.0);
        assert_eq!(duration_sentence("1 machine", 2.5), None);
        assert_eq!(
            duration_sentence("100 offers", 500.0),
            Some("100 offers: about 8 min 20 s at the public service's pace".into())
        );
    }

    #[test]
    fn a_read_nobody_waits_for_is_free_only_past_its_pace_and_its_interval() {
        let n1 = Endpoint::of("GET", &format!("{H}/api/v0/machines?owner=me"));
        assert_eq!(n1.public_seconds, Some(2.5));
        let mut pacer = Pacer::default();
        assert!(pacer.is_free(&n1, 0.0), "never sent");
        assert_eq!(pacer.reserve(&n1, 1000.0), 0.0);
        assert!(
            !pacer.is_free(&n1, 3500.0),
            "within the interval and its margin"
        );
        assert!(pacer.is_free(&n1, 3600.0));
        // A 429 keeps a pace: its next slot decides, not the last request sent.
        pacer.refused(&n1, Some(10.0), 4000.0);
        assert!(!pacer.is_free(&n1, 14_000.0));
        assert!(pacer.is_free(&n1, 14_100.0));
    }
}
