//! Reading a number a person typed, or a server sent as text, without Rust's float parser.
//!
//! `str::parse::<f64>` links core's table of powers of five (10.4 KB, random bits that
//! brotli cannot shrink) into the main module, which every page downloads first. The
//! browser already reads numbers: [`parse_decimal`] checks the text against the grammar
//! `str::parse::<f64>` accepts and lets JavaScript's `parseFloat` read it, which rounds to
//! the same nearest double. Natively (the unit tests) it is `str::parse` itself.

/// What `str::parse::<f64>` gives for `text`, as an `Option`: an optional sign, then
/// digits with an optional point and exponent (`12`, `-0.5`, `.5`, `5.`, `1e-3`), or
/// `inf`, `infinity` or `nan` in any case. No spaces, no `_`, no hexadecimal.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let negative = text.starts_with('-');
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let special =
        if unsigned.eq_ignore_ascii_case("inf") || unsigned.eq_ignore_ascii_case("infinity") {
            Some(f64::INFINITY)
        } else if unsigned.eq_ignore_ascii_case("nan") {
            Some(f64::NAN)
        } else {
            None
        };
    match special {
        Some(value) if negative => Some(-value),
        Some(value) => Some(value),
        None => is_decimal(unsigned).then(|| read(text)).flatten(),
    }
}

/// Digits with an optional point and exponent, at least one digit before the exponent.
fn is_decimal(unsigned: &str) -> bool {
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let exponent_reads = exponent.is_none_or(|exponent| {
        let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        !exponent.is_empty() && digits(exponent)
    });
    !(whole.is_empty() && fraction.is_empty())
        && digits(whole)
        && digits(fraction)
        && exponent_reads
}

/// Reads text [`is_decimal`] accepted, with its sign.
#[cfg(target_arch = "wasm32")]
fn read(text: &str) -> Option<f64> {
    Some(js_sys::parse_float(text))
}

/// Reads text [`is_decimal`] accepted, with its sign.
#[cfg(not(target_arch = "wasm32"))]
fn read(text: &str) -> Option<f64> {
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts on each side of the grammar's edges.
    const TEXTS: &[&str] = &[
        "0",
        "12",
        "-0.5",
        "+3",
        ".5",
        "5.",
        "1e3",
        "1E-3",
        "2.5e+10",
        "1e400",
        "-1e-400",
        "0.1",
        "123456789012345678901234567890",
        "inf",
        "-Infinity",
        "NaN",
        "+nan",
        "INF",
        "",
        ".",
        "-",
        "+",
        "e3",
        "1e",
        "1e+",
        "1.2.3",
        "1..2",
        " 1",
        "1 ",
        "1_000",
        "0x10",
        "1,5",
        "--1",
        "+-1",
        "infinit",
        "nanx",
        "١٢",
        "1e3.5",
        "١",
        "5%",
        "$5",
    ];

    #[test]
    fn accepts_exactly_what_rusts_parser_accepts() {
        for text in TEXTS {
            assert_eq!(
                parse_decimal(text).is_some(),
                text.parse::<f64>().is_ok(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn reads_the_same_value() {
        for text in TEXTS {
            let ours = parse_decimal(text).map(f64::to_bits);
            let rusts = text.parse::<f64>().ok().map(f64::to_bits);
            if !text.to_ascii_lowercase().contains("nan") {
                assert_eq!(ours, rusts, "{text:?}");
            }
        }
        assert!(parse_decimal("nan").is_some_and(f64::is_nan));
    }
}
