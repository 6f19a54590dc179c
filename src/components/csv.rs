//! CSV export: building the text (RFC 4180) and handing it to the browser as a download.

use wasm_bindgen::JsCast;

/// One CSV field: quoted when needed, and defused when a spreadsheet would read it as a
/// formula (`=`, `+`, `-`, `@` at the start), since exported text comes from a server.
pub fn field(value: &str) -> String {
    let defused = match value.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') if value.parse::<f64>().is_err() => {
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
