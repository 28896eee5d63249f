//! The live view: the built playground (`dist/`, from `./dev.sh build`) served next to the API, and
//! `GET /rvlab/v1/live`, a server-sent-events feed of the session log — first
//! `data: {"backlog": [lines…]}`, then every recorded line as
//! `data: {"text": "<script line>", "output": {…}}` — so a page opened from the server can follow
//! what real clients do. The served `index.html` gets `<meta name="rvlab-live" …>`, which is how
//! the app (`ui::live`) knows it was opened from a server. Upstream counterpart: none.

use std::path::{Component, Path};

use bytes::Bytes;
use tokio::sync::mpsc;

use super::engine::Engine;
use super::http::{self, Resp};

/// Queue length per live subscriber; a subscriber that falls this far behind is dropped.
const LIVE_QUEUE: usize = 4096;

pub fn subscribe(engine: &mut Engine) -> Resp {
    let (tx, rx) = mpsc::channel::<Bytes>(LIVE_QUEUE);
    let backlog = engine.subscribe_live(tx);
    http::chunks(200, "text/event-stream", backlog, None, Some(rx))
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

/// A file of the built playground, or `None` when there is none at that path. Only plain
/// relative components are followed (no `..`, no absolute paths, no percent-decoding).
pub fn static_file(dist: &Path, url_path: &str) -> Option<Resp> {
    let rel = url_path.trim_start_matches('/');
    let rel = if rel.is_empty() { "index.html" } else { rel };
    let rel_path = Path::new(rel);
    if !rel_path.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let full = dist.join(rel_path);
    let mut bytes = std::fs::read(&full).ok()?;
    if rel == "index.html" {
        bytes = mark_live(&bytes);
    }
    Some(http::text(200, content_type(&full), bytes))
}

/// The tag that tells the app it was opened from `rvlab serve`, right after `<head>`.
pub const LIVE_META: &str = r#"<meta name="rvlab-live" content="rvlab/v1/live" />"#;

fn mark_live(html: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(html);
    match text.find("<head>") {
        Some(i) => format!("{}{LIVE_META}{}", &text[..i + 6], &text[i + 6..]).into_bytes(),
        None => html.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_inside_dist() {
        let dir = std::env::temp_dir().join(format!("rvlab-live-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<html><head><title>t</title></head><body></body></html>")
            .unwrap();
        let index = static_file(&dir, "/").unwrap();
        let body = match index.into_body() {
            crate::serve::http::ServeBody::Full(Some(b)) => b,
            _ => panic!("index.html is one body"),
        };
        assert!(String::from_utf8_lossy(&body).contains(LIVE_META));
        assert!(static_file(&dir, "/index.html").is_some());
        assert!(static_file(&dir, "/../etc/passwd").is_none());
        assert!(static_file(&dir, "//etc/passwd").is_none());
        assert!(static_file(&dir, "/missing.js").is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
