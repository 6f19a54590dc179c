//! CSV as spreadsheets read it: fields quoted only when needed, formulas defused, lines
//! ended with CRLF.

/// One CSV field: quoted when needed, and defused when a spreadsheet would read it as a
/// formula (`=`, `+`, `-`, `@` at the start), since exported text comes from a server.
pub fn field(value: &str) -> String {
    let defused = match value.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r')
            if crate::decimal::parse_decimal(value).is_none() =>
        {
            format!("'{value}")
        }
        _ => value.to_owned(),
    };
    if defused.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", defused.replace('"', "\"\""))
    } else {
        defused
    }
}

/// A whole document: a header line, then one line per row, each line ended by CRLF.
pub fn document(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    for line in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        let fields: Vec<String> = line.iter().map(|v| field(v)).collect();
        out.push_str(&fields.join(","));
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_when_needed() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
        assert_eq!(field(""), "");
    }

    #[test]
    fn formulas_are_defused_but_numbers_are_not() {
        assert_eq!(field("=1+1"), "'=1+1");
        assert_eq!(field("+cmd"), "'+cmd");
        assert_eq!(field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(field("-x"), "'-x");
        assert_eq!(field("\tx"), "'\tx");
        assert_eq!(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(field("-5"), "-5");
        assert_eq!(field("+1.5"), "+1.5");
    }

    #[test]
    fn a_document_ends_every_line_with_crlf() {
        let header = ["Id".to_owned(), "Name".to_owned()];
        let rows = [vec!["1".to_owned(), "a, b".to_owned()]];
        assert_eq!(document(&header, &rows), "Id,Name\r\n1,\"a, b\"\r\n");
        assert_eq!(document(&header, &[]), "Id,Name\r\n");
    }
}
