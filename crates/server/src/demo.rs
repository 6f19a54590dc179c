//! Demo data (`--demo`): a deterministic little marketplace that shows every state the
//! console can display. Keys and ids are constants so tests, the README and the console's
//! own tests can rely on them.
//!
//! Times are relative to "now" at seeding (the server's clock), so the windows are
//! upcoming, ongoing, expired or cancelled whenever the demo starts.
//!
//! | who | key | what for |
//! |---|---|---|
//! | alice (id 1) | [`ALICE_KEY`] | host of machines 1001-1120 (hardware, offers and rental contracts, earnings; three offline; health cases from [`ERROR_MACHINE`] on; [`MARKETPLACE_WINDOW`] on [`MARKETPLACE_MACHINE`]), owner of team "Alice Compute", templates 501-505, 4 subaccounts (11 a host account), webhooks [`ALICE_WEBHOOK`] and [`ALICE_LAN_WEBHOOK`] |
//! | bob (id 2) | [`BOB_KEY`] | second host (machines 2001-2005, template 601, team "Bob Labs", webhook [`BOB_WEBHOOK`]): proves isolation |
//! | carol (id 3) | [`CAROL_TEAM_KEY`] | team key, role `member` in Alice Compute: maintenance list yes, defrag 403, team 403 |
//! | dave (id 4) | [`DAVE_KEY`], [`DAVE_TEAM_KEY`] | personal key, and team key with role `manager` in Alice Compute |
//! | erin (id 5) | [`ERIN_TEAM_KEY`] | team key of a removed member: always 401 |
//! | frank (id 6) | [`FRANK_TEAM_KEY`] | team key, roles `member` + `manager` |
//! | gustav (id 7) | [`GUSTAV_KEY`] | a renter in no team: team operations answer 404 `no_team` |
//!
//! Alice Compute's roles: the flagged owner role, `manager` (dave, frank), `member` (carol,
//! frank) and two custom roles nobody holds ([`UNICODE_ROLE`], [`MARKUP_ROLE`]); one pending
//! invitation ([`PENDING_INVITE_EMAIL`]) and one expired.

use crate::db::team_invites::{record as record_invitation, SentInvitation};
use crate::db::users::{create_user, insert_key, NewUser};
use crate::db::DbError;
use gpudeck_wire::listing::DEFAULT_PRICE_DISK;
use gpudeck_wire::maintenance::HOUR;
use gpudeck_wire::permissions::{Constraint, ConstraintOperator, Entry, Place, RouteGrant};
use gpudeck_wire::{PermissionGroup, Permissions};
use rusqlite::{params, Connection};
use serde_json::json;

/// alice: host of machines 1001-1120 and owner of team "Alice Compute". Personal key.
pub const ALICE_KEY: &str = "demo-alice-host-and-team-owner-0000000000000001";
/// bob: a second host with his own team; proves that hosts cannot see each other.
pub const BOB_KEY: &str = "demo-bob-second-host-000000000000000000000000002";
/// carol's key scoped to Alice Compute, role `member` (instance_read, instance_write).
pub const CAROL_TEAM_KEY: &str = "demo-carol-alice-compute-member-team-key-0000003";
/// dave's personal key (every permission; current team: Alice Compute as a member).
pub const DAVE_KEY: &str = "demo-dave-personal-key-0000000000000000000000004";
/// dave's key scoped to Alice Compute, role `manager` (every group).
pub const DAVE_TEAM_KEY: &str = "demo-dave-alice-compute-manager-team-key-0000004";
/// erin's key scoped to Alice Compute; erin was removed from the team, so it is refused.
pub const ERIN_TEAM_KEY: &str = "demo-erin-removed-member-team-key-00000000000005";
/// frank's key scoped to Alice Compute, roles `member` and `manager`.
pub const FRANK_TEAM_KEY: &str = "demo-frank-alice-compute-member-manager-key-0006";
/// gustav's personal key: a renter who belongs to no team.
pub const GUSTAV_KEY: &str = "demo-gustav-renter-without-team-0000000000000007";

pub const ALICE_ID: i64 = 1;
pub const BOB_ID: i64 = 2;
pub const CAROL_ID: i64 = 3;
pub const DAVE_ID: i64 = 4;
pub const ERIN_ID: i64 = 5;
pub const FRANK_ID: i64 = 6;
pub const GUSTAV_ID: i64 = 7;
pub const HEIDI_ID: i64 = 8;
pub const IVAN_ID: i64 = 9;

/// alice's subaccounts (the last has markup in its e-mail address).
pub const ALICE_SUBACCOUNTS: [i64; 4] = [11, 12, 13, 14];
/// alice's subaccount that only hosts (`host_only`, username `render-farm`); the others rent.
pub const HOST_SUBACCOUNT: i64 = 11;
pub const BOB_SUBACCOUNT: i64 = 21;

/// alice's machines.
pub const ALICE_MACHINES: std::ops::RangeInclusive<i64> = 1001..=1120;
/// bob's machines.
pub const BOB_MACHINES: std::ops::RangeInclusive<i64> = 2001..=2005;
/// 8 GPUs, 1-GPU contracts at slots 1, 3 and 6: defrag moves all three to 0, 1, 2.
pub const FRAGMENTED_MACHINE: i64 = 1001;
/// 8 GPUs, a 2-GPU contract at slot 2 and a 1-GPU contract at slot 5: defrag moves both.
pub const FRAGMENTED_MACHINE_2: i64 = 1002;
/// 8 GPUs, contracts at 0-3 and 4-5: already canonical, defrag changes nothing.
pub const TIDY_MACHINE: i64 = 1003;
/// Machines 1001-1012 carry windows in every state and category.
pub const SHOWCASE_MACHINES: std::ops::RangeInclusive<i64> = 1001..=1012;
/// alice's machine with the one window the marketplace scheduled (upcoming, `power`), and
/// one upcoming window alice scheduled herself: cancelling all of its windows cancels one
/// and keeps one.
pub const MARKETPLACE_MACHINE: i64 = 1101;
/// The window the marketplace scheduled on [`MARKETPLACE_MACHINE`]: the host cannot
/// cancel it.
pub const MARKETPLACE_WINDOW: i64 = 5000;
/// alice's upcoming window on [`MARKETPLACE_MACHINE`] that she may cancel.
pub const MARKETPLACE_MACHINE_OWN_WINDOW: i64 = 5001;
/// alice's machines that are offline (`timeout` > 0): last seen 1, 5 and 26 hours ago.
pub const OFFLINE_MACHINES: [i64; 3] = [1113, 1117, 1119];
/// alice's machines that are not listed (no active offers): every fifth, from 1004.
pub fn alice_listed(id: i64) -> bool {
    id % 5 != 4
}

// Offers and rental contracts (§1.7). Each listed machine has an offer; a contract locks
// its machine's prices and, as if rented at seeding, the offer end date as its rental end
// date, except where named below. Every contract is active at seeding.

/// The offer end date of a listed machine of alice's: open-ended for every third (ids
/// divisible by 3), two to five weeks away for ids ≡ 1 (mod 3), two to six days for the
/// rest. bob's offers are open-ended.
pub fn offer_end_date(id: i64, now: f64) -> Option<f64> {
    if !ALICE_MACHINES.contains(&id) {
        return None;
    }
    match id % 3 {
        0 => None,
        1 => Some(now + (14 + id % 21) as f64 * DAY),
        _ => Some(now + (2 + id % 5) as f64 * DAY),
    }
}

/// alice's machine whose three contracts end in hours: 3, 6 and 9 hours after seeding
/// ([`FRAGMENTED_MACHINE`]; its offer ends in 3 days).
pub const RENTALS_END_IN_HOURS: i64 = FRAGMENTED_MACHINE;
/// alice's listed, open-ended machine whose rentals have no end date
/// ([`FRAGMENTED_MACHINE_2`]): `client_end_date` is null while 2 rentals run.
pub const RENTALS_WITHOUT_END: i64 = FRAGMENTED_MACHINE_2;
/// On [`TIDY_MACHINE`] (offer ends in 30 days): contract 9006 locked the offer's prices and
/// end date; contract 9007 locked a GPU price $0.05 lower and ends in 10 days, so moving the
/// offer end date later at the current price extends 9006 only.
pub const CHEAPER_CONTRACT: i64 = 9007;
/// alice's unlisted machine whose rental still runs (one more day): its offer was withdrawn
/// (N23, unlist machine) and its terms kept.
pub const WITHDRAWN_MACHINE: i64 = 1004;
/// alice's listed machine with a rolling offer: 30 days from now, whenever asked.
pub const ROLLING_MACHINE: i64 = 1010;
/// The rolling offer's length.
pub const ROLLING_DURATION: f64 = 30.0 * DAY;
/// alice's idle listed machines: with an offer end date (in 4 days) and open-ended.
pub const IDLE_LISTED_MACHINES: [i64; 2] = [1007, 1011];

// Health cases (fleet-health §1.1): alice's machines that each show one finding of the
// console's health rules. None is a showcase, offline, rolling or withdrawn machine.

/// Deverified, 4 GPUs, rented, with a machine error ([`MACHINE_ERROR`]).
pub const ERROR_MACHINE: i64 = 1037;
pub const MACHINE_ERROR: &str = "failed to inject CDI devices: unresolvable CDI devices";
/// A VM error only ([`VM_ERROR`]).
pub const VM_ERROR_MACHINE: i64 = 1046;
pub const VM_ERROR: &str = "VMs unavailable: IOMMU is disabled";
/// Reliability 0.874, under the 0.90 gate.
pub const LOW_RELIABILITY_MACHINE: i64 = 1052;
/// 480 GB free of 8000.
pub const LOW_DISK_MACHINE: i64 = 1062;
/// The hottest GPU at 88 °C.
pub const HOT_MACHINE: i64 = 1066;
/// An RTX 4090 machine on driver 535.104.05 where the others have 550.54.14.
pub const DRIFTED_DRIVER_MACHINE: i64 = 1072;
/// Unverified, under the verification requirements: old driver and CUDA, 2 open ports,
/// PCIe at 2.1 GB/s.
pub const UNDER_REQUIREMENTS_MACHINE: i64 = 1082;

/// The rental end date of the contracts on `id` (unless named above): the offer end date
/// on a listed machine; on an unlisted one, one to four days away.
pub fn rental_end_date(id: i64, now: f64) -> Option<f64> {
    if id == ROLLING_MACHINE {
        Some(now + ROLLING_DURATION)
    } else if ALICE_MACHINES.contains(&id) && !alice_listed(id) {
        Some(now + (1 + id % 4) as f64 * DAY)
    } else {
        offer_end_date(id, now)
    }
}

/// alice's template with no other users: deletable.
pub const TEMPLATE_FREE: i64 = 501;
/// alice's template used actively by 2 other users: deletion answers 409 `in_use`.
pub const TEMPLATE_IN_USE: i64 = 502;
/// alice's template with only an inactive relationship: deletable.
pub const TEMPLATE_INACTIVE_USE: i64 = 503;
/// alice's private template whose name carries markup: deletable.
pub const TEMPLATE_MARKUP: i64 = 504;
/// alice's template that is already deleted: 404.
pub const TEMPLATE_DELETED: i64 = 505;
/// bob's template: alice gets 403 "not yours".
pub const BOB_TEMPLATE: i64 = 601;

/// alice's private template: in N8 (search templates) for alice only.
pub const TEMPLATE_PRIVATE: i64 = 506;
/// bob's private template: never shown to anyone else.
pub const BOB_PRIVATE_TEMPLATE: i64 = 602;

/// Volume ask with 100 GB, 70 GB used: 30 GB left.
pub const ASK_30_LEFT: i64 = 7;
/// Volume ask with 500 GB free.
pub const ASK_500_FREE: i64 = 8;
/// Volume ask with no space left.
pub const ASK_FULL: i64 = 9;
/// Volume ask on bob's machine 2003 holding alice's two volumes (40 of 200 GB).
pub const ASK_ALICE_VOLUMES: i64 = 10;
/// Volume ask on alice's machine 1013, cheap and roomy.
pub const ASK_CHEAP: i64 = 11;
/// Volume ask on bob's machine 2004 whose lifetime is over: never an offer.
pub const ASK_EXPIRED: i64 = 12;
/// Every ask that is an offer, by id.
pub const OFFER_ASKS: [i64; 5] = [
    ASK_30_LEFT,
    ASK_500_FREE,
    ASK_FULL,
    ASK_ALICE_VOLUMES,
    ASK_CHEAP,
];
/// alice's volume used by her instance [`ALICE_INSTANCE`]: deletion answers 409 `in_use`.
pub const ALICE_VOLUME_IN_USE: i64 = 20_118_470;
/// alice's volume that nothing uses: deletable.
pub const ALICE_VOLUME_FREE: i64 = 20_118_471;
/// alice's stopped instance on machine 2003, using [`ALICE_VOLUME_IN_USE`].
pub const ALICE_INSTANCE: i64 = 7001;
/// bob's volume on ask 7: alice may not delete it.
pub const BOB_VOLUME: i64 = 20_118_481;

pub const ALICE_TEAM_ID: i64 = 1;
pub const ALICE_TEAM: &str = "Alice Compute";
pub const BOB_TEAM_ID: i64 = 2;
pub const BOB_TEAM: &str = "Bob Labs";

/// Markup that must show as text wherever it is displayed.
pub const MARKUP: &str = "<img src=x onerror=alert(1)>";
/// Unicode that must survive the whole trip.
pub const UNICODE_REASON: &str = "Wartung – Lüfter 🌀";
/// A role name with unicode, in Alice Compute.
pub const UNICODE_ROLE: &str = "Wartung – Nacht 🌙";
/// A role name with markup, in Alice Compute.
pub const MARKUP_ROLE: &str = "<b>auditor</b>";
/// Role ids in Alice Compute: the owner role (flagged), the built-in `manager` (held by
/// dave and frank) and `member` (carol and frank), and the two custom roles nobody holds.
pub const OWNER_ROLE_ID: i64 = 1;
pub const MANAGER_ROLE_ID: i64 = 2;
pub const MEMBER_ROLE_ID: i64 = 3;
pub const UNICODE_ROLE_ID: i64 = 4;
pub const MARKUP_ROLE_ID: i64 = 5;
/// The pending invitation to Alice Compute (role `member`, sent by alice 65 minutes before
/// seeding, so it is pending for 2 h 55 min and outside the hourly quota).
pub const PENDING_INVITE_EMAIL: &str = "dana@example.org";
/// An invitation that expired an hour before seeding: never listed.
pub const EXPIRED_INVITE_EMAIL: &str = "old-invite@example.org";

/// Each demo key with who it is, for the start-up banner.
pub const KEYS: [(&str, &str); 8] = [
    ("alice (host, owner of team Alice Compute)", ALICE_KEY),
    ("bob (second host, team Bob Labs)", BOB_KEY),
    ("carol (team key, member of Alice Compute)", CAROL_TEAM_KEY),
    ("dave (personal key)", DAVE_KEY),
    ("dave (team key, manager of Alice Compute)", DAVE_TEAM_KEY),
    (
        "erin (team key, removed from Alice Compute: refused)",
        ERIN_TEAM_KEY,
    ),
    (
        "frank (team key, member + manager of Alice Compute)",
        FRANK_TEAM_KEY,
    ),
    ("gustav (renter, no team)", GUSTAV_KEY),
];

const CATEGORIES: [&str; 6] = ["power", "internet", "disk", "gpu", "software", "other"];
const DAY: f64 = 24.0 * HOUR;

/// A small deterministic generator (Knuth's MMIX LCG), so the demo is the same every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound
    }
}

/// Whether the database has no users yet (the demo seeds only an empty database).
pub fn is_empty(conn: &Connection) -> Result<bool, DbError> {
    let users: i64 = conn.query_row("SELECT COUNT(*) FROM users", [], |r| r.get(0))?;
    Ok(users == 0)
}

/// The permissions granting `groups` whole, plus `routes` at the top level.
fn permissions(groups: &[PermissionGroup], routes: Vec<RouteGrant>) -> String {
    let mut permissions = Permissions::default();
    for &group in groups {
        permissions.set_group(group, true);
    }
    permissions.routes = routes;
    permissions.to_value().to_string()
}

/// A top-level route entry granting `name` under `constraints`.
fn route(name: &str, constraints: Vec<Constraint>) -> RouteGrant {
    RouteGrant {
        place: Place::Top,
        name: name.to_owned(),
        entry: Entry {
            constraints,
            ..Entry::default()
        },
    }
}

/// What the default `member` role may do: instances only.
const MEMBER_GROUPS: [PermissionGroup; 2] = [
    PermissionGroup::InstanceRead,
    PermissionGroup::InstanceWrite,
];

/// Creates the default roles of a team (`owner`, `manager`, `member`) starting at
/// `first_id`; returns their ids in that order.
fn default_roles(conn: &Connection, team_id: i64, first_id: i64) -> Result<[i64; 3], DbError> {
    // (name, permissions, owner flag, system identifier)
    let roles = [
        (
            "owner",
            permissions(
                &PermissionGroup::ALL,
                vec![route("api.team.delete", vec![])],
            ),
            true,
            None,
        ),
        (
            "manager",
            permissions(&PermissionGroup::ALL, vec![]),
            false,
            Some("team_manager"),
        ),
        (
            "member",
            permissions(
                &MEMBER_GROUPS,
                vec![route(
                    "api.instance.request_logs",
                    vec![Constraint {
                        field: "id".to_owned(),
                        operator: ConstraintOperator::Eq,
                        value: json!(1227),
                    }],
                )],
            ),
            false,
            Some("team_member"),
        ),
    ];
    for (offset, (name, perms, is_owner, identifier)) in roles.iter().enumerate() {
        conn.execute(
            "INSERT INTO team_roles (id, team_id, name, permissions, is_owner, identifier)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                first_id + offset as i64,
                team_id,
                name,
                perms,
                is_owner,
                identifier
            ],
        )?;
    }
    Ok([first_id, first_id + 1, first_id + 2])
}

fn add_member(
    conn: &Connection,
    member_id: i64,
    team_id: i64,
    user_id: i64,
    roles: &[i64],
    removed_at: Option<f64>,
) -> Result<(), DbError> {
    conn.execute(
        "INSERT INTO team_members (id, team_id, user_id, removed_at) VALUES (?1, ?2, ?3, ?4)",
        params![member_id, team_id, user_id, removed_at],
    )?;
    for role in roles {
        conn.execute(
            "INSERT INTO team_member_roles (member_id, role_id) VALUES (?1, ?2)",
            params![member_id, role],
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn window(
    conn: &Connection,
    machine_id: i64,
    start: f64,
    hours: i64,
    category: &str,
    reason: Option<&str>,
    created_at: f64,
    cancelled_at: Option<f64>,
) -> Result<(), DbError> {
    conn.execute(
        "INSERT INTO maintenances
             (machine_id, start_time, duration_hours, category, reason, created_at, cancelled_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            machine_id,
            start,
            hours,
            category,
            reason,
            created_at,
            cancelled_at
        ],
    )?;
    Ok(())
}

/// A rental: `gpu_count` GPUs from `slot_start`, of `kind` D (on-demand), R (reserved) or
/// I (interruptible).
fn contract(
    conn: &Connection,
    id: Option<i64>,
    machine_id: i64,
    renter_id: i64,
    (slot_start, gpu_count): (i64, i64),
    kind: &str,
) -> Result<(), DbError> {
    conn.execute(
        "INSERT INTO contracts (id, machine_id, renter_id, slot_start, gpu_count, kind)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![id, machine_id, renter_id, slot_start, gpu_count, kind],
    )?;
    Ok(())
}

/// The prices of a demo machine's offer, which its contracts lock (§1.7).
#[derive(Debug, Clone, Copy)]
struct Prices {
    /// $/GPU-hour.
    gpu: f64,
    /// $/GB-month.
    disk: f64,
    /// $/GB uploaded and downloaded.
    inet_up: f64,
    inet_down: f64,
}

/// Each contract's locked prices and rental end date: its machine's [`Prices`] and
/// [`rental_end_date`], then the named exceptions.
fn seed_contract_terms(
    conn: &Connection,
    prices: &[(i64, Prices)],
    now: f64,
) -> Result<(), DbError> {
    let mut terms = conn.prepare(
        "UPDATE contracts SET price_gpu = ?2, price_disk = ?3, price_inetu = ?4,
             price_inetd = ?5, end_date = ?6
         WHERE machine_id = ?1",
    )?;
    for &(id, p) in prices {
        terms.execute(params![
            id,
            p.gpu,
            p.disk,
            p.inet_up,
            p.inet_down,
            rental_end_date(id, now)
        ])?;
    }
    let mut ends = conn.prepare("UPDATE contracts SET end_date = ?2 WHERE id = ?1")?;
    for (contract, hours) in [(9001, 3.0), (9002, 6.0), (9003, 9.0)] {
        ends.execute(params![contract, now + hours * HOUR])?;
    }
    conn.execute(
        "UPDATE contracts SET price_gpu = price_gpu - 0.05, end_date = ?2 WHERE id = ?1",
        params![CHEAPER_CONTRACT, now + 10.0 * DAY],
    )?;
    Ok(())
}

/// A demo machine's hardware, as N1 (list machines) reports it.
struct Hardware {
    gpu_name: &'static str,
    /// Each GPU's RAM, in MB.
    gpu_ram: f64,
    cpu_name: &'static str,
    driver: &'static str,
}

/// Hardware by GPU count, varied by id among the 8-GPU machines.
fn hardware(gpus: i64, id: i64) -> Hardware {
    match (gpus, id % 3) {
        (8, 0) => Hardware {
            gpu_name: "H100 SXM",
            gpu_ram: 81_559.0,
            cpu_name: "AMD EPYC 9654 96-Core Processor",
            driver: "550.54.14",
        },
        (8, 1) => Hardware {
            gpu_name: "RTX 4090",
            gpu_ram: 24_564.0,
            cpu_name: "AMD EPYC 7763 64-Core Processor",
            driver: "550.54.14",
        },
        (8, _) => Hardware {
            gpu_name: "A100 SXM4",
            gpu_ram: 81_920.0,
            cpu_name: "AMD EPYC 7742 64-Core Processor",
            driver: "535.161.07",
        },
        (4, _) => Hardware {
            gpu_name: "RTX 3090",
            gpu_ram: 24_576.0,
            cpu_name: "Intel Xeon Gold 6338",
            driver: "535.161.07",
        },
        (2, _) => Hardware {
            gpu_name: "RTX A6000",
            gpu_ram: 49_140.0,
            cpu_name: "AMD Ryzen Threadripper PRO 5975WX",
            driver: "550.54.14",
        },
        _ => Hardware {
            gpu_name: "RTX 4080",
            gpu_ram: 16_376.0,
            cpu_name: "AMD Ryzen 9 7950X 16-Core Processor",
            driver: "545.29.06",
        },
    }
}

const LOCATIONS: [&str; 5] = [
    "Sweden, SE",
    "Germany, DE",
    "United States, US",
    "Japan, JP",
    "Québec, CA",
];

/// Inserts a machine of `owner_id` with hardware, offer and reliability derived from its
/// id (earnings follow from its contracts once they exist); returns its prices, which its
/// contracts lock (an unlisted machine's as its offer would hold them).
fn machine(
    conn: &Connection,
    id: i64,
    owner_id: i64,
    hostname: &str,
    gpus: i64,
    now: f64,
) -> Result<Prices, DbError> {
    let Hardware {
        gpu_name,
        gpu_ram,
        cpu_name,
        driver,
    } = hardware(gpus, id);
    let price = match gpu_name {
        "H100 SXM" => 2.4,
        "A100 SXM4" => 1.1,
        "RTX 4090" => 0.42,
        "RTX A6000" => 0.55,
        "RTX 3090" => 0.22,
        _ => 0.18,
    };
    let prices = Prices {
        gpu: price,
        disk: DEFAULT_PRICE_DISK,
        inet_up: 0.01,
        inet_down: 0.005,
    };
    let verification = match id % 17 {
        0 => "deverified",
        5 | 11 => "unverified",
        _ => "verified",
    };
    conn.execute(
        "INSERT INTO machines (id, owner_id, hostname, num_gpus, gpu_name, gpu_ram, cpu_name,
             cpu_cores, cpu_ram, disk_space, driver_version, cuda_max_good, geolocation,
             public_ipaddr, inet_up, inet_down, hosting_type, verification, reliability2)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 ?18, ?19)",
        params![
            id,
            owner_id,
            hostname,
            gpus,
            gpu_name,
            gpu_ram,
            cpu_name,
            16 * gpus,
            65_536.0 * gpus as f64,
            1_000.0 * gpus as f64,
            driver,
            if driver.starts_with("550") {
                12.4
            } else {
                12.2
            },
            LOCATIONS[(id % 5) as usize],
            format!("203.0.113.{}", id % 250),
            500.0 + (id % 4) as f64 * 250.0,
            1_000.0 + (id % 3) as f64 * 1_000.0,
            i64::from(id % 3 == 0),
            verification,
            0.999 - ((id * 37) % 90) as f64 / 1_000.0,
        ],
    )?;
    let listed = owner_id != ALICE_ID || alice_listed(id);
    if listed || id == WITHDRAWN_MACHINE {
        let (end_date, duration) = match id {
            ROLLING_MACHINE => (None, Some(ROLLING_DURATION)),
            _ => (offer_end_date(id, now).filter(|_| listed), None),
        };
        conn.execute(
            "INSERT INTO offers (machine_id, price_gpu, price_min_bid, price_disk, price_inetu,
                 price_inetd, min_chunk, end_date, duration, withdrawn_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                id,
                prices.gpu,
                (price * 0.6 * 100.0_f64).round() / 100.0,
                prices.disk,
                prices.inet_up,
                prices.inet_down,
                if gpus >= 4 { 2 } else { 1 },
                end_date,
                duration,
                (!listed).then_some(now - 3.0 * DAY),
            ],
        )?;
    }
    Ok(prices)
}

/// GPUs of alice's machine `id`: mostly 8, some 4, 2 or 1.
pub fn alice_gpus(id: i64) -> i64 {
    let i = id - 1000;
    match i {
        _ if i % 30 == 29 => 1,
        _ if i % 20 == 13 => 2,
        _ if i % 10 == 7 => 4,
        _ => 8,
    }
}

/// Seeds the demo into an empty database, in one transaction. `now` anchors the windows.
pub fn seed(conn: &mut Connection, secret: &[u8], now: f64) -> Result<(), DbError> {
    let tx = crate::db::write_tx(conn)?;
    seed_people(&tx, secret, now)?;
    seed_teams(&tx)?;
    seed_invitations(&tx, now)?;
    seed_keys(&tx, now)?;
    seed_machines(&tx, now)?;
    seed_templates(&tx, now)?;
    seed_volumes(&tx, now)?;
    seed_webhooks(&tx, now)?;
    seed_reports_and_earnings(&tx, now)?;
    tx.execute(
        "UPDATE users SET host_agreement_accepted = 1 WHERE id IN (?1, ?2)",
        params![ALICE_ID, BOB_ID],
    )?;
    tx.commit()?;
    Ok(())
}

/// A demo user, as seeded; a subaccount has a parent and no full name.
struct DemoPerson<'a> {
    id: i64,
    email: &'a str,
    fullname: &'a str,
    /// Dollars.
    balance: f64,
    parent_id: Option<i64>,
}

fn seed_people(conn: &Connection, secret: &[u8], now: f64) -> Result<(), DbError> {
    let frank_fullname = format!("Frank {MARKUP}");
    // The username is the e-mail's local part.
    let people = [
        DemoPerson {
            id: ALICE_ID,
            email: "alice@example.com",
            fullname: "Alice Liddell",
            balance: 4200.5,
            parent_id: None,
        },
        DemoPerson {
            id: BOB_ID,
            email: "bob@example.com",
            fullname: "Bob Okafor",
            balance: 310.0,
            parent_id: None,
        },
        DemoPerson {
            id: CAROL_ID,
            email: "carol@example.com",
            fullname: "Zoë Ångström",
            balance: 57.25,
            parent_id: None,
        },
        DemoPerson {
            id: DAVE_ID,
            email: "dave@example.com",
            fullname: "Dave Nakamura",
            balance: 12.0,
            parent_id: None,
        },
        DemoPerson {
            id: ERIN_ID,
            email: "erin@example.com",
            fullname: "Erin Walsh",
            balance: 0.0,
            parent_id: None,
        },
        DemoPerson {
            id: FRANK_ID,
            email: "frank@example.com",
            fullname: &frank_fullname,
            balance: 99.99,
            parent_id: None,
        },
        DemoPerson {
            id: GUSTAV_ID,
            email: "gustav@example.com",
            fullname: "Gustav Łukasiewicz",
            balance: 8.0,
            parent_id: None,
        },
        DemoPerson {
            id: HEIDI_ID,
            email: "heidi@example.com",
            fullname: "Heidi 田中",
            balance: 15.0,
            parent_id: None,
        },
        DemoPerson {
            id: IVAN_ID,
            email: "ivan@example.com",
            fullname: "Ivan Petrov",
            balance: 3.5,
            parent_id: None,
        },
        // Subaccounts (no full name).
        DemoPerson {
            id: 11,
            email: "render-farm@alice.example",
            fullname: "",
            balance: 25.5,
            parent_id: Some(ALICE_ID),
        },
        DemoPerson {
            id: 12,
            email: "ci-runner@alice.example",
            fullname: "",
            balance: 0.0,
            parent_id: Some(ALICE_ID),
        },
        DemoPerson {
            id: 13,
            email: "training@alice.example",
            fullname: "",
            balance: 1200.75,
            parent_id: Some(ALICE_ID),
        },
        DemoPerson {
            id: 14,
            email: "<b>sub</b>@alice.example",
            fullname: "",
            balance: 5.0,
            parent_id: Some(ALICE_ID),
        },
        DemoPerson {
            id: BOB_SUBACCOUNT,
            email: "lab-intern@bob.example",
            fullname: "",
            balance: 10.0,
            parent_id: Some(BOB_ID),
        },
    ];
    for DemoPerson {
        id,
        email,
        fullname,
        balance,
        parent_id,
    } in people
    {
        let username = email.split('@').next().unwrap_or(email);
        create_user(
            conn,
            secret,
            &NewUser {
                id: Some(id),
                email,
                username,
                fullname,
                balance,
                parent_id,
            },
            now,
        )?;
    }
    conn.execute(
        "UPDATE users SET host_only = 1 WHERE id = ?1",
        [HOST_SUBACCOUNT],
    )?;
    Ok(())
}

/// After the teams, which team keys refer to.
fn seed_keys(conn: &Connection, now: f64) -> Result<(), DbError> {
    let keys: [(&str, i64, Option<i64>); 8] = [
        (ALICE_KEY, ALICE_ID, None),
        (BOB_KEY, BOB_ID, None),
        (CAROL_TEAM_KEY, CAROL_ID, Some(ALICE_TEAM_ID)),
        (DAVE_KEY, DAVE_ID, None),
        (DAVE_TEAM_KEY, DAVE_ID, Some(ALICE_TEAM_ID)),
        (ERIN_TEAM_KEY, ERIN_ID, Some(ALICE_TEAM_ID)),
        (FRANK_TEAM_KEY, FRANK_ID, Some(ALICE_TEAM_ID)),
        (GUSTAV_KEY, GUSTAV_ID, None),
    ];
    for (key, user, team) in keys {
        insert_key(conn, key, user, team, now)?;
    }
    Ok(())
}

fn seed_teams(conn: &Connection) -> Result<(), DbError> {
    conn.execute(
        "INSERT INTO teams (id, name, owner_id) VALUES (?1, ?2, ?3), (?4, ?5, ?6)",
        params![
            ALICE_TEAM_ID,
            ALICE_TEAM,
            ALICE_ID,
            BOB_TEAM_ID,
            BOB_TEAM,
            BOB_ID
        ],
    )?;
    let [owner, manager, member] = default_roles(conn, ALICE_TEAM_ID, 1)?;
    conn.execute(
        "INSERT INTO team_roles (id, team_id, name, permissions) VALUES (?1, ?2, ?3, ?4), (?5, ?6, ?7, ?8)",
        params![
            UNICODE_ROLE_ID,
            ALICE_TEAM_ID,
            UNICODE_ROLE,
            permissions(&[PermissionGroup::MachineRead, PermissionGroup::InstanceRead], vec![]),
            MARKUP_ROLE_ID,
            ALICE_TEAM_ID,
            MARKUP_ROLE,
            permissions(
                &[PermissionGroup::UserRead, PermissionGroup::TeamRead, PermissionGroup::BillingRead],
                vec![]
            ),
        ],
    )?;
    add_member(conn, 1, ALICE_TEAM_ID, ALICE_ID, &[owner], None)?;
    add_member(conn, 2, ALICE_TEAM_ID, DAVE_ID, &[manager], None)?;
    add_member(conn, 3, ALICE_TEAM_ID, CAROL_ID, &[member], None)?;
    add_member(conn, 4, ALICE_TEAM_ID, FRANK_ID, &[member, manager], None)?;
    add_member(conn, 5, ALICE_TEAM_ID, ERIN_ID, &[member], Some(1.0))?;
    let [bob_owner, _, _] = default_roles(conn, BOB_TEAM_ID, 6)?;
    add_member(conn, 6, BOB_TEAM_ID, BOB_ID, &[bob_owner], None)?;
    Ok(())
}

/// Invitations to Alice Compute: one pending, one expired. Only a random token's hash is
/// stored, as for real ones.
fn seed_invitations(conn: &Connection, now: f64) -> Result<(), DbError> {
    for (email, created_at) in [
        (PENDING_INVITE_EMAIL, now - 65.0 * 60.0),
        (EXPIRED_INVITE_EMAIL, now - 5.0 * HOUR),
    ] {
        let token_hash = crate::keys::hash_key(&crate::keys::generate_key());
        let invitation = SentInvitation {
            team_id: ALICE_TEAM_ID,
            email,
            role_id: MEMBER_ROLE_ID,
            invited_by: ALICE_ID,
            token_hash: &token_hash,
        };
        record_invitation(conn, &invitation, created_at)?;
    }
    Ok(())
}

/// A rental the demo seeds on a showcase machine: `gpus` GPUs from `slot_start`, of `kind`
/// D (on-demand), R (reserved) or I (interruptible).
struct DemoRental {
    id: i64,
    machine: i64,
    slot_start: i64,
    gpus: i64,
    kind: &'static str,
}

/// The hostname of alice's machine `id`: `alice-gpu-037` for 1037.
pub fn alice_hostname(id: i64) -> String {
    format!("alice-gpu-{:03}", id - 1000)
}

fn seed_machines(conn: &Connection, now: f64) -> Result<(), DbError> {
    let mut prices = Vec::new();
    for id in ALICE_MACHINES {
        let price = machine(conn, id, ALICE_ID, &alice_hostname(id), alice_gpus(id), now)?;
        prices.push((id, price));
    }
    for id in BOB_MACHINES {
        let price = machine(conn, id, BOB_ID, &format!("bob-node-{}", id - 2000), 8, now)?;
        prices.push((id, price));
    }
    for (hours, id) in [1.0, 5.0, 26.0].into_iter().zip(OFFLINE_MACHINES) {
        conn.execute(
            "UPDATE machines SET offline_since = ?2 WHERE id = ?1",
            params![id, now - hours * HOUR],
        )?;
    }

    // Contracts: two fragmented machines, one tidy one, then a mix.
    let renter = GUSTAV_ID;
    for DemoRental {
        id,
        machine,
        slot_start,
        gpus,
        kind,
    } in [
        DemoRental {
            id: 9001,
            machine: FRAGMENTED_MACHINE,
            slot_start: 1,
            gpus: 1,
            kind: "D",
        },
        DemoRental {
            id: 9002,
            machine: FRAGMENTED_MACHINE,
            slot_start: 3,
            gpus: 1,
            kind: "I",
        },
        DemoRental {
            id: 9003,
            machine: FRAGMENTED_MACHINE,
            slot_start: 6,
            gpus: 1,
            kind: "R",
        },
        DemoRental {
            id: 9004,
            machine: FRAGMENTED_MACHINE_2,
            slot_start: 2,
            gpus: 2,
            kind: "D",
        },
        DemoRental {
            id: 9005,
            machine: FRAGMENTED_MACHINE_2,
            slot_start: 5,
            gpus: 1,
            kind: "I",
        },
        DemoRental {
            id: 9006,
            machine: TIDY_MACHINE,
            slot_start: 0,
            gpus: 4,
            kind: "D",
        },
        DemoRental {
            id: 9007,
            machine: TIDY_MACHINE,
            slot_start: 4,
            gpus: 2,
            kind: "R",
        },
    ] {
        let renter = if id == 9003 { HEIDI_ID } else { renter };
        contract(conn, Some(id), machine, renter, (slot_start, gpus), kind)?;
    }
    for id in 1004..=*ALICE_MACHINES.end() {
        let gpus = alice_gpus(id);
        match id % 4 {
            // Tidy: half the machine from slot 0, reserved on every other one.
            0 if gpus >= 2 => {
                let kind = if id % 8 == 0 { "R" } else { "D" };
                contract(conn, None, id, HEIDI_ID, (0, gpus / 2), kind)?
            }
            // Fragmented: an interruptible 1-GPU contract in slot 1.
            1 if gpus >= 4 => contract(conn, None, id, HEIDI_ID, (1, 1), "I")?,
            // Full.
            2 => contract(conn, None, id, renter, (0, gpus), "D")?,
            _ => {}
        }
    }
    contract(conn, None, 2001, ALICE_ID, (2, 2), "D")?;
    contract(conn, None, 2002, GUSTAV_ID, (0, 8), "R")?;
    seed_contract_terms(conn, &prices, now)?;
    // Earnings: each rented GPU at the machine's listed price (a floor of $0.15 when
    // unlisted).
    conn.execute(
        "UPDATE machines SET earn_hour = ROUND(COALESCE(
             (SELECT price_gpu FROM offers WHERE machine_id = machines.id
                  AND withdrawn_at IS NULL), 0.15) *
             (SELECT COALESCE(SUM(gpu_count), 0) FROM contracts WHERE machine_id = machines.id),
             4)",
        [],
    )?;
    conn.execute(
        "UPDATE machines SET earn_day = ROUND(earn_hour * 24, 2)",
        [],
    )?;
    seed_health_cases(conn)?;
    seed_windows(conn, now)
}

/// The health cases (fleet-health §1.1): every other machine keeps the specified defaults.
/// The report counts follow from the seeded reports ([`REPORTED_MACHINE`]).
fn seed_health_cases(conn: &Connection) -> Result<(), DbError> {
    let cases: [(&str, i64, &dyn rusqlite::ToSql); 13] = [
        ("error_description", ERROR_MACHINE, &MACHINE_ERROR),
        ("vm_error_msg", VM_ERROR_MACHINE, &VM_ERROR),
        ("reliability2", LOW_RELIABILITY_MACHINE, &0.874),
        ("max_disk_space", LOW_DISK_MACHINE, &8_000.0),
        ("avail_disk_space", LOW_DISK_MACHINE, &480.0),
        ("gpu_max_cur_temp", HOT_MACHINE, &88.0),
        ("driver_version", DRIFTED_DRIVER_MACHINE, &"535.104.05"),
        ("cuda_max_good", DRIFTED_DRIVER_MACHINE, &12.2),
        (
            "kernel_version",
            DRIFTED_DRIVER_MACHINE,
            &"5.15.0-119-generic",
        ),
        ("driver_version", UNDER_REQUIREMENTS_MACHINE, &"520.61.05"),
        ("cuda_max_good", UNDER_REQUIREMENTS_MACHINE, &11.8),
        ("direct_port_count", UNDER_REQUIREMENTS_MACHINE, &2),
        ("pcie_bw", UNDER_REQUIREMENTS_MACHINE, &2.1),
    ];
    for (column, id, value) in cases {
        conn.execute(
            &format!("UPDATE machines SET {column} = ?2 WHERE id = ?1"),
            params![id, value],
        )?;
    }
    Ok(())
}

/// Maintenance windows in every state and category on the showcase machines, the
/// marketplace's window, and a spread over the fleet.
fn seed_windows(conn: &Connection, now: f64) -> Result<(), DbError> {
    // Windows in every state and category on the showcase machines.
    let created = now - 7.0 * DAY;
    let upcoming_reasons: [Option<&str>; 6] = [
        Some("Utility work on feed B"),
        Some(MARKUP),
        Some(UNICODE_REASON),
        None,
        Some("Driver 550 → 560 upgrade"),
        None,
    ];
    let ongoing_reasons: [Option<&str>; 6] = [
        None,
        Some("Uplink swap at the colo"),
        Some("Replacing NVMe in bay 3"),
        Some("GPU 5 reseat"),
        None,
        Some("Rack move"),
    ];
    for (k, category) in CATEGORIES.iter().enumerate() {
        let k64 = k as i64;
        let first = 1001 + k64;
        let second = 1007 + k64;
        // Upcoming: starts k+1 days from now.
        window(
            conn,
            first,
            now + (k64 + 1) as f64 * DAY,
            2 + k64,
            category,
            upcoming_reasons[k],
            created,
            None,
        )?;
        // Ongoing: started k+1 hours ago, ends 2 hours from now.
        window(
            conn,
            second,
            now - (k64 + 1) as f64 * HOUR,
            k64 + 3,
            category,
            ongoing_reasons[k],
            created,
            None,
        )?;
        // Expired ten days ago.
        window(
            conn,
            first,
            now - 10.0 * DAY,
            4,
            category,
            Some("Finished long ago"),
            created - 7.0 * DAY,
            None,
        )?;
        // Cancelled, would have been upcoming.
        window(
            conn,
            second,
            now + 2.0 * DAY,
            3,
            category,
            Some("Cancelled: parts late"),
            created,
            Some(now - HOUR),
        )?;
    }
    // Ends exactly now: expired, never listed.
    window(
        conn,
        1012,
        now - 2.0 * HOUR,
        2,
        "software",
        Some("Ended just now"),
        created,
        None,
    )?;

    // Spread over the fleet so a 100-machine timeline is meaningful.
    let mut lcg = Lcg(20_118_481);
    for machine in 1013..=1100 {
        for _ in 0..(1 + lcg.next(3)) {
            let start = now + (lcg.next(32 * 24) as f64 - 48.0) * HOUR;
            let hours = 1 + lcg.next(12) as i64;
            let category = CATEGORIES[lcg.next(6) as usize];
            let reason = match lcg.next(3) {
                0 => None,
                1 => Some("Scheduled check"),
                _ => Some("Firmware rollout"),
            };
            window(conn, machine, start, hours, category, reason, created, None)?;
        }
    }
    for (i, machine) in BOB_MACHINES.enumerate() {
        let i = i as f64;
        window(
            conn,
            machine,
            now + (i + 1.0) * DAY,
            6,
            "power",
            Some("Bob's PDU swap"),
            created,
            None,
        )?;
    }
    window(conn, 2001, now - HOUR, 4, "gpu", None, created, None)?;
    seed_marketplace_windows(conn, now, created)
}

/// The one window the marketplace scheduled, beside one of alice's own on the same machine.
fn seed_marketplace_windows(conn: &Connection, now: f64, created: f64) -> Result<(), DbError> {
    struct MarketplaceMachineWindow {
        id: i64,
        start: f64,
        by_marketplace: bool,
        reason: &'static str,
    }
    for MarketplaceMachineWindow {
        id,
        start,
        by_marketplace,
        reason,
    } in [
        MarketplaceMachineWindow {
            id: MARKETPLACE_WINDOW,
            start: now + 3.0 * DAY,
            by_marketplace: true,
            reason: "Datacenter power work (scheduled by the marketplace)",
        },
        MarketplaceMachineWindow {
            id: MARKETPLACE_MACHINE_OWN_WINDOW,
            start: now + 4.0 * DAY,
            by_marketplace: false,
            reason: "BIOS update",
        },
    ] {
        conn.execute(
            "INSERT INTO maintenances (id, machine_id, start_time, duration_hours, category,
                 reason, created_at, scheduled_by_marketplace)
             VALUES (?1, ?2, ?3, 4, 'power', ?4, ?5, ?6)",
            params![
                id,
                MARKETPLACE_MACHINE,
                start,
                reason,
                created,
                by_marketplace
            ],
        )?;
    }
    Ok(())
}

/// A demo template, as seeded.
struct DemoTemplate<'a> {
    id: i64,
    owner: i64,
    name: &'a str,
    image: &'a str,
    tag: &'a str,
    private: bool,
    age_days: f64,
    /// How many instances were created from it.
    instances: i64,
    last_use_days_ago: Option<f64>,
    deleted_days_ago: Option<f64>,
}

/// A demo volume offer (ask), as seeded.
struct DemoVolumeAsk {
    id: i64,
    machine: i64,
    disk_gb: i64,
    /// $/GB/month.
    cost: f64,
    /// Until its end date; negative: already ended.
    days_left: f64,
    disk_mb_per_s: f64,
    disk_name: &'static str,
    static_ip: bool,
}

/// alice's templates in each state deletion tells apart (free, in use by others, used only
/// inactively, already deleted), private ones and bob's; `markup_name` is the one whose name
/// carries markup.
fn demo_templates(markup_name: &str) -> [DemoTemplate<'_>; 8] {
    [
        DemoTemplate {
            id: TEMPLATE_FREE,
            owner: ALICE_ID,
            name: "pytorch-base",
            image: "pytorch/pytorch",
            tag: "2.3.1-cuda12.1-cudnn8-runtime",
            private: false,
            age_days: 120.0,
            instances: 42,
            last_use_days_ago: Some(2.0),
            deleted_days_ago: None,
        },
        DemoTemplate {
            id: TEMPLATE_IN_USE,
            owner: ALICE_ID,
            name: "comfyui",
            image: "ghcr.io/ai-dock/comfyui",
            tag: "latest",
            private: false,
            age_days: 90.0,
            instances: 317,
            last_use_days_ago: Some(0.5),
            deleted_days_ago: None,
        },
        DemoTemplate {
            id: TEMPLATE_INACTIVE_USE,
            owner: ALICE_ID,
            name: "old-jupyter",
            image: "jupyter/base-notebook",
            tag: "2023-10-20",
            private: false,
            age_days: 400.0,
            instances: 3,
            last_use_days_ago: Some(200.0),
            deleted_days_ago: None,
        },
        DemoTemplate {
            id: TEMPLATE_MARKUP,
            owner: ALICE_ID,
            name: markup_name,
            image: "nvidia/cuda",
            tag: "12.4.1-devel-ubuntu22.04",
            private: true,
            age_days: 10.0,
            instances: 0,
            last_use_days_ago: None,
            deleted_days_ago: None,
        },
        DemoTemplate {
            id: TEMPLATE_DELETED,
            owner: ALICE_ID,
            name: "retired-tf1",
            image: "tensorflow/tensorflow",
            tag: "1.15.5-gpu",
            private: false,
            age_days: 900.0,
            instances: 12,
            last_use_days_ago: Some(300.0),
            deleted_days_ago: Some(30.0),
        },
        DemoTemplate {
            id: TEMPLATE_PRIVATE,
            owner: ALICE_ID,
            name: "alice-private-llm",
            image: "vllm/vllm-openai",
            tag: "v0.5.4",
            private: true,
            age_days: 5.0,
            instances: 7,
            last_use_days_ago: Some(1.0),
            deleted_days_ago: None,
        },
        DemoTemplate {
            id: BOB_TEMPLATE,
            owner: BOB_ID,
            name: "bob-llama",
            image: "ollama/ollama",
            tag: "latest",
            private: false,
            age_days: 60.0,
            instances: 150,
            last_use_days_ago: Some(3.0),
            deleted_days_ago: None,
        },
        DemoTemplate {
            id: BOB_PRIVATE_TEMPLATE,
            owner: BOB_ID,
            name: "bob-secret",
            image: "bob/secret",
            tag: "latest",
            private: true,
            age_days: 30.0,
            instances: 1,
            last_use_days_ago: Some(10.0),
            deleted_days_ago: None,
        },
    ]
}

/// The demo templates, and who uses which.
fn seed_templates(conn: &Connection, now: f64) -> Result<(), DbError> {
    let markup_name = format!("{MARKUP} notebook");
    for template in demo_templates(&markup_name) {
        let DemoTemplate {
            id,
            owner,
            name,
            image,
            tag,
            private,
            age_days: age,
            instances: count,
            last_use_days_ago: last_use,
            deleted_days_ago: deleted,
        } = template;
        let created_at = now - age * DAY;
        conn.execute(
            "INSERT INTO templates (id, owner_id, name, deleted_at, hash_id, image, tag, private,
                 created_at, updated_at, count_created, recent_create_date, env, runtype)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                id,
                owner,
                name,
                deleted.map(|days| now - days * DAY),
                &crate::keys::hash_key(&format!("template:{id}:{name}:{image}:{tag}"))[..32],
                image,
                tag,
                private,
                created_at,
                // Updated halfway through its life, so the library's order is not the ids'.
                created_at + age * DAY / 2.0,
                count,
                last_use.map(|days| now - days * DAY),
                "-p 8888:8888",
                if id == TEMPLATE_INACTIVE_USE {
                    "jupyter"
                } else {
                    "ssh"
                },
            ],
        )?;
    }
    for (template, user, active) in [
        (TEMPLATE_FREE, ALICE_ID, true), // the owner's own use does not block deletion
        (TEMPLATE_IN_USE, GUSTAV_ID, true),
        (TEMPLATE_IN_USE, HEIDI_ID, true),
        (TEMPLATE_INACTIVE_USE, IVAN_ID, false),
        (BOB_TEMPLATE, HEIDI_ID, true),
    ] {
        conn.execute(
            "INSERT INTO template_usage (template_id, user_id, active) VALUES (?1, ?2, ?3)",
            params![template, user, active],
        )?;
    }
    Ok(())
}

/// Volume offers (room left, full, expired) and the volumes rented on them: others' and
/// alice's two, one attached to her stopped instance.
fn seed_volumes(conn: &Connection, now: f64) -> Result<(), DbError> {
    let asks = [
        DemoVolumeAsk {
            id: ASK_30_LEFT,
            machine: 2001,
            disk_gb: 100,
            cost: 0.15,
            days_left: 30.0,
            disk_mb_per_s: 2_000.0,
            disk_name: "Samsung 990 PRO",
            static_ip: true,
        },
        DemoVolumeAsk {
            id: ASK_500_FREE,
            machine: 1004,
            disk_gb: 500,
            cost: 0.40,
            days_left: 90.0,
            disk_mb_per_s: 3_500.0,
            disk_name: "WD Black SN850X",
            static_ip: true,
        },
        DemoVolumeAsk {
            id: ASK_FULL,
            machine: 2002,
            disk_gb: 50,
            cost: 0.10,
            days_left: 14.0,
            disk_mb_per_s: 1_200.0,
            disk_name: "Crucial P3",
            static_ip: false,
        },
        DemoVolumeAsk {
            id: ASK_ALICE_VOLUMES,
            machine: 2003,
            disk_gb: 200,
            cost: 0.25,
            days_left: 60.0,
            disk_mb_per_s: 2_500.0,
            disk_name: "Samsung 990 PRO",
            static_ip: false,
        },
        DemoVolumeAsk {
            id: ASK_CHEAP,
            machine: 1013,
            disk_gb: 1_000,
            cost: 0.05,
            days_left: 180.0,
            disk_mb_per_s: 800.0,
            disk_name: "Seagate IronWolf",
            static_ip: false,
        },
        DemoVolumeAsk {
            id: ASK_EXPIRED,
            machine: 2004,
            disk_gb: 300,
            cost: 0.08,
            days_left: -1.0,
            disk_mb_per_s: 1_500.0,
            disk_name: "Crucial P3",
            static_ip: false,
        },
    ];
    for DemoVolumeAsk {
        id,
        machine,
        disk_gb: disk,
        cost,
        days_left,
        disk_mb_per_s: disk_bw,
        disk_name,
        static_ip,
    } in asks
    {
        conn.execute(
            "INSERT INTO volume_asks (id, machine_id, disk_space, storage_cost, start_date,
                 end_date, disk_bw, disk_name, static_ip)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                id,
                machine,
                disk,
                cost,
                now - 10.0 * DAY,
                now + days_left * DAY,
                disk_bw,
                disk_name,
                static_ip
            ],
        )?;
    }
    for (ask, owner, size) in [
        (ASK_30_LEFT, BOB_ID, 40),
        (ASK_30_LEFT, GUSTAV_ID, 30),
        (ASK_FULL, HEIDI_ID, 50),
    ] {
        conn.execute(
            "INSERT INTO volumes (ask_id, owner_id, size, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![ask, owner, size, now - DAY],
        )?;
    }
    // alice's volumes take ids below the sequence, so the next volume is still 20118484.
    struct AliceVolume {
        id: i64,
        /// GB.
        size: i64,
        label: Option<&'static str>,
        age_days: f64,
    }
    for AliceVolume {
        id,
        size,
        label,
        age_days,
    } in [
        AliceVolume {
            id: ALICE_VOLUME_IN_USE,
            size: 30,
            label: Some("datasets"),
            age_days: 20.0,
        },
        AliceVolume {
            id: ALICE_VOLUME_FREE,
            size: 10,
            label: None,
            age_days: 3.0,
        },
    ] {
        conn.execute(
            "INSERT INTO volumes (id, ask_id, owner_id, size, created_at, label)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                id,
                ASK_ALICE_VOLUMES,
                ALICE_ID,
                size,
                now - age_days * DAY,
                label
            ],
        )?;
    }
    conn.execute(
        "INSERT INTO instances (id, owner_id, machine_id, volume_id, status)
         VALUES (?1, ?2, 2003, ?3, 'stopped')",
        params![ALICE_INSTANCE, ALICE_ID, ALICE_VOLUME_IN_USE],
    )?;
    Ok(())
}

/// alice's webhook, subscribed to [`ALICE_WEBHOOK_TYPES`] with their webhook channel on.
pub const ALICE_WEBHOOK: i64 = 1;
pub const ALICE_WEBHOOK_URL: &str = "https://hooks.example.com/gpudeck/alice";
pub const ALICE_WEBHOOK_TYPES: [&str; 2] = ["host:machine_offline", "host:machine_error"];
/// bob's webhook: proves that webhooks are private to their user.
pub const BOB_WEBHOOK: i64 = 2;
pub const BOB_WEBHOOK_URL: &str = "https://bob.example.net/hooks/vast";
/// alice's webhook to an address on her own network: stored (as the public service
/// stores it), but every delivery to it is refused.
pub const ALICE_LAN_WEBHOOK: i64 = 3;
pub const ALICE_LAN_WEBHOOK_URL: &str = "https://192.168.1.20/vast-hooks";

/// Two webhooks of alice's and one of bob's (spec fleet-health §3.4). Their secrets are random:
/// nothing ever shows a stored secret.
fn seed_webhooks(conn: &Connection, now: f64) -> Result<(), DbError> {
    let webhooks = [
        (
            ALICE_WEBHOOK,
            ALICE_ID,
            "Ops pager",
            ALICE_WEBHOOK_URL,
            &ALICE_WEBHOOK_TYPES[..],
        ),
        (
            BOB_WEBHOOK,
            BOB_ID,
            "Bob's alerts",
            BOB_WEBHOOK_URL,
            &["host:machine_offline"][..],
        ),
        (
            ALICE_LAN_WEBHOOK,
            ALICE_ID,
            "Office bridge (LAN)",
            ALICE_LAN_WEBHOOK_URL,
            &["host:maintenance_scheduled"][..],
        ),
    ];
    for (id, user, name, url, types) in webhooks {
        conn.execute(
            "INSERT INTO webhooks (id, user_id, name, webhook_url, event_types, secret, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
            params![
                id,
                user,
                name,
                url,
                serde_json::Value::from(types.to_vec()).to_string(),
                hex::encode(crate::keys::generate_secret()),
                now - 7.0 * DAY
            ],
        )?;
        for key in types {
            conn.execute(
                "INSERT INTO notification_preferences (user_id, key, channel, enabled)
                 VALUES (?1, ?2, 'webhooks', 1)",
                params![user, key],
            )?;
        }
    }
    Ok(())
}

// Renter reports and earnings (fleet-health N24, N34).

/// alice's machine whose reports are rising: three, 10 days, 30 hours and 2 hours old (two
/// in the last 7 days, as N1's counts say); the newest one's message is [`MARKUP`].
pub const REPORTED_MACHINE: i64 = 1058;
/// Machines with one report, 10 days old (the generated ref's example): alice's 1012, 1035,
/// 1081 and 1104, and bob's 2001.
pub const ONE_REPORT_MACHINES: [i64; 5] = [1012, 1035, 1081, 1104, 2001];
/// The problem and message of the old single reports.
pub const OLD_REPORT: (&str, &str) = (
    "Machine Performance Is Less Than Expected",
    "GPU utilization is inconsistent.",
);
/// Earnings are stored for this many whole UTC days before seeding; later days read as 0.
pub const EARNINGS_DAYS: i64 = 60;

fn seed_reports_and_earnings(conn: &Connection, now: f64) -> Result<(), DbError> {
    use crate::db::reports::{add_report, NewReport};
    let report =
        |machine_id, age_hours: f64, (problem, message): (&'static str, &'static str)| NewReport {
            machine_id,
            reporter_id: GUSTAV_ID,
            instance_id: None,
            problem,
            message,
            created_at: now - age_hours * HOUR,
        };
    let mut reports: Vec<NewReport<'static>> = ONE_REPORT_MACHINES
        .into_iter()
        .map(|id| report(id, 240.0, OLD_REPORT))
        .collect();
    reports.extend([
        report(
            REPORTED_MACHINE,
            240.0,
            (
                "Unable To Start Instance",
                "Stuck at \"loading\" for an hour.",
            ),
        ),
        report(
            REPORTED_MACHINE,
            30.0,
            (
                "Machine Has Port Issues",
                "Port 22 refused – ssh unreachable 🌀",
            ),
        ),
        report(REPORTED_MACHINE, 2.0, ("Other", MARKUP)),
    ]);
    for new in &reports {
        add_report(conn, new)?;
    }
    seed_earnings(conn, now)
}

/// [`EARNINGS_DAYS`] of earnings per machine, deterministically (fleet-health §4): GPU
/// earnings around `earn_day`, storage and bandwidth per GPU while the machine is rented,
/// nothing from an offline machine's offline day on (a day without a row earned nothing).
fn seed_earnings(conn: &Connection, now: f64) -> Result<(), DbError> {
    let today = gpudeck_wire::earnings::day_of(now);
    conn.execute(
        "WITH RECURSIVE days(day) AS (
             SELECT ?1 UNION ALL SELECT day + 1 FROM days WHERE day < ?2
         ),
         scope AS (
             SELECT m.id, m.num_gpus, m.earn_day, m.offline_since,
                    EXISTS (SELECT 1 FROM contracts c WHERE c.machine_id = m.id) AS rented
             FROM machines m
         )
         INSERT INTO machine_earnings
             (machine_id, day, gpu_earn, sto_earn, bwu_earn, bwd_earn, sla_earn)
         SELECT s.id, d.day,
                ROUND(s.earn_day * (0.75 + 0.05 * ((s.id + d.day) % 6)), 4),
                s.rented * 0.05 * s.num_gpus, s.rented * 0.01 * s.num_gpus,
                s.rented * 0.005 * s.num_gpus, 0
         FROM scope s CROSS JOIN days d
         WHERE s.offline_since IS NULL OR d.day < CAST(s.offline_since / 86400 AS INTEGER)",
        params![today - EARNINGS_DAYS, today - 1],
    )?;
    Ok(())
}
