//! Team-role permissions: the one model of the `permissions` object. The console's grid,
//! summary and role editor and the server's checks all read it through [`Permissions`].
//!
//! The observed shape is `{"api": {"instance_read": {}, ...}}` with route-level entries
//! such as `"api.instance.request_logs": {"constraints": {"id": {"eq": 1227}}}`. Nothing
//! more is specified, so reading never drops what it does not know: such parts land in
//! [`Permissions::unrecognised`], and writing the model gives back an equal object.

mod entry;
mod group;

pub use entry::{value_text, Constraint, ConstraintOperator, Entry};
pub use group::{Access, PermissionGroup};

use serde_json::{Map, Value};

/// Where an entry sits in the permissions value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// At the top level: `"api.instance.request_logs": …`.
    Top,
    /// Inside `"api"`.
    InApi,
    /// The whole value, when it is not an object at all.
    Whole,
}

/// A whole group granted, with its entry as it came (`{}` for a plain grant).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupGrant {
    pub group: PermissionGroup,
    pub entry: Value,
}

impl GroupGrant {
    /// The group granted without conditions.
    pub fn new(group: PermissionGroup) -> Self {
        GroupGrant {
            group,
            entry: Value::Object(Map::new()),
        }
    }

    /// Granted without constraints or anything else: `{}`.
    pub fn is_plain(&self) -> bool {
        self.entry.as_object().is_some_and(Map::is_empty)
    }

    /// The entry's constraints; none when the entry has another shape.
    pub fn constraints(&self) -> Vec<Constraint> {
        Entry::read(&self.entry)
            .map(|entry| entry.constraints)
            .unwrap_or_default()
    }

    /// What the entry holds besides readable constraints: the whole entry when it has
    /// another shape, `None` for `{}`.
    pub fn extra(&self) -> Option<Value> {
        match Entry::read(&self.entry) {
            Some(entry) => entry.extra(),
            None => Some(self.entry.clone()),
        }
    }
}

/// A single route granted, e.g. `api.instance.request_logs`, with its constraints.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteGrant {
    pub place: Place,
    pub name: String,
    pub entry: Entry,
}

/// A part the model does not understand, kept as it came.
#[derive(Debug, Clone, PartialEq)]
pub struct UnrecognisedPart {
    pub place: Place,
    pub key: String,
    pub value: Value,
}

impl UnrecognisedPart {
    /// Its address: `api.quantum_write`, `ui`, or empty for the whole value.
    pub fn path(&self) -> String {
        match self.place {
            Place::Top | Place::Whole => self.key.clone(),
            Place::InApi => format!("api.{}", self.key),
        }
    }
}

/// The permissions object read into groups, routes and everything else.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Permissions {
    /// Sorted by group.
    pub groups: Vec<GroupGrant>,
    /// Sorted by name.
    pub routes: Vec<RouteGrant>,
    /// Sorted by path.
    pub unrecognised: Vec<UnrecognisedPart>,
    /// Whether to write an `"api"` object even when nothing is in it, as it came.
    pub has_api: bool,
}

impl Permissions {
    /// Reads any value: null as nothing granted, an object into its parts, anything else
    /// as one unrecognised part at [`Place::Whole`].
    pub fn read(value: &Value) -> Self {
        let mut read = Permissions::default();
        let top = match value {
            Value::Null => return read,
            Value::Object(top) => top,
            other => {
                read.keep(Place::Whole, "", other);
                return read;
            }
        };
        for (key, value) in top {
            match value {
                Value::Object(api) if key == "api" => {
                    read.has_api = true;
                    for (key, value) in api {
                        read.read_in_api(key, value);
                    }
                }
                _ if key.starts_with("api.") => read.read_route(Place::Top, key, value),
                _ => read.keep(Place::Top, key, value),
            }
        }
        // serde_json may or may not keep the sender's order; sort so every reader agrees.
        read.groups.sort_by_key(|grant| grant.group);
        read.routes.sort_by(|a, b| a.name.cmp(&b.name));
        read.unrecognised.sort_by_key(UnrecognisedPart::path);
        read
    }

    fn read_in_api(&mut self, key: &str, value: &Value) {
        if let Some(group) = PermissionGroup::parse(key) {
            self.groups.push(GroupGrant {
                group,
                entry: value.clone(),
            });
        } else if key.contains('.') {
            self.read_route(Place::InApi, key, value);
        } else {
            self.keep(Place::InApi, key, value);
        }
    }

    fn read_route(&mut self, place: Place, name: &str, value: &Value) {
        match Entry::read(value) {
            Some(entry) => self.routes.push(RouteGrant {
                place,
                name: name.to_owned(),
                entry,
            }),
            None => self.keep(place, name, value),
        }
    }

    fn keep(&mut self, place: Place, key: &str, value: &Value) {
        self.unrecognised.push(UnrecognisedPart {
            place,
            key: key.to_owned(),
            value: value.clone(),
        });
    }

    /// The permissions value: equal to the one read when nothing was changed.
    pub fn to_value(&self) -> Value {
        if let Some(whole) = self.unrecognised.iter().find(|p| p.place == Place::Whole) {
            return whole.value.clone();
        }
        let mut top = Map::new();
        let mut api = Map::new();
        for grant in &self.groups {
            api.insert(grant.group.as_str().to_owned(), grant.entry.clone());
        }
        let routes = self
            .routes
            .iter()
            .map(|route| (route.place, &route.name, route.entry.to_value()));
        let kept = self
            .unrecognised
            .iter()
            .map(|part| (part.place, &part.key, part.value.clone()));
        for (place, key, value) in routes.chain(kept) {
            let target = if place == Place::InApi {
                &mut api
            } else {
                &mut top
            };
            target.insert(key.clone(), value);
        }
        if self.has_api || !api.is_empty() {
            top.insert("api".to_owned(), Value::Object(api));
        }
        Value::Object(top)
    }

    /// Whether the whole group is granted (with or without constraints).
    pub fn grants(&self, group: PermissionGroup) -> bool {
        self.group(group).is_some()
    }

    pub fn group(&self, group: PermissionGroup) -> Option<&GroupGrant> {
        self.groups.iter().find(|grant| grant.group == group)
    }

    /// Grants or withdraws a whole group; a group granted again starts without constraints.
    pub fn set_group(&mut self, group: PermissionGroup, granted: bool) {
        self.groups.retain(|grant| grant.group != group);
        if granted {
            self.groups.push(GroupGrant::new(group));
            self.groups.sort_by_key(|grant| grant.group);
        }
    }

    /// Every key the object has at `place`: under `api` the groups and whatever else sits
    /// there; at the top level the route entries and other parts (`api` itself is none).
    pub fn keys_at(&self, place: Place) -> impl Iterator<Item = &str> {
        let groups = self
            .groups
            .iter()
            .filter(move |_| place == Place::InApi)
            .map(|grant| grant.group.as_str());
        let routes = self
            .routes
            .iter()
            .filter(move |route| route.place == place)
            .map(|route| route.name.as_str());
        let kept = self
            .unrecognised
            .iter()
            .filter(move |part| part.place == place && !(place == Place::Top && part.key == "api"))
            .map(|part| part.key.as_str());
        groups.chain(routes).chain(kept)
    }

    /// Everything any of `all` grants, each group once. For checks: written out, a route
    /// two roles both name would appear once.
    pub fn union(all: impl IntoIterator<Item = Permissions>) -> Permissions {
        let mut union = Permissions::default();
        for permissions in all {
            for grant in permissions.groups {
                if !union.grants(grant.group) {
                    union.groups.push(grant);
                }
            }
            union.routes.extend(permissions.routes);
            union.unrecognised.extend(permissions.unrecognised);
            union.has_api |= permissions.has_api;
        }
        union.groups.sort_by_key(|grant| grant.group);
        union
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn paths(permissions: &Permissions) -> Vec<String> {
        permissions
            .unrecognised
            .iter()
            .map(UnrecognisedPart::path)
            .collect()
    }

    #[test]
    fn reads_the_observed_shape() {
        let read = Permissions::read(&json!({
            "api": {"misc": {}, "user_read": {}, "instance_read": {}, "instance_write": {}, "team_read": {}}
        }));
        assert!(read.grants(PermissionGroup::TeamRead));
        assert!(!read.grants(PermissionGroup::MachineWrite));
        assert_eq!(read.groups.len(), 5);
        assert!(read.routes.is_empty() && read.unrecognised.is_empty());
    }

    #[test]
    fn reads_route_entries_with_constraints() {
        let read = Permissions::read(&json!({
            "api": {"instance_read": {}},
            "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}, "size": {"lte": 5, "gte": 1}}}
        }));
        let route = &read.routes[0];
        assert_eq!(route.name, "api.instance.request_logs");
        assert_eq!(route.place, Place::Top);
        // Sorted by field, then operator, whatever order the server sent.
        assert_eq!(
            route.entry.written_constraints(),
            ["id = 1227", "size ≥ 1", "size ≤ 5"]
        );
        assert_eq!(route.entry.extra(), None);
    }

    #[test]
    fn keeps_what_it_does_not_know() {
        let read = Permissions::read(&json!({
            "api": {"instance_read": {"constraints": "odd", "note": 1}, "quantum_write": {}},
            "api.weird": {"constraints": {"id": {"between": [1, 2]}}},
            "ui": {"dark": true}
        }));
        let group = read.group(PermissionGroup::InstanceRead).unwrap();
        assert!(group.constraints().is_empty() && !group.is_plain());
        assert_eq!(
            group.extra(),
            Some(json!({"constraints": "odd", "note": 1}))
        );
        assert_eq!(paths(&read), ["api.quantum_write", "api.weird", "ui"]);

        let odd = Permissions::read(&json!([1, 2]));
        assert_eq!(paths(&odd), [""]);
        assert_eq!(odd.unrecognised[0].value, json!([1, 2]));
        assert_eq!(odd.to_value(), json!([1, 2]));
        assert_eq!(Permissions::read(&Value::Null), Permissions::default());
    }

    #[test]
    fn writing_gives_back_the_object_read() {
        for value in [
            json!({}),
            json!({"api": {}}),
            json!({"api": {"misc": {}, "team_read": {}}}),
            json!({"api": [], "ui": 1}),
            // The shapes wire-compat.md gives, then the odd ones around them.
            json!({"api": {"misc": {}, "user_read": {}, "instance_read": {}, "instance_write": {}, "team_read": {}}}),
            json!({"api.instance.request_logs": {"constraints": {"id": {"eq": 1227}}}}),
            json!({
                "api": {"billing_write": {"constraints": {"id": {"lte": 3}}}, "team.logs": 1},
                "api.empty": {"constraints": {}},
                "api.plain": 7,
                "api.listed": {"constraints": {"id": {"eq": [1]}}},
                "user": "x"
            }),
        ] {
            assert_eq!(Permissions::read(&value).to_value(), value);
        }
    }

    #[test]
    fn groups_toggle_and_a_regranted_group_starts_without_constraints() {
        let mut read =
            Permissions::read(&json!({"api": {"misc": {"constraints": {"id": {"eq": 1}}}}}));
        read.set_group(PermissionGroup::TeamWrite, true);
        assert!(read.group(PermissionGroup::TeamWrite).unwrap().is_plain());
        read.set_group(PermissionGroup::Misc, false);
        assert_eq!(read.to_value(), json!({"api": {"team_write": {}}}));
        read.set_group(PermissionGroup::Misc, true);
        assert_eq!(
            read.to_value(),
            json!({"api": {"misc": {}, "team_write": {}}})
        );
    }

    #[test]
    fn keys_at_each_place_name_what_sits_there() {
        let read = Permissions::read(&json!({
            "api": {"team_read": {}, "instance.logs": {}, "quantum_write": {}},
            "api.instance.request_logs": {},
            "ui": {}
        }));
        let keys = |place| read.keys_at(place).collect::<Vec<_>>();
        assert_eq!(
            keys(Place::InApi),
            ["team_read", "instance.logs", "quantum_write"]
        );
        assert_eq!(keys(Place::Top), ["api.instance.request_logs", "ui"]);
        let odd_api = Permissions::read(&json!({"api": 1}));
        assert_eq!(odd_api.keys_at(Place::Top).count(), 0);
    }

    #[test]
    fn a_union_grants_what_any_of_its_parts_grants() {
        let union = Permissions::union([
            Permissions::read(&json!({"api": {"instance_read": {}, "team_read": {}}})),
            Permissions::read(&json!({"api": {"team_read": {}}, "api.a.b": {}})),
        ]);
        let groups: Vec<_> = union.groups.iter().map(|g| g.group).collect();
        assert_eq!(
            groups,
            [PermissionGroup::InstanceRead, PermissionGroup::TeamRead]
        );
        assert_eq!(union.keys_at(Place::Top).collect::<Vec<_>>(), ["api.a.b"]);
        assert_eq!(Permissions::union([]), Permissions::default());
    }

    /// JSON built from the words a permissions object uses, so that the generated objects
    /// hit groups, routes, constraints and the odd shapes between them.
    fn permission_like_values() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..3000).prop_map(Value::from),
            (0.5f64..10.0).prop_map(Value::from),
            "[a-z0-9 ]{0,6}".prop_map(Value::String),
        ];
        let key = prop_oneof![
            Just("api".to_owned()),
            Just("constraints".to_owned()),
            Just("id".to_owned()),
            prop::sample::select(vec!["eq", "lte", "gte", "between"]).prop_map(str::to_owned),
            prop::sample::select(PermissionGroup::ALL.to_vec()).prop_map(|g| g.as_str().to_owned()),
            "(api\\.)?[a-z]{1,4}(\\.[a-z]{1,4})?",
        ];
        leaf.prop_recursive(4, 48, 5, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                prop::collection::btree_map(key.clone(), inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Every value but null (read as nothing granted) is written back as it came.
        #[test]
        fn any_value_round_trips(value in permission_like_values()) {
            prop_assume!(!value.is_null());
            prop_assert_eq!(Permissions::read(&value).to_value(), value);
        }

        /// Reading what was written gives the same model.
        #[test]
        fn reading_what_was_written_gives_the_same_model(value in permission_like_values()) {
            let read = Permissions::read(&value);
            prop_assert_eq!(Permissions::read(&read.to_value()), read);
        }

        /// A union grants a group exactly when one of its parts does.
        #[test]
        fn a_union_grants_a_group_when_a_part_does(
            first in permission_like_values(),
            second in permission_like_values(),
        ) {
            let parts = [Permissions::read(&first), Permissions::read(&second)];
            let union = Permissions::union(parts.clone());
            for group in PermissionGroup::ALL {
                prop_assert_eq!(union.grants(group), parts.iter().any(|p| p.grants(group)));
            }
        }
    }
}
