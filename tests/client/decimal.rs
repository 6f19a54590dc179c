//! `gpudeck::decimal::parse_decimal` in the browser, where JavaScript reads the number:
//! the same double as `str::parse::<f64>`, bit for bit, for every text it accepts.

use gpudeck::decimal::parse_decimal;
use wasm_bindgen_test::*;

/// Texts whose nearest double is hard to find: halfway cases, long digit strings, the
/// edges of the exponent range, subnormals.
const HARD: &[&str] = &[
    "0.1",
    "0.30000000000000004",
    "9007199254740993",
    "2.2250738585072011e-308",
    "2.2250738585072014e-308",
    "4.9406564584124654e-324",
    "2.4703282292062327e-324",
    "1.7976931348623157e308",
    "1.7976931348623159e308",
    "123456789012345678901234567890.123456789e-10",
    "0.000000000000000000000000000000000000000000001",
    "-0",
    "+0.0",
    "5.",
    ".5",
    "1E+2",
    "00012.50",
];

#[wasm_bindgen_test]
fn reads_what_rust_reads_bit_for_bit() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Random doubles written shortest, with every digit, and in exponent form.
    let mut texts: Vec<String> = HARD.iter().map(|t| (*t).to_owned()).collect();
    for _ in 0..2000 {
        let value = f64::from_bits(random());
        if value.is_finite() {
            texts.push(format!("{value}"));
            texts.push(format!("{value:e}"));
            texts.push(format!("{:.17e}", value));
        }
    }
    for text in &texts {
        let ours = parse_decimal(text).map(f64::to_bits);
        let rusts = text.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(ours, rusts, "{text}");
    }
}

#[wasm_bindgen_test]
fn refuses_what_rust_refuses() {
    for text in [
        "",
        " 1",
        "1 ",
        "0x10",
        "1_000",
        "1,5",
        "--1",
        "1e",
        ".",
        "Infinityx",
    ] {
        assert_eq!(parse_decimal(text), None, "{text:?}");
    }
}
