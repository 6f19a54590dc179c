//! CSV export: building the text (RFC 4180) and handing it to the browser as a download.

pub use gpudeck_logic::components::csv::*;
use wasm_bindgen::JsCast;

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
