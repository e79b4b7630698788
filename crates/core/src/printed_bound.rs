//! Bounds printed the safe way. A lower bound written with `{:.3e}` is rounded to
//! nearest, so 0.99995792 prints as "1.000e0", above the distance it bounds: a printed
//! proof that is false. [`Below`] prints the nearest decimal at or below its value,
//! [`Above`] the nearest at or above, [`Outward`] a bracket widened both ways; each takes
//! the formatter's precision (`{:.3e}`, `{:.6}`, or none: 17 significant digits) like
//! the `f64` it wraps, so a call site changes `{lower:.3e}` into `{:.3e}` of
//! `Below(lower)` and nothing else.
//!
//! Exact: Rust formats an `f64` as the correctly rounded decimal of its exact binary
//! value, and parsing is monotone, so the decimal is on the wrong side exactly when its
//! parse is (checked against the exact expansion when the parse gives the value back).

use std::cmp::Ordering;
use std::fmt;

/// A lower bound: prints a decimal at or below the value (towards −∞).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Below(pub f64);

/// An upper bound: prints a decimal at or above the value (towards +∞).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Above(pub f64);

/// A bracket `[lower, upper]` printed outward: `[Below(lower), Above(upper)]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outward(pub f64, pub f64);

/// A value known to lie in `[lower, upper]`, printed as a measurement: the decimal both
/// ends round to (to nearest) when they agree, so every printed digit is right for any
/// value between them (0.5 bracketed by round-off prints "0.500000", not "0.500001");
/// otherwise the upper end, rounded up, as [`Above`] prints it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Within(pub f64, pub f64);

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    Down,
    Up,
}

#[derive(Clone, Copy)]
enum Style {
    /// `d.ddde±x`: digits after the point.
    Exponent(usize),
    /// `ddd.ddd`: digits after the point.
    Fixed(usize),
}

/// Significant digits after the point when the formatter gives no precision: enough to
/// tell every `f64` apart.
const DEFAULT_EXPONENT_DIGITS: usize = 16;

impl fmt::LowerExp for Below {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = f.precision().unwrap_or(DEFAULT_EXPONENT_DIGITS);
        pad_number(
            f,
            &directed(self.0, Style::Exponent(digits), Direction::Down),
        )
    }
}

impl fmt::LowerExp for Above {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = f.precision().unwrap_or(DEFAULT_EXPONENT_DIGITS);
        pad_number(f, &directed(self.0, Style::Exponent(digits), Direction::Up))
    }
}

impl fmt::Display for Below {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        pad_number(f, &display(self.0, f.precision(), Direction::Down))
    }
}

impl fmt::Display for Above {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        pad_number(f, &display(self.0, f.precision(), Direction::Up))
    }
}

impl fmt::LowerExp for Outward {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = f.precision().unwrap_or(DEFAULT_EXPONENT_DIGITS);
        let lower = directed(self.0, Style::Exponent(digits), Direction::Down);
        let upper = directed(self.1, Style::Exponent(digits), Direction::Up);
        pad_number(f, &format!("[{lower}, {upper}]"))
    }
}

impl fmt::Display for Outward {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lower = display(self.0, f.precision(), Direction::Down);
        let upper = display(self.1, f.precision(), Direction::Up);
        pad_number(f, &format!("[{lower}, {upper}]"))
    }
}

impl fmt::LowerExp for Within {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let style = Style::Exponent(f.precision().unwrap_or(DEFAULT_EXPONENT_DIGITS));
        pad_number(f, &within(self.0, self.1, style))
    }
}

impl fmt::Display for Within {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match f.precision() {
            Some(digits) => pad_number(f, &within(self.0, self.1, Style::Fixed(digits))),
            None => pad_number(f, &display(self.1, None, Direction::Up)),
        }
    }
}

/// Rounding to nearest is monotone, so when both ends of the bracket round to one
/// decimal every value between them does too.
fn within(lower: f64, upper: f64, style: Style) -> String {
    let (low, high) = (render(lower, style), render(upper, style));
    if lower <= upper && low == high {
        high
    } else {
        directed(upper, style, Direction::Up)
    }
}

/// Writes `text` at the formatter's width, right-aligned unless asked otherwise, as
/// numbers are (`Formatter::pad` would also cut it at the precision, which here counts
/// digits, not characters).
fn pad_number(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    let length = text.chars().count();
    let Some(width) = f.width().filter(|w| *w > length) else {
        return f.write_str(text);
    };
    let fill = width - length;
    let (before, after) = match f.align() {
        Some(fmt::Alignment::Left) => (0, fill),
        Some(fmt::Alignment::Center) => (fill / 2, fill - fill / 2),
        _ => (fill, 0),
    };
    let pad: String = std::iter::repeat_n(f.fill(), before).collect();
    let tail: String = std::iter::repeat_n(f.fill(), after).collect();
    write!(f, "{pad}{text}{tail}")
}

/// `{}` without a precision prints the shortest decimal that reads back as the value,
/// which may sit on either side of it: a bound then gets 17 significant digits, rounded.
fn display(value: f64, precision: Option<usize>, direction: Direction) -> String {
    match precision {
        Some(digits) => directed(value, Style::Fixed(digits), direction),
        None => {
            let shortest = format!("{value}");
            match shortest
                .parse::<f64>()
                .map(|v| exact_side(&shortest, v, value))
            {
                Ok(Ordering::Equal) => shortest,
                _ => directed(value, Style::Exponent(DEFAULT_EXPONENT_DIGITS), direction),
            }
        }
    }
}

/// The decimal of `value` in `style`, rounded in `direction`.
fn directed(value: f64, style: Style, direction: Direction) -> String {
    let nearest = render(value, style);
    if !value.is_finite() {
        return nearest;
    }
    let parsed: f64 = match nearest.parse() {
        Ok(v) => v,
        Err(_) => return nearest,
    };
    let wrong_side = match exact_side(&nearest, parsed, value) {
        Ordering::Equal => false,
        Ordering::Greater => direction == Direction::Down,
        Ordering::Less => direction == Direction::Up,
    };
    if wrong_side {
        step(&nearest, direction)
    } else {
        nearest
    }
}

fn render(value: f64, style: Style) -> String {
    match style {
        Style::Exponent(digits) => format!("{value:.digits$e}"),
        Style::Fixed(digits) => format!("{value:.digits$}"),
    }
}

/// Where the decimal `text` (whose parse is `parsed`) lies against `value`, exactly.
fn exact_side(text: &str, parsed: f64, value: f64) -> Ordering {
    match parsed.partial_cmp(&value) {
        Some(Ordering::Equal) | None => compare_decimals(text, &exact_expansion(value)),
        Some(order) => order,
    }
}

/// Every digit of `value`'s binary value (an `f64` has at most 767 significant digits).
fn exact_expansion(value: f64) -> String {
    format!("{value:.800e}")
}

/// A decimal as sign, digits and the power of ten of its first digit.
struct Decimal {
    negative: bool,
    /// Significant digits, no leading zeros (empty for zero).
    digits: Vec<u8>,
    /// The power of ten of `digits[0]`.
    exponent: i64,
}

fn parse_decimal(text: &str) -> Decimal {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (mantissa, power) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], body[at + 1..].parse::<i64>().unwrap_or(0)),
        None => (body, 0),
    };
    let point = mantissa.find('.').unwrap_or(mantissa.len());
    let mut digits: Vec<u8> = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let mut exponent = point as i64 - 1 + power;
    while digits.first() == Some(&0) {
        digits.remove(0);
        exponent -= 1;
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
    Decimal {
        negative: negative && !digits.is_empty(),
        digits,
        exponent,
    }
}

/// Compares two decimal strings by value.
fn compare_decimals(a: &str, b: &str) -> Ordering {
    let (a, b) = (parse_decimal(a), parse_decimal(b));
    let magnitude = |d: &Decimal, e: &Decimal| -> Ordering {
        match (d.digits.is_empty(), e.digits.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        d.exponent
            .cmp(&e.exponent)
            .then_with(|| d.digits.cmp(&e.digits))
    };
    match (a.negative, b.negative) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => magnitude(&a, &b),
        (true, true) => magnitude(&b, &a),
    }
}

/// The neighbour of the printed decimal `text` one unit in its last place in
/// `direction`, written in the same style ("1.000e0" down is "9.999e-1").
fn step(text: &str, direction: Direction) -> String {
    let negative = text.starts_with('-');
    let body = text.trim_start_matches(['-', '+']);
    // Towards −∞ on a negative number is away from zero.
    let away_from_zero = (direction == Direction::Up) != negative;
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (
            &body[..at],
            Some(body[at + 1..].parse::<i64>().unwrap_or(0)),
        ),
        None => (body, None),
    };
    let point = mantissa.find('.');
    let mut digits: Vec<u8> = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let fraction_digits = point.map_or(0, |p| mantissa.len() - p - 1);
    let mut exponent = exponent;
    if away_from_zero {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, 1);
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
        if let Some(e) = exponent.as_mut() {
            if digits.len() > fraction_digits + 1 {
                // 9.999e0 up is 10.000e0: renormalised to 1.000e1.
                digits.pop();
                *e += 1;
            }
        }
    } else {
        let mut i = digits.len();
        while i > 0 {
            i -= 1;
            if digits[i] == 0 {
                digits[i] = 9;
            } else {
                digits[i] -= 1;
                break;
            }
        }
        if let Some(e) = exponent.as_mut() {
            if digits[0] == 0 {
                // 1.000e0 down is 0.999e0: renormalised to 9.999e-1.
                digits.remove(0);
                digits.push(9);
                *e -= 1;
            }
        }
    }
    let integer_digits = digits.len() - fraction_digits;
    let mut out = String::new();
    let is_zero = digits.iter().all(|d| *d == 0);
    if negative && !is_zero {
        out.push('-');
    }
    let integer: String = digits[..integer_digits]
        .iter()
        .map(|d| (b'0' + d) as char)
        .collect();
    let integer = integer.trim_start_matches('0');
    out.push_str(if integer.is_empty() { "0" } else { integer });
    if fraction_digits > 0 {
        out.push('.');
        out.extend(digits[integer_digits..].iter().map(|d| (b'0' + d) as char));
    }
    if let Some(e) = exponent {
        out.push_str(&format!("e{e}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The printed decimal is on the promised side of the value, exactly.
    fn holds(text: &str, value: f64, direction: Direction) -> bool {
        let order = compare_decimals(text, &exact_expansion(value));
        match direction {
            Direction::Down => order != Ordering::Greater,
            Direction::Up => order != Ordering::Less,
        }
    }

    #[test]
    fn the_issue_examples_round_the_safe_way() {
        assert_eq!(format!("{:.3e}", Below(0.9999579273)), "9.999e-1");
        assert_eq!(format!("{:.3e}", Below(0.7165525)), "7.165e-1");
        assert_eq!(format!("{:.3e}", Below(9.99999999886e-4)), "9.999e-4");
        assert_eq!(format!("{:.3e}", Above(0.7165525)), "7.166e-1");
        assert_eq!(format!("{:.3e}", Above(1.0001)), "1.001e0");
        assert_eq!(format!("{:.3e}", Above(9.9996)), "1.000e1");
    }

    #[test]
    fn a_bracket_narrower_than_the_digits_prints_as_a_measurement() {
        let (below, above) = (0.5 - 7e-15, 0.5 + 7e-15);
        assert_eq!(format!("{:.6}", Within(below, above)), "0.500000");
        assert_eq!(format!("{:.9e}", Within(below, above)), "5.000000000e-1");
        // Ends that give other digits: the upper end, rounded up.
        assert_eq!(format!("{:.3e}", Within(0.49, 0.5000001)), "5.001e-1");
        assert_eq!(
            format!("{:.6}", Within(f64::NEG_INFINITY, 0.5 + 7e-15)),
            "0.500001"
        );
        // Every value of a bracket that prints as one decimal rounds to it.
        let mut x = 0.123_456_4;
        for _ in 0..1000 {
            let (lo, hi) = (x, x + 3e-8);
            let printed = format!("{:.6}", Within(lo, hi));
            if printed == format!("{lo:.6}") && printed == format!("{hi:.6}") {
                let mid = format!("{:.6}", 0.5 * (lo + hi));
                assert_eq!(printed, mid);
            } else {
                assert!(
                    printed.parse::<f64>().unwrap() >= hi,
                    "{printed} for [{lo}, {hi}]"
                );
            }
            x += 1.1e-8;
        }
    }

    #[test]
    fn exact_values_print_unchanged() {
        assert_eq!(format!("{:.3e}", Below(1.0)), "1.000e0");
        assert_eq!(format!("{:.3e}", Above(1.0)), "1.000e0");
        assert_eq!(format!("{:.2}", Below(0.5)), "0.50");
        assert_eq!(format!("{:.3e}", Below(0.0)), "0.000e0");
        // 0.1 is a little above one tenth in binary: its lower bound may print 0.1, its
        // upper bound may not.
        assert_eq!(format!("{:.3e}", Below(0.1)), "1.000e-1");
        assert_eq!(format!("{:.3e}", Above(0.1)), "1.001e-1");
        // 0.3 is a little below three tenths.
        assert_eq!(format!("{:.3e}", Below(0.3)), "2.999e-1");
        assert_eq!(format!("{:.3e}", Above(0.3)), "3.000e-1");
    }

    #[test]
    fn negative_values_round_towards_their_infinity() {
        assert_eq!(format!("{:.3e}", Below(-0.7165525)), "-7.166e-1");
        assert_eq!(format!("{:.3e}", Above(-0.7165525)), "-7.165e-1");
        assert_eq!(format!("{:.3e}", Below(-9.9996)), "-1.000e1");
        assert_eq!(format!("{:.3e}", Above(-1.00001)), "-1.000e0");
        assert_eq!(format!("{:.1}", Above(-0.04)), "-0.0");
    }

    #[test]
    fn fixed_notation_and_widths() {
        assert_eq!(format!("{:.4}", Below(2.99999)), "2.9999");
        assert_eq!(format!("{:.4}", Above(2.00001)), "2.0001");
        assert_eq!(format!("{:.2}", Above(9.999)), "10.00");
        assert_eq!(format!("{:.2}", Below(0.001)), "0.00");
        assert_eq!(format!("{:>10.2}", Below(1.239)), "      1.23");
        assert_eq!(
            format!("{:.3e}", Outward(0.99995, 1.00004)),
            "[9.999e-1, 1.001e0]"
        );
    }

    #[test]
    fn no_precision_gives_a_safe_round_trip() {
        assert_eq!(format!("{}", Below(0.5)), "0.5");
        let third = 1.0 / 3.0;
        let lower: f64 = format!("{:e}", Below(third)).parse().unwrap();
        let upper: f64 = format!("{:e}", Above(third)).parse().unwrap();
        assert!(lower <= third && upper >= third);
        assert!(holds(&format!("{}", Below(0.1)), 0.1, Direction::Down));
        assert!(holds(&format!("{}", Above(0.1)), 0.1, Direction::Up));
    }

    #[test]
    fn non_finite_values_print_as_they_are() {
        assert_eq!(format!("{:.3e}", Below(f64::INFINITY)), "inf");
        assert_eq!(format!("{:.3e}", Above(f64::NAN)), "NaN");
    }

    /// Values just above and below every rounding boundary of three and nine digits,
    /// over the whole range of magnitudes, land on their side.
    #[test]
    fn values_beside_rounding_boundaries_land_on_their_side() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for _ in 0..20_000 {
            let digits = [1usize, 3, 6, 9][(next() % 4) as usize];
            let exponent = (next() % 600) as i32 - 300;
            let mantissa = 1.0 + (next() % 9000) as f64 / 1000.0;
            // A value at a boundary of `digits` (half a unit), nudged by a few ulps.
            let boundary = (mantissa + 0.5 * 10f64.powi(-(digits as i32))) * 10f64.powi(exponent);
            let nudge = (next() % 7) as i64 - 3;
            let value = f64::from_bits((boundary.to_bits() as i64 + nudge) as u64);
            for value in [value, -value] {
                let below = format!("{:.digits$e}", Below(value));
                let above = format!("{:.digits$e}", Above(value));
                assert!(
                    holds(&below, value, Direction::Down),
                    "{value:e} below {below}"
                );
                assert!(
                    holds(&above, value, Direction::Up),
                    "{value:e} above {above}"
                );
                let nearest = format!("{value:.digits$e}");
                assert!(
                    below == nearest || above == nearest,
                    "{value:e}: one side is nearest"
                );
                if (0.01..1e6).contains(&value.abs()) {
                    let below = format!("{:.digits$}", Below(value));
                    let above = format!("{:.digits$}", Above(value));
                    assert!(
                        holds(&below, value, Direction::Down),
                        "{value} below {below}"
                    );
                    assert!(holds(&above, value, Direction::Up), "{value} above {above}");
                }
            }
        }
    }
}
