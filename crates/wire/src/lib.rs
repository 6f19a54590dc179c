//! The wire format of the marketplace REST interface.
//!
//! This crate is the one definition of every request and response body, shared by the
//! console (compiled to wasm), the reference server and the tests. Fields follow
//! `shared/spec/marketplace-api.md`; unknown fields in responses are ignored so that the
//! console keeps working against the public service, which adds fields of its own.

pub mod accounts;
pub mod calendar;
pub mod demo;
pub mod earnings;
pub mod error;
pub mod fleet;
pub mod lenient;
pub mod listing;
pub mod machine_ids;
pub mod machines;
pub mod maintenance;
pub mod min_bid;
pub mod notifications;
pub mod operations;
pub mod paths;
pub mod permissions;
pub mod query;
pub mod rate_limits;
pub mod reads;
pub mod reports;
pub mod server;
pub mod team;
pub mod templates;
pub mod volumes;
pub mod whole_number;

pub use accounts::{
    is_volume_label, AcceptVolumeRequest, AcceptVolumeResponse, CreateSubaccountRequest,
    CreatedSubaccount, CurrentUser, DeleteTemplateRequest, DeleteTemplateResponse, KeyScope,
    ParentId, Subaccount, SubaccountList, MAX_VOLUME_LABEL_CHARS,
};
pub use earnings::{
    AccountBalance, DayEarningsRow, EarningsQuery, EarningsRefusal, EarningsScope, EarningsSummary,
    MachineEarnings, MachineEarningsRow,
};
pub use error::ErrorBody;
pub use fleet::{AnnouncedWindow, Machine, MachineList, MachineMaintenance, NumberOrText};
pub use lenient::{Lenient, Whole};
pub use listing::{
    EndChange, ListMachineRequest, ListMachineResponse, ListingChange, ListingRefusal,
    OfferDuration, TermChanges, UnlistMachineResponse,
};
pub use machine_ids::{
    parse_machine_ids, MachineIdsError, MachineIdsInput, MACHINE_IDS_PATTERN, MAX_MACHINE_IDS,
};
pub use machines::{DefragRequest, DefragResult, MaintenanceCategory, MaintenanceWindow};
pub use maintenance::{
    BatchCancelItem, BatchCancelRequest, BatchCancelResponse, BatchRefusal, BatchScheduleItem,
    BatchScheduleRefusal, BatchScheduleRequest, BatchScheduleResponse,
    CancelMachineMaintenanceResponse, CancelMaintenanceRequest, CancelMaintenanceResponse,
    IdListRefusal, ScheduleMaintenance, ScheduleMaintenanceRequest, ScheduleMaintenanceResponse,
    ScheduleRefusal, Sdate, WindowPlan,
};
pub use min_bid::{MinBidRefusal, MinBidRequest, MinBidResponse};
pub use permissions::{PermissionGroup, Permissions};
pub use query::{Condition, Conditions, Operator};
pub use reports::RenterReport;
pub use server::ServerInfo;
pub use team::{
    Invitation, InviteRequest, MemberRoleReplaced, MemberRoleRequest, MessageAnswer,
    RemoveRoleRequest, ReplaceMemberRoleRequest, RoleRequest, RoleUpdated, StatusAnswer,
    TeamMember, TeamRole, TeamRoleEntry,
};
pub use templates::{Template, TemplateLibrary, TemplateSearch};
pub use volumes::{
    DeleteVolumeRequest, DeleteVolumeResponse, Volume, VolumeInstance, VolumeList, VolumeOffer,
    VolumeOfferList, VolumeSearchRequest,
};
