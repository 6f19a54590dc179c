//! A machine's health signals as its page lists them, with those the service left out said
//! to be not reported.

use gpudeck_wire::{Machine, NumberOrText};

/// What the detail view says of a field N1 did not carry (fleet-health §1.1).
pub const NOT_REPORTED: &str = "not reported by the service";

/// The fields, named as a host reads them, with their values in words.
pub fn signal_rows(m: &Machine) -> Vec<(&'static str, String)> {
    let cuda = m.cuda_max_good.as_ref().map(|c| match c {
        NumberOrText::Number(n) => number(*n),
        NumberOrText::Text(t) => t.clone(),
    });
    let disk = match (m.avail_disk_space, m.max_disk_space) {
        (Some(free), Some(total)) => {
            Some(format!("{} GB free of {} GB", number(free), number(total)))
        }
        (Some(free), None) => Some(format!("{} GB free", number(free))),
        (None, Some(total)) => Some(format!("{} GB in all", number(total))),
        (None, None) => None,
    };
    vec![
        (
            "Last seen",
            if m.timeout > 0.0 {
                format!("{} s ago", number(m.timeout))
            } else {
                "online now".to_owned()
            },
        ),
        ("Error", error_text(&m.error_description)),
        ("VM error", error_text(&m.vm_error_msg)),
        ("Verification", m.verification.clone()),
        ("Reliability", format!("{:.1} %", m.reliability2 * 100.0)),
        (
            "Reports",
            or_not_reported(m.num_reports.map(|n| n.to_string())),
        ),
        (
            "Recent reports",
            or_not_reported(m.num_recent_reports.map(number)),
        ),
        ("Disk", or_not_reported(disk)),
        (
            "Hottest GPU",
            or_not_reported(m.gpu_max_cur_temp.map(|t| format!("{} °C", number(t)))),
        ),
        ("Driver", m.driver_version.clone()),
        ("Highest CUDA", or_not_reported(cuda)),
        ("Kernel", or_not_reported(m.kernel_version.clone())),
        ("Ubuntu", or_not_reported(m.ubuntu_version.clone())),
        (
            "Open ports",
            or_not_reported(m.direct_port_count.map(|n| n.to_string())),
        ),
        (
            "PCIe bandwidth",
            or_not_reported(m.pcie_bw.map(|b| format!("{} GB/s", number(b)))),
        ),
    ]
}

pub fn or_not_reported(value: Option<String>) -> String {
    value
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| NOT_REPORTED.to_owned())
}

/// An error field: null, `""` and blanks alike say there is none (§1.1: which of them the
/// public service sends for "no error" is uncertain).
pub fn error_text(error: &Option<String>) -> String {
    error
        .as_deref()
        .filter(|e| !e.trim().is_empty())
        .unwrap_or("none")
        .to_owned()
}

/// A number as received, without a trailing `.0`.
pub fn number(value: f64) -> String {
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::listing::fixture::listed_machine;

    #[test]
    fn fields_left_out_are_said_to_be_not_reported() {
        let mut machine = listed_machine(1, true, None, 0, None);
        machine.error_description = Some("  ".into());
        machine.gpu_max_cur_temp = Some(88.0);
        machine.avail_disk_space = Some(480.0);
        machine.max_disk_space = Some(8000.0);
        let rows = signal_rows(&machine);
        let value = |name: &str| rows.iter().find(|r| r.0 == name).unwrap().1.clone();
        assert_eq!(value("Error"), "none");
        assert_eq!(value("Kernel"), NOT_REPORTED);
        assert_eq!(value("Hottest GPU"), "88 °C");
        assert_eq!(value("Disk"), "480 GB free of 8000 GB");
        assert_eq!(value("Last seen"), "online now");
        assert_eq!(value("Reliability"), "99.0 %");
    }
}
