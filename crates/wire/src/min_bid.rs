//! The interruptible floor (fleet-health N35): a machine's minimum price for interruptible
//! rentals, changed alone, without resending its offer (which N22 would need).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Body of `PUT /machines/{id}/minbid/` (N35) as the official client sends it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MinBidRequest {
    /// Ignored by the service, whatever it is; the client sends `me`.
    #[serde(default)]
    pub client_id: Option<Value>,
    /// $/GPU-hour, above 0 (a numeric string is not a number).
    #[cfg_attr(feature = "openapi", schema(value_type = f64, example = 0.25))]
    pub price: Value,
}

impl MinBidRequest {
    /// The floor `price`, sent as the client sends it.
    pub fn new(price: f64) -> Self {
        MinBidRequest {
            client_id: Some("me".into()),
            price: price.into(),
        }
    }
}

/// Answer of N35. The new floor is not in it: read N2 again for `min_bid_price`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MinBidResponse {
    pub success: bool,
    /// The request body, echoed.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub you_sent: Option<Value>,
}

/// Why N35 refused the price: 422 `invalid_args`, in the generated ref's words.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum MinBidRefusal {
    /// `price` absent or null.
    #[error("Missing argument: min_bid.")]
    Missing,
    #[error("min_bid must be a number.")]
    NotANumber,
    #[error("min_bid must be greater than 0.")]
    NotPositive,
    /// Above `2 * 0.1 * gpu_tflops`; checked only once the machine is known to exist.
    #[error("min_bid must be <= {} (2 * 0.1 * gpu_tflops).", four_places(*.max))]
    AboveCeiling { max: f64 },
}

/// `amount` with at most 4 decimals and no trailing zeros: `13.4`, `0.1235`, `7`.
fn four_places(amount: f64) -> String {
    let text = format!("{amount:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The price of an N35 body: a JSON number above 0.
pub fn read_price(body: &Map<String, Value>) -> Result<f64, MinBidRefusal> {
    match body.get("price") {
        None | Some(Value::Null) => Err(MinBidRefusal::Missing),
        Some(Value::Number(number)) => match number.as_f64() {
            Some(price) if price > 0.0 => Ok(price),
            _ => Err(MinBidRefusal::NotPositive),
        },
        Some(_) => Err(MinBidRefusal::NotANumber),
    }
}

/// The highest floor the service takes for a machine: `2 * 0.1 * gpu_tflops`, where the
/// reference server reads `gpu_tflops` as the machine's `total_flops` per GPU, because the
/// price is per GPU (project rule; whether the public service means per GPU is uncertain).
/// `None` (no bound) when `total_flops` is not known.
pub fn ceiling(total_flops: Option<f64>, num_gpus: i64) -> Option<f64> {
    total_flops
        .filter(|_| num_gpus >= 1)
        .map(|total| 2.0 * 0.1 * total / num_gpus as f64)
}

/// Refuses `price` above `ceiling`, if there is one.
pub fn check_ceiling(price: f64, ceiling: Option<f64>) -> Result<(), MinBidRefusal> {
    match ceiling {
        Some(max) if price > max => Err(MinBidRefusal::AboveCeiling { max }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn price(body: Value) -> Result<f64, MinBidRefusal> {
        read_price(body.as_object().unwrap())
    }

    #[test]
    fn the_price_is_a_number_above_zero() {
        assert_eq!(price(json!({"client_id": "me", "price": 0.25})), Ok(0.25));
        assert_eq!(price(json!({"price": 3})), Ok(3.0));
        assert_eq!(
            price(json!({"client_id": "me", "price": null})),
            Err(MinBidRefusal::Missing)
        );
        assert_eq!(price(json!({})), Err(MinBidRefusal::Missing));
        for bad in [json!("0.25"), json!(true), json!([0.25]), json!({"v": 1})] {
            assert_eq!(
                price(json!({"price": bad})),
                Err(MinBidRefusal::NotANumber),
                "{bad}"
            );
        }
        for bad in [json!(0), json!(-0.0), json!(-1), json!(-1e300)] {
            assert_eq!(
                price(json!({"price": bad})),
                Err(MinBidRefusal::NotPositive),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_ceiling_is_a_fifth_of_the_tflops_per_gpu() {
        // 8 × H100 SXM (67.0 each): 13.4 per GPU-hour.
        let h100 = ceiling(Some(536.0), 8);
        assert_eq!(h100.map(four_places).as_deref(), Some("13.4"));
        assert_eq!(check_ceiling(13.4, h100), Ok(()));
        assert_eq!(
            check_ceiling(13.41, h100),
            Err(MinBidRefusal::AboveCeiling { max: h100.unwrap() })
        );
        assert_eq!(ceiling(None, 8), None);
        assert_eq!(check_ceiling(1e300, None), Ok(()));
    }

    #[test]
    fn refusals_say_the_generated_refs_words() {
        assert_eq!(
            MinBidRefusal::AboveCeiling {
                max: 2.0 * 0.1 * 35.6
            }
            .to_string(),
            "min_bid must be <= 7.12 (2 * 0.1 * gpu_tflops)."
        );
        assert_eq!(
            MinBidRefusal::AboveCeiling { max: 0.123_456 }.to_string(),
            "min_bid must be <= 0.1235 (2 * 0.1 * gpu_tflops)."
        );
        assert_eq!(
            MinBidRefusal::AboveCeiling { max: 7.0 }.to_string(),
            "min_bid must be <= 7 (2 * 0.1 * gpu_tflops)."
        );
        assert_eq!(
            MinBidRefusal::Missing.to_string(),
            "Missing argument: min_bid."
        );
    }

    #[test]
    fn the_console_sends_what_the_client_sends() {
        assert_eq!(
            serde_json::to_value(MinBidRequest::new(0.25)).unwrap(),
            json!({"client_id": "me", "price": 0.25})
        );
    }
}
