//! The offer search as a person states it and as the address keeps it: size wanted,
//! highest price, lowest reliability, location text and order, each one query parameter,
//! so a reload, a link or Back shows the same search. Pure: unit-tested natively.

use crate::decimal::parse_decimal;
use crate::domain::form_problem::optional_field;
use gpudeck_wire::{Lenient, VolumeOffer, VolumeSearchRequest, Whole};
use serde_json::json;

/// The size priced when none is given, in GB.
pub const DEFAULT_SIZE_GB: i64 = 10;
/// Offers asked for when a location narrows them here: the server's most, so that the
/// location is looked for among all of them, not only the first 64.
const LIMIT_WITH_LOCATION: i64 = 1000;

/// The address's parameter for each part of the search.
pub const SIZE: &str = "size";
pub const MAX_PRICE: &str = "max_price";
pub const MIN_RELIABILITY: &str = "min_reliability";
pub const LOCATION: &str = "location";
pub const ORDER: &str = "order";
pub const ANY_HOST: &str = "any_host";

/// The order of the answer of N10 (search volume offers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OfferOrder {
    /// The server's own default (`score`, which is reliability).
    #[default]
    Reliability,
    Price,
    FreeSpace,
}

impl OfferOrder {
    pub const ALL: [OfferOrder; 3] = [
        OfferOrder::Reliability,
        OfferOrder::Price,
        OfferOrder::FreeSpace,
    ];

    /// In the address.
    pub fn param(self) -> &'static str {
        match self {
            OfferOrder::Reliability => "reliability",
            OfferOrder::Price => "price",
            OfferOrder::FreeSpace => "space",
        }
    }

    pub fn from_param(text: &str) -> Option<OfferOrder> {
        OfferOrder::ALL.into_iter().find(|o| o.param() == text)
    }

    pub fn label(self) -> &'static str {
        match self {
            OfferOrder::Reliability => "Reliability, highest first",
            OfferOrder::Price => "Price, lowest first",
            OfferOrder::FreeSpace => "Free space, largest first",
        }
    }

    /// N10's `order` term.
    fn term(self) -> (&'static str, &'static str) {
        match self {
            OfferOrder::Reliability => ("reliability", "desc"),
            OfferOrder::Price => ("storage_cost", "asc"),
            OfferOrder::FreeSpace => ("disk_space", "desc"),
        }
    }
}

/// A search. Parts left empty do not narrow it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OfferFilters {
    /// GB wanted: offers with less free space are left out, and prices are for this size.
    pub size_gb: Option<i64>,
    /// Highest $/GB/month.
    pub max_price: Option<f64>,
    /// Lowest reliability, in percent.
    pub min_reliability: Option<f64>,
    /// Text looked for in the offer's location, ignoring case.
    pub location: String,
    pub order: OfferOrder,
    /// Drops the official client's defaults (verified, not external, at least 1 GB free),
    /// as its `--no-default` does.
    pub any_host: bool,
}

impl OfferFilters {
    /// The search in the address; values that do not read are left out, as if absent.
    pub fn from_query(get: impl Fn(&str) -> Option<String>) -> Self {
        let number = |key| get(key).and_then(|t| parse_decimal(t.trim()));
        OfferFilters {
            size_gb: get(SIZE)
                .and_then(|t| t.trim().parse().ok())
                .filter(|&gb| gb >= 1),
            max_price: number(MAX_PRICE).filter(|p| p.is_finite() && *p >= 0.0),
            min_reliability: number(MIN_RELIABILITY).filter(|r| (0.0..=100.0).contains(r)),
            location: get(LOCATION).unwrap_or_default().trim().to_owned(),
            order: get(ORDER)
                .and_then(|t| OfferOrder::from_param(&t))
                .unwrap_or_default(),
            any_host: get(ANY_HOST).as_deref() == Some("1"),
        }
    }

    /// Each parameter's value in the address; `None` removes it.
    pub fn to_query(&self) -> [(&'static str, Option<String>); 6] {
        let default_order = self.order == OfferOrder::default();
        [
            (SIZE, self.size_gb.map(|gb| gb.to_string())),
            (MAX_PRICE, self.max_price.map(|p| p.to_string())),
            (MIN_RELIABILITY, self.min_reliability.map(|r| r.to_string())),
            (
                LOCATION,
                Some(self.location.clone()).filter(|l| !l.is_empty()),
            ),
            (
                ORDER,
                (!default_order).then(|| self.order.param().to_owned()),
            ),
            (ANY_HOST, self.any_host.then(|| "1".to_owned())),
        ]
    }

    /// The size prices are shown for.
    pub fn size_wanted(&self) -> i64 {
        self.size_gb.unwrap_or(DEFAULT_SIZE_GB)
    }

    /// N10's body: the client's defaults (unless dropped), then each part given. Numbers
    /// go as numbers; the location is matched here, as N10 only compares whole values.
    pub fn request(&self) -> VolumeSearchRequest {
        let mut request = VolumeSearchRequest {
            order: Some(Lenient::Valid(vec![(
                self.order.term().0.to_owned(),
                self.order.term().1.to_owned(),
            )])),
            allocated_storage: Some(Lenient::Valid(self.size_wanted() as f64)),
            limit: (!self.location.is_empty())
                .then_some(Lenient::Valid(Whole(LIMIT_WITH_LOCATION))),
            ..VolumeSearchRequest::default()
        };
        let filters = &mut request.filters;
        if !self.any_host {
            filters.insert("verified".into(), json!({"eq": true}));
            filters.insert("external".into(), json!({"eq": false}));
            filters.insert("disk_space".into(), json!({"gte": 1}));
        }
        if let Some(gb) = self.size_gb {
            filters.insert("disk_space".into(), json!({"gte": gb}));
        }
        if let Some(price) = self.max_price {
            filters.insert("storage_cost".into(), json!({"lte": price}));
        }
        if let Some(percent) = self.min_reliability {
            filters.insert("reliability".into(), json!({"gte": percent / 100.0}));
        }
        request
    }

    /// Whether `offer` is in the location asked for (any, when none is).
    pub fn in_location(&self, offer: &VolumeOffer) -> bool {
        self.location.is_empty()
            || offer
                .geolocation
                .as_deref()
                .is_some_and(|g| g.to_lowercase().contains(&self.location.to_lowercase()))
    }
}

/// What `gb` GB cost a month at `storage_cost` $/GB/month.
pub fn monthly_cost(storage_cost: f64, gb: i64) -> f64 {
    storage_cost * gb as f64
}

/// The search form's text, read into a search, or what is wrong with each field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilterText {
    pub size: String,
    pub max_price: String,
    pub min_reliability: String,
}

/// The problems of a search form, per field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilterProblems {
    pub size: Option<String>,
    pub max_price: Option<String>,
    pub min_reliability: Option<String>,
}

impl FilterText {
    pub fn of(filters: &OfferFilters) -> Self {
        FilterText {
            size: filters.size_gb.map(|gb| gb.to_string()).unwrap_or_default(),
            max_price: filters.max_price.map(|p| p.to_string()).unwrap_or_default(),
            min_reliability: filters
                .min_reliability
                .map(|r| r.to_string())
                .unwrap_or_default(),
        }
    }

    /// The numbers typed, each checked; empty fields do not narrow the search.
    #[allow(clippy::type_complexity)]
    pub fn read(&self) -> Result<(Option<i64>, Option<f64>, Option<f64>), FilterProblems> {
        let size = optional_field(&self.size, |t| match t.parse::<i64>() {
            Ok(gb) if gb >= 1 => Ok(gb),
            _ => Err("The size must be a whole number of GB, at least 1.".to_owned()),
        });
        let max_price = optional_field(&self.max_price, |t| match parse_decimal(t) {
            Some(p) if p.is_finite() && p >= 0.0 => Ok(p),
            _ => Err("The price must be a number of dollars, like 0.15.".to_owned()),
        });
        let min_reliability = optional_field(&self.min_reliability, |t| {
            match parse_decimal(t.trim_end_matches('%').trim()) {
                Some(r) if (0.0..=100.0).contains(&r) => Ok(r),
                _ => Err("The reliability must be a percentage from 0 to 100.".to_owned()),
            }
        });
        match (size, max_price, min_reliability) {
            (Ok(s), Ok(p), Ok(r)) => Ok((s, p, r)),
            (s, p, r) => Err(FilterProblems {
                size: s.err(),
                max_price: p.err(),
                min_reliability: r.err(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn an_address_without_a_search_asks_what_the_served_page_asked_first() {
        let filters = OfferFilters::from_query(query(&[]));
        let body = serde_json::to_string(&filters.request()).unwrap();
        assert_eq!(Some(body.as_str()), gpudeck_wire::reads::VOLUME_OFFERS.body);
        // Any field of the search in the address changes the request: the served page
        // leaves the search to the page then.
        let depends_on = gpudeck_pages::VOLUMES.reads_depend_on;
        for field in [SIZE, MAX_PRICE, MIN_RELIABILITY, LOCATION, ORDER, ANY_HOST] {
            assert!(depends_on.contains(&field), "{field}");
        }
    }

    fn query(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |key| map.get(key).cloned()
    }

    #[test]
    fn the_address_round_trips_and_ignores_what_does_not_read() {
        let filters = OfferFilters {
            size_gb: Some(50),
            max_price: Some(0.2),
            min_reliability: Some(95.0),
            location: "Sweden".into(),
            order: OfferOrder::Price,
            any_host: true,
        };
        let pairs: Vec<(&str, String)> = filters
            .to_query()
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k, v)))
            .collect();
        assert_eq!(
            pairs,
            [
                ("size", "50".to_owned()),
                ("max_price", "0.2".to_owned()),
                ("min_reliability", "95".to_owned()),
                ("location", "Sweden".to_owned()),
                ("order", "price".to_owned()),
                ("any_host", "1".to_owned()),
            ]
        );
        let borrowed: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_eq!(OfferFilters::from_query(query(&borrowed)), filters);

        let odd = OfferFilters::from_query(query(&[
            ("size", "0"),
            ("max_price", "cheap"),
            ("min_reliability", "120"),
            ("order", "random"),
            ("any_host", "yes"),
        ]));
        assert_eq!(odd, OfferFilters::default());
        // The default search leaves the address empty.
        assert!(OfferFilters::default()
            .to_query()
            .iter()
            .all(|(_, v)| v.is_none()));
    }

    #[test]
    fn the_request_keeps_the_clients_defaults_and_adds_each_part() {
        let plain = serde_json::to_value(OfferFilters::default().request()).unwrap();
        assert_eq!(
            plain,
            json!({
                "verified": {"eq": true}, "external": {"eq": false}, "disk_space": {"gte": 1},
                "order": [["reliability", "desc"]], "allocated_storage": 10.0
            })
        );
        let narrow = OfferFilters {
            size_gb: Some(50),
            max_price: Some(0.2),
            min_reliability: Some(95.0),
            location: "se".into(),
            order: OfferOrder::FreeSpace,
            any_host: true,
        };
        assert_eq!(
            serde_json::to_value(narrow.request()).unwrap(),
            json!({
                "disk_space": {"gte": 50}, "storage_cost": {"lte": 0.2},
                "reliability": {"gte": 0.95}, "order": [["disk_space", "desc"]],
                "allocated_storage": 50.0, "limit": 1000
            })
        );
        let by_price = OfferFilters {
            order: OfferOrder::Price,
            ..OfferFilters::default()
        };
        assert_eq!(
            serde_json::to_value(by_price.request()).unwrap()["order"],
            json!([["storage_cost", "asc"]])
        );
    }

    #[test]
    fn prices_are_monthly_for_the_size_wanted() {
        assert!((monthly_cost(0.4, 10) - 4.0).abs() < 1e-9);
        assert!((monthly_cost(0.05, 1000) - 50.0).abs() < 1e-9);
        assert_eq!(OfferFilters::default().size_wanted(), DEFAULT_SIZE_GB);
    }

    #[test]
    fn the_form_names_each_field_that_does_not_read() {
        let good = FilterText {
            size: " 20 ".into(),
            max_price: "0.15".into(),
            min_reliability: "90%".into(),
        };
        assert_eq!(good.read(), Ok((Some(20), Some(0.15), Some(90.0))));
        assert_eq!(FilterText::default().read(), Ok((None, None, None)));
        let bad = FilterText {
            size: "1.5".into(),
            max_price: "-1".into(),
            min_reliability: "101".into(),
        };
        let problems = bad.read().unwrap_err();
        assert!(problems.size.unwrap().contains("whole number of GB"));
        assert!(problems.max_price.unwrap().contains("number of dollars"));
        assert!(problems.min_reliability.unwrap().contains("from 0 to 100"));
    }
}
