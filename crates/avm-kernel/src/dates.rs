//! Calendar arithmetic on day numbers (days since 1970-01-01 UTC), integer only so WASM and TS agree exactly.
#![forbid(unsafe_code)]

/// Mean Gregorian year in days: converts a day difference into "years elapsed" for the time-index cap.
pub const DAYS_PER_YEAR: f64 = 365.2425;

/// Month number = year * 12 + (month - 1) of the civil date of `day` (H. Hinnant's civil_from_days algorithm).
pub fn month_number(day: i32) -> i32 {
    let z = day as i64 + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    (year * 12 + (month - 1)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn epoch_and_leap_days() {
        assert_eq!(month_number(0), 1970 * 12); // 1970-01-01
        assert_eq!(month_number(31), 1970 * 12 + 1); // 1970-02-01
        assert_eq!(month_number(-1), 1969 * 12 + 11); // 1969-12-31
        assert_eq!(month_number(11_016), 2000 * 12 + 1); // 2000-02-29 (day 11016)
        assert_eq!(month_number(11_017), 2000 * 12 + 2); // 2000-03-01
    }
}
