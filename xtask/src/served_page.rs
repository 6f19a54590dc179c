//! The served page of the split build, written here: `index.html` without its rust link
//! and its comments, each style sheet minified (lightningcss) and the icon under a
//! content-hashed name, the scripts it copies under their own names.
//!
//! Trunk did this until it was the split build's only use of trunk, and installing trunk
//! was a third of a newcomer's first `cargo xtask run`. `trunk serve` reads the same
//! `index.html` for development, so the page is described once.

use crate::reuse::Key;
use crate::shell::{exec_quiet, root};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One `data-trunk` link of `index.html`.
#[derive(Debug, Clone, PartialEq)]
enum Asset {
    /// `rel="css"`: minified, content-hashed, linked as a style sheet.
    Css(PathBuf),
    /// `rel="icon"`: content-hashed, linked as the icon.
    Icon(PathBuf),
    /// `rel="copy-file"`: copied under its own name, the link dropped.
    Copy(PathBuf),
}

impl Asset {
    fn path(&self) -> &Path {
        match self {
            Asset::Css(path) | Asset::Icon(path) | Asset::Copy(path) => path,
        }
    }
}

/// A line of the page: kept as it is, or a link to build.
#[derive(Debug, Clone, PartialEq)]
enum Line {
    Text(String),
    Link(Asset),
}

/// The served page to write: `index.html`'s lines, each `data-trunk` link read as an
/// [`Asset`], the rust link and the comments left out.
pub struct Page {
    lines: Vec<Line>,
}

impl Page {
    /// `index.html` with the repository's files.
    pub fn of_repository() -> Result<Self> {
        Self::with_replaced(&BTreeMap::new())
    }

    /// `index.html` with each link named in `replaced` (`style/machines.css` → another
    /// file) read from elsewhere: for the check that a changed sheet reaches what it should.
    pub fn with_replaced(replaced: &BTreeMap<&str, PathBuf>) -> Result<Self> {
        let html = std::fs::read_to_string(root().join("index.html"))?;
        let lines = read_lines(&html, |href| {
            replaced
                .get(href)
                .cloned()
                .unwrap_or_else(|| root().join(href))
        })?;
        Ok(Page { lines })
    }

    /// A key over everything the page is written from.
    pub fn key(&self) -> Result<String> {
        let mut key = Key::new("page");
        for line in &self.lines {
            key = match line {
                Line::Text(text) => key.text(text),
                Line::Link(asset) => key.text(&format!("{asset:?}")).file(asset.path())?,
            };
        }
        Ok(key.finish())
    }

    /// Writes `index.html` and the files it links into `folder`: the sheets minified by
    /// `lightningcss`, the sheets and icon named `<stem>-<hash>.<ext>`.
    pub fn write(&self, folder: &Path, lightningcss: &Path) -> Result<()> {
        let mut html = String::new();
        for line in &self.lines {
            match line {
                Line::Text(text) => html.push_str(text),
                Line::Link(Asset::Css(sheet)) => {
                    let minified = minify_css(lightningcss, sheet)?;
                    let name = hashed_name(sheet, &minified)?;
                    std::fs::write(folder.join(&name), minified)?;
                    html.push_str(&format!(r#"<link rel="stylesheet" href="/{name}">"#));
                }
                Line::Link(Asset::Icon(icon)) => {
                    let bytes = std::fs::read(icon)?;
                    let name = hashed_name(icon, &bytes)?;
                    std::fs::write(folder.join(&name), bytes)?;
                    html.push_str(&format!(r#"<link rel="icon" href="/{name}">"#));
                }
                Line::Link(Asset::Copy(file)) => {
                    let name = file.file_name().context("a copied file has a name")?;
                    std::fs::copy(file, folder.join(name))
                        .with_context(|| format!("copying {}", file.display()))?;
                    continue;
                }
            }
            html.push('\n');
        }
        std::fs::write(folder.join("index.html"), html)?;
        Ok(())
    }
}

/// The page's lines, trimmed, without comments or blank lines; `asset_path` gives the file
/// each `data-trunk` link names.
fn read_lines(html: &str, asset_path: impl Fn(&str) -> PathBuf) -> Result<Vec<Line>> {
    let mut lines = Vec::new();
    let mut rust_links = 0;
    for line in without_comments(html).lines().map(str::trim) {
        if line.is_empty() {
            continue;
        }
        if !line.contains("data-trunk") {
            lines.push(Line::Text(line.to_owned()));
            continue;
        }
        let rel = attribute(line, "rel").context("a data-trunk link without rel")?;
        if rel == "rust" {
            rust_links += 1;
            continue;
        }
        let path = asset_path(attribute(line, "href").context("a data-trunk link without href")?);
        lines.push(Line::Link(match rel {
            "css" => Asset::Css(path),
            "icon" => Asset::Icon(path),
            "copy-file" => Asset::Copy(path),
            other => bail!(
                "index.html: a data-trunk link of rel={other:?}, which this build does not know"
            ),
        }));
    }
    if rust_links != 1 {
        bail!("index.html has {rust_links} rust links; the split build takes out exactly one");
    }
    Ok(lines)
}

/// `html` without its `<!-- … -->` comments, which only its readers need.
fn without_comments(html: &str) -> String {
    let mut rest = html;
    let mut out = String::with_capacity(html.len());
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        match rest[start..].find("-->") {
            Some(end) => rest = &rest[start + end + "-->".len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The value of `name="…"` in `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = format!(" {name}=\"");
    let from = tag.find(&start)? + start.len();
    Some(&tag[from..from + tag[from..].find('"')?])
}

/// `<stem>-<16 hex>.<ext>`: the pattern the server caches as immutable.
fn hashed_name(file: &Path, bytes: &[u8]) -> Result<String> {
    let stem = file.file_stem().context("a linked file has a name")?;
    let extension = file.extension().context("a linked file has an extension")?;
    Ok(format!(
        "{}-{}.{}",
        stem.to_string_lossy(),
        crate::split::hash(&[bytes]),
        extension.to_string_lossy()
    ))
}

/// `sheet` minified by the lightningcss command-line tool, as trunk minified it (its
/// minifier is lightningcss, with no browser targets).
fn minify_css(lightningcss: &Path, sheet: &Path) -> Result<Vec<u8>> {
    let out = tempfile_beside(sheet)?;
    exec_quiet(
        Command::new(lightningcss)
            .arg("--minify")
            .arg(sheet)
            .arg("-o")
            .arg(&out),
    )
    .with_context(|| format!("minifying {}", sheet.display()))?;
    let minified = std::fs::read(&out)?;
    std::fs::remove_file(&out)?;
    Ok(minified)
}

/// A scratch file name for one minified sheet, in the split build's folder.
fn tempfile_beside(sheet: &Path) -> Result<PathBuf> {
    let dir = crate::split::split_dir().join("css");
    std::fs::create_dir_all(&dir)?;
    let name = sheet.file_name().context("a sheet has a name")?;
    Ok(dir.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
  <head>
    <!-- why the script is first,
    on two lines -->
    <script type="module" src="/first_reads.js"></script>
    <link data-trunk rel="rust" data-bin="gpudeck" />
    <link data-trunk rel="css" href="style/main.css" />
    <link data-trunk rel="icon" href="style/favicon.svg" data-integrity="none" />
    <link data-trunk rel="copy-file" href="boot.js" />
  </head>
  <body><!-- sign-in form --><main>Sign in</main><!-- /sign-in form --></body>
</html>
"#;

    fn lines(html: &str) -> Result<Vec<Line>> {
        read_lines(html, |href| PathBuf::from("/repo").join(href))
    }

    #[test]
    fn links_become_assets_and_comments_go() {
        assert_eq!(
            lines(PAGE).unwrap(),
            [
                Line::Text("<!DOCTYPE html>".into()),
                Line::Text(r#"<html lang="en">"#.into()),
                Line::Text("<head>".into()),
                Line::Text(r#"<script type="module" src="/first_reads.js"></script>"#.into()),
                Line::Link(Asset::Css("/repo/style/main.css".into())),
                Line::Link(Asset::Icon("/repo/style/favicon.svg".into())),
                Line::Link(Asset::Copy("/repo/boot.js".into())),
                Line::Text("</head>".into()),
                Line::Text("<body><main>Sign in</main></body>".into()),
                Line::Text("</html>".into()),
            ]
        );
    }

    #[test]
    fn a_page_needs_one_rust_link_and_known_links() {
        let without_rust = PAGE.replace(r#"<link data-trunk rel="rust" data-bin="gpudeck" />"#, "");
        assert!(lines(&without_rust)
            .unwrap_err()
            .to_string()
            .contains("0 rust links"));
        let unknown = PAGE.replace(r#"rel="icon""#, r#"rel="sass""#);
        assert!(lines(&unknown)
            .unwrap_err()
            .to_string()
            .contains("rel=\"sass\""));
    }

    #[test]
    fn hashed_names_keep_stem_and_extension() {
        let name = hashed_name(Path::new("style/main.css"), b"a{}").unwrap();
        let hash = name
            .strip_prefix("main-")
            .and_then(|rest| rest.strip_suffix(".css"))
            .unwrap();
        assert_eq!(hash.len(), 16, "{name}");
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()), "{name}");
        assert_ne!(
            name,
            hashed_name(Path::new("style/main.css"), b"b{}").unwrap()
        );
    }

    #[test]
    fn an_unclosed_comment_ends_the_page() {
        assert_eq!(without_comments("<p>a</p><!-- b"), "<p>a</p>");
        assert_eq!(without_comments("a<!--x-->b<!--y-->c"), "abc");
    }
}
