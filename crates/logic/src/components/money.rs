//! Money as people read it.

/// US dollars with thousands separators and cents: `$1,200.75`, `$0.00`, `-$5.00`.
/// Rounded to the cent first, so a balance of `-0.001` reads `$0.00`, not `-$0.00`.
pub fn format_usd(amount: f64) -> String {
    let cents = (amount * 100.0).round();
    let sign = if cents < 0.0 { "-" } else { "" };
    let cents = cents.abs() as u64;
    let digits = (cents / 100).to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{sign}${grouped}.{:02}", cents % 100)
}

/// A price per unit, which may be a fraction of a cent: at least two decimals and up to
/// four, without trailing zeros (`$0.05`, `$0.125`, `$0.0833`).
pub fn format_usd_rate(amount: f64) -> String {
    let text = format!("{:.4}", amount.abs());
    let (whole, decimals) = text.split_once('.').unwrap_or((&text, "00"));
    let mut decimals = decimals.trim_end_matches('0').to_owned();
    while decimals.len() < 2 {
        decimals.push('0');
    }
    let sign = if amount < 0.0 && text.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        "-"
    } else {
        ""
    };
    format!("{sign}${whole}.{decimals}")
}

#[cfg(test)]
mod tests {
    use super::{format_usd, format_usd_rate};

    #[test]
    fn rates_keep_fractions_of_a_cent() {
        assert_eq!(format_usd_rate(0.05), "$0.05");
        assert_eq!(format_usd_rate(0.125), "$0.125");
        assert_eq!(format_usd_rate(0.4), "$0.40");
        assert_eq!(format_usd_rate(1.0 / 12.0), "$0.0833");
        assert_eq!(format_usd_rate(3.0), "$3.00");
        assert_eq!(format_usd_rate(-0.5), "-$0.50");
        assert_eq!(format_usd_rate(-0.00001), "$0.00");
    }

    #[test]
    fn balances_read_as_us_dollars() {
        assert_eq!(format_usd(1200.75), "$1,200.75");
        assert_eq!(format_usd(0.0), "$0.00");
        assert_eq!(format_usd(-5.0), "-$5.00");
        assert_eq!(format_usd(25.5), "$25.50");
        assert_eq!(format_usd(1_234_567.891), "$1,234,567.89");
        assert_eq!(format_usd(-0.001), "$0.00");
        assert_eq!(format_usd(999.999), "$1,000.00");
    }
}
