//! CSV export: building the text (RFC 4180) and handing it to the browser as a download.

use wasm_bindgen::JsCast;

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

/// Offers `text` as a file called `file_name`.
pub fn download(file_name: &str, text: &str) -> Result<(), String> {
    let fail = |_| "the browser refused to create the file".to_owned();
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/csv;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let link: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(fail)?.unchecked_into();
    link.set_href(&url);
    link.set_download(file_name);
    link.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
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
