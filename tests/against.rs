//! `rvlab run --against KUBECONFIG`: scripts run against `rvlab serve` (HTTPS, its own
//! kubeconfig) as the cluster and against the simulation. Where the two agree every line's
//! `diff` is empty; where the cluster is set up differently (through its control endpoint) the
//! difference is reported; bad input gets its message and exit code 2.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/serve.rs"]
mod serve;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// `rvlab run --against KUBECONFIG [extra…] -` with `script` on stdin: (exit code, output
/// objects, stderr).
fn against(kubeconfig: &Path, extra: &[&str], script: &str) -> (i32, Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rvlab"))
        .args(["run", "--against"])
        .arg(kubeconfig)
        .args(extra)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rvlab starts");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write stdin");
    let out = child.wait_with_output().expect("rvlab finishes");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    (out.status.code().unwrap_or(-1), lines, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Script lines run by the server's control endpoint (on its page listener).
fn control(page: &str, script: &str) {
    let mut s = TcpStream::connect(page).expect("connect to the page listener");
    write!(
        s,
        "POST /rvlab/v1/script HTTP/1.1\r\nHost: {page}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{script}",
        script.len()
    )
    .expect("send");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("read");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// Each output line reduced to (line, what was compared or the skip note, diff).
fn summary(outs: &[Value]) -> Vec<Value> {
    outs.iter()
        .map(|o| match o.get("compared") {
            Some(c) => json!([o["line"], c, o["diff"]]),
            None => json!([o["line"], o["cluster"]["skipped"], o["diff"]]),
        })
        .collect()
}

/// Both sides' normal form, equal.
fn same(norm: Value) -> Value {
    json!({"sim": norm, "cluster": norm})
}

const CM: &str = "/api/v1/namespaces/default/configmaps";

/// get/list with resourceVersion unset, "0" and exact, limit + continue, an update conflict, a
/// delete, a watch and its events, a 504 for a version from the future: the cluster agrees with
/// the simulation on every line. The cluster's revisions run 3 ahead (three etcd writes before
/// the run), so the script's versions and continue token are translated on the wire.
#[test]
fn a_script_agrees_with_rvlab_serve_line_by_line() {
    let server = serve::start_https("against-agree", &[]);
    control(&server.page, "etcd put /pad 1\netcd put /pad 2\netcd put /pad 3\n");
    let token = "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0"; // rv 4, after "a"
    let script = format!(
        r#"# three objects at 2, 3, 4
POST {CM} {{"metadata":{{"name":"a"}}}}
POST {CM} {{"metadata":{{"name":"b"}}}}
POST {CM} {{"metadata":{{"name":"c"}}}}
GET {CM}?limit=1
GET {CM}?limit=1&continue={token}
GET {CM}?resourceVersion=0
GET {CM}?resourceVersion=3&resourceVersionMatch=Exact
PUT {CM}/a {{"metadata":{{"name":"a","resourceVersion":"2"}},"data":{{"k":"v"}}}}
PUT {CM}/a {{"metadata":{{"name":"a","resourceVersion":"2"}},"data":{{"k":"w"}}}}
GET {CM}?watch=1&resourceVersion=4
DELETE {CM}/b
events w1
advance 5s
GET {CM}/b
GET {CM}/a?resourceVersion=99
"#
    );
    let (code, outs, err) = against(&server.dir.join("kubeconfig"), &["--keep-namespaces"], &script);
    let conflict = "Operation cannot be fulfilled on configmaps \"a\": the object has been modified; please apply your changes to the latest version and try again";
    assert_eq!(
        summary(&outs),
        vec![
            json!([2, same(json!({"code": 201, "name": "a", "rvs": ["#1 newest"]})), []]),
            json!([3, same(json!({"code": 201, "name": "b", "rvs": ["#2 newest"]})), []]),
            json!([4, same(json!({"code": 201, "name": "c", "rvs": ["#3 newest"]})), []]),
            json!([5, same(json!({"code": 200, "items": ["a"], "rvs": ["#3", "#1"]})), []]),
            json!([6, same(json!({"code": 200, "items": ["b"], "rvs": ["#3", "#2"]})), []]),
            json!([
                7,
                same(json!({"code": 200, "items": ["a", "b", "c"], "rvs": ["#3", "#1", "#2", "#3"]})),
                []
            ]),
            json!([8, same(json!({"code": 200, "items": ["a", "b"], "rvs": ["#2", "#1", "#2"]})), []]),
            json!([9, same(json!({"code": 200, "name": "a", "rvs": ["#4 newest"]})), []]),
            json!([10, same(json!({"code": 409, "reason": "Conflict", "message": conflict})), []]),
            json!([11, same(json!({"code": 200, "watch": true})), []]),
            json!([12, same(json!({"code": 200})), []]),
            json!([
                13,
                same(json!({"events": ["MODIFIED a #4", "DELETED b #5 newest"], "closed": false})),
                []
            ]),
            json!([14, "simulation only: the cluster's clock is its own", []]),
            json!([
                15,
                same(json!({"code": 404, "reason": "NotFound", "message": "configmaps \"b\" not found"})),
                []
            ]),
            json!([
                16,
                same(
                    json!({"code": 504, "reason": "Timeout", "message": "Timeout: Too large resource version: #? newest, current: #5"})
                ),
                []
            ]),
        ],
        "{outs:#?}"
    );
    // The cluster got its own versions: 3 ahead of the simulation's.
    let continued = "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Nywic3RhcnQiOiJhXHUwMDAwIn0"; // rv 7, after "a"
    assert_eq!(outs[4]["cluster"]["request"], format!("GET {CM}?limit=1&continue={continued}"));
    assert_eq!(
        outs[6]["cluster"]["request"],
        format!("GET {CM}?resourceVersion=6&resourceVersionMatch=Exact")
    );
    assert_eq!(outs[0]["sim"]["body"]["metadata"]["resourceVersion"], "2");
    assert_eq!(outs[0]["cluster"]["body"]["metadata"]["resourceVersion"], "5");
    assert_eq!(outs[0]["text"], format!(r#"POST {CM} {{"metadata":{{"name":"a"}}}}"#));
    assert_eq!(
        err,
        format!(
            "rvlab run --against https://{}: 14 lines compared, 0 differ, 1 run in the simulation only\n",
            server.addr
        )
    );
    assert_eq!(code, 0);
}

/// A watch older than a 2-event watch cache ends with 410 on both sides when the cluster is set
/// as the script sets the simulation; left at its default, the cluster streams the changes and
/// the difference is reported (exit 1).
#[test]
fn the_same_setting_agrees_and_a_different_one_shows() {
    let script = format!(
        r#"set cache.capacity 2
POST {CM} {{"metadata":{{"name":"x"}}}}
PATCH {CM}/x {{"data":{{"k":"1"}}}}
PATCH {CM}/x {{"data":{{"k":"2"}}}}
PATCH {CM}/x {{"data":{{"k":"3"}}}}
GET {CM}?watch=1&resourceVersion=2
events w1
"#
    );
    let setting_note = json!([1, "simulation only: a setting of the simulation", []]);
    let writes = |from: usize| -> Vec<Value> {
        (0..4)
            .map(|i| {
                let code = if i == 0 { 201 } else { 200 };
                json!([
                    from + i,
                    same(json!({"code": code, "name": "x", "rvs": [format!("#{} newest", i + 1)]})),
                    []
                ])
            })
            .collect()
    };
    let gone = json!({"events": ["ERROR 410 Expired: too old resource version: #1 (#2)"], "closed": true});

    let set = serve::start_https("against-set", &[]);
    control(&set.page, "set cache.capacity 2\n");
    let (code, outs, err) = against(&set.dir.join("kubeconfig"), &["--keep-namespaces"], &script);
    let mut want = vec![setting_note.clone()];
    want.extend(writes(2));
    want.push(json!([6, same(json!({"code": 200, "watch": true})), []]));
    want.push(json!([7, same(gone.clone()), []]));
    assert_eq!(summary(&outs), want, "{outs:#?}");
    assert_eq!(
        (
            code,
            err.lines()
                .last()
                .unwrap_or_default()
                .ends_with("6 lines compared, 0 differ, 1 run in the simulation only")
        ),
        (0, true),
        "{err}"
    );

    let default = serve::start_https("against-default", &[]);
    let (code, outs, err) = against(&default.dir.join("kubeconfig"), &["--keep-namespaces"], &script);
    let streamed = json!({"events": ["MODIFIED x #2", "MODIFIED x #3", "MODIFIED x #4"], "closed": false});
    let mut want = vec![setting_note];
    want.extend(writes(2));
    want.push(json!([6, same(json!({"code": 200, "watch": true})), []]));
    want.push(json!([
        7,
        {"sim": gone, "cluster": streamed},
        [
            {"field": "events", "sim": gone["events"], "cluster": streamed["events"]},
            {"field": "closed", "sim": true, "cluster": false}
        ]
    ]));
    assert_eq!(summary(&outs), want, "{outs:#?}");
    assert_eq!(
        err,
        format!(
            "rvlab run --against https://{}: 6 lines compared, 1 differ (line 7), 1 run in the simulation only\n",
            default.addr
        )
    );
    assert_eq!(code, 1);
}

/// A kubeconfig for `server` with `cluster` and `user` lines (indented under their keys).
fn kubeconfig(dir: &Path, name: &str, cluster: &str, user: &str) -> PathBuf {
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n{cluster}users:\n- name: u\n  user:\n{user}contexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\n"
    );
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write kubeconfig");
    path
}

/// A one-connection-at-a-time HTTP server answering every request with `answer`.
fn fake_server(answer: Vec<u8>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr").to_string();
    std::thread::spawn(move || {
        for s in listener.incoming() {
            let Ok(mut s) = s else { return };
            let mut buf = [0; 4096];
            let _ = s.read(&mut buf);
            let _ = s.write_all(&answer);
        }
    });
    addr
}

/// An HTTP/1.1 answer with a JSON body.
fn answer(status: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// An unreadable or malformed kubeconfig, a closed port, a CA that did not sign the server's
/// certificate, a server that refuses the credentials or is not HTTP, plain HTTP to the HTTPS
/// port, a cluster that does not make the run's namespace: a message and exit 2, no output.
#[test]
fn bad_input_gets_a_message_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("rvlab-against-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = format!("POST {CM} {{\"metadata\":{{\"name\":\"a\"}}}}\n");
    let check = |kc: &Path, extra: &[&str], want: &str| {
        let (code, outs, err) = against(kc, extra, &script);
        assert_eq!((code, outs.len(), err.lines().last().unwrap_or_default()), (2, 0, want), "{err}");
    };

    let missing = dir.join("missing.kubeconfig");
    check(
        &missing,
        &[],
        &format!("rvlab run --against: {}: No such file or directory (os error 2)", missing.display()),
    );
    let malformed = dir.join("malformed.kubeconfig");
    std::fs::write(&malformed, "clusters:\n- name: c\n   cluster: {}\n").expect("write");
    check(
        &malformed,
        &[],
        &format!("rvlab run --against: {}: line 3: unexpected indentation", malformed.display()),
    );
    let no_context = kubeconfig(
        &dir,
        "exec.kubeconfig",
        "    server: https://127.0.0.1:1\n",
        "    exec:\n      command: aws\n",
    );
    check(
        &no_context,
        &[],
        &format!(
            "rvlab run --against: {}: user \"u\" uses `exec`, which --against does not support",
            no_context.display()
        ),
    );

    let closed = TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr");
    let kc =
        kubeconfig(&dir, "closed.kubeconfig", &format!("    server: http://{closed}\n"), "    token: t\n");
    check(
        &kc,
        &[],
        &format!(
            "rvlab run --against: http://{closed}: cannot reach the cluster: Connection refused (os error 111)"
        ),
    );

    for (name, answer, words) in [
        (
            "401",
            answer(
                "401 Unauthorized",
                r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}"#,
            ),
            "refused the kubeconfig's credentials: GET /api answered 401 Unauthorized: Unauthorized",
        ),
        (
            "403",
            answer(
                "403 Forbidden",
                r#"{"kind":"Status","message":"forbidden: User cannot get path","reason":"Forbidden"}"#,
            ),
            "refused the kubeconfig's credentials: GET /api answered 403 Forbidden: forbidden: User cannot get path",
        ),
        (
            "ssh",
            b"SSH-2.0-OpenSSH_9.6\r\n".to_vec(),
            "the cluster's answer cannot be read: not an HTTP response: \"SSH-2.0-OpenSSH_9.6\"",
        ),
    ] {
        let addr = fake_server(answer);
        let kc = kubeconfig(
            &dir,
            &format!("{name}.kubeconfig"),
            &format!("    server: http://{addr}\n"),
            "    token: t\n",
        );
        let sep = if name == "ssh" { ": " } else { " " };
        check(&kc, &[], &format!("rvlab run --against: http://{addr}{sep}{words}"));
    }

    let server = serve::start_https("against-bad", &[]);
    let text = std::fs::read_to_string(server.dir.join("kubeconfig")).expect("kubeconfig");
    let other_ca =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string()]).expect("a CA").cert.pem();
    use base64::Engine as _;
    let ca_line = text.lines().find(|l| l.contains("certificate-authority-data")).expect("a CA line");
    let wrong = text.replace(
        ca_line,
        &format!(
            "    certificate-authority-data: {}",
            base64::engine::general_purpose::STANDARD.encode(other_ca)
        ),
    );
    let wrong_ca = dir.join("wrong-ca.kubeconfig");
    std::fs::write(&wrong_ca, wrong).expect("write");
    let addr = &server.addr;
    check(
        &wrong_ca,
        &[],
        &format!(
            "rvlab run --against: https://{addr}: TLS: handshake: invalid peer certificate: UnknownIssuer"
        ),
    );
    let plain = dir.join("plain.kubeconfig");
    std::fs::write(&plain, text.replace("https://", "http://")).expect("write");
    check(
        &plain,
        &[],
        &format!(
            "rvlab run --against: http://{addr} is not a Kubernetes API: GET /api answered 400: Client sent an HTTP request to an HTTPS server."
        ),
    );
    let (code, outs, err) = against(&server.dir.join("kubeconfig"), &[], &script);
    assert_eq!((code, outs.len()), (2, 0), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(&format!("rvlab run --against: https://{addr} did not make the run's namespace \"rvlab-"))
            && last.ends_with("-default\" (for the script's \"default\"): POST /api/v1/namespaces answered 404 NotFound: the server could not find the requested resource; --keep-namespaces runs in the script's own namespaces"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Usage: `--against` needs a kubeconfig; `--keep-namespaces` goes with `--against`.
#[test]
fn usage_errors() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_rvlab")).args(args).output().expect("rvlab runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or_default().to_string(),
        )
    };
    assert_eq!(run(&["run", "--against"]), (2, "rvlab run: --against needs a kubeconfig".to_string()));
    assert_eq!(
        run(&["run", "--keep-namespaces", "-"]),
        (2, "rvlab run: --keep-namespaces goes with --against".to_string())
    );
}

/// A cluster that serves namespaces, made of `rvlab serve --http` behind a proxy: the proxy
/// answers `GET /api` and the namespace requests itself, records them, and forwards the rest
/// with the run's namespace written back as `default`. Without `--keep-namespaces` the run
/// makes `rvlab-<suffix>-default`, sends every line there and deletes it at the end.
#[test]
fn each_run_gets_its_own_namespace() {
    use std::sync::{Arc, Mutex};
    let backend = serve::start("against-ns", &[]);
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr").to_string();
    let (log, to) = (seen.clone(), backend.addr.clone());
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { return };
            let (log, to) = (log.clone(), to.clone());
            std::thread::spawn(move || proxy(client, &to, &log));
        }
    });
    let dir = std::env::temp_dir().join(format!("rvlab-against-ns-kc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kc = kubeconfig(&dir, "proxy.kubeconfig", &format!("    server: http://{addr}\n"), "    token: t\n");
    let script = format!(
        "POST {CM} {{\"metadata\":{{\"name\":\"a\",\"namespace\":\"default\"}}}}\nGET {CM}/b\nGET {CM}?limit=1\n"
    );
    let (code, outs, err) = against(&kc, &[], &script);
    let _ = std::fs::remove_dir_all(&dir);
    let seen = seen.lock().expect("log").clone();
    let ns = seen
        .iter()
        .find_map(|l| l.strip_prefix("POST /api/v1/namespaces {\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""))
        .and_then(|rest| rest.strip_suffix("\"}}"))
        .unwrap_or_else(|| panic!("no namespace made: {seen:?}"))
        .to_string();
    assert!(
        ns.starts_with("rvlab-") && ns.ends_with("-default") && ns.len() == "rvlab-123456-default".len(),
        "{ns}"
    );
    assert_eq!(
        seen,
        vec![
            "GET /api".to_string(),
            format!(
                "POST /api/v1/namespaces {{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{{\"name\":\"{ns}\"}}}}"
            ),
            format!(
                "POST /api/v1/namespaces/{ns}/configmaps {{\"metadata\":{{\"name\":\"a\",\"namespace\":\"{ns}\"}}}}"
            ),
            format!("GET /api/v1/namespaces/{ns}/configmaps/b"),
            format!("GET /api/v1/namespaces/{ns}/configmaps?limit=1"),
            format!("DELETE /api/v1/namespaces/{ns}"),
        ]
    );
    assert_eq!(outs.iter().map(|o| o["diff"].clone()).collect::<Vec<_>>(), vec![json!([]); 3], "{outs:#?}");
    assert_eq!(outs[1]["compared"]["cluster"]["message"], "configmaps \"b\" not found");
    assert_eq!(
        err,
        format!(
            "rvlab run --against http://{addr}: 3 lines compared, 0 differ, 0 run in the simulation only; namespaces: {ns} deleted\n"
        )
    );
    assert_eq!(code, 0);
}

/// One proxied connection (see [`each_run_gets_its_own_namespace`]).
fn proxy(mut client: TcpStream, backend: &str, log: &std::sync::Mutex<Vec<String>>) {
    use std::io::BufRead;
    let mut r = std::io::BufReader::new(client.try_clone().expect("clone"));
    let mut head = String::new();
    let mut length = 0;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        head.push_str(&line);
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    r.read_exact(&mut body).expect("body");
    let body = String::from_utf8(body).expect("utf-8");
    let mut words = head.split(' ');
    let (method, target) = (words.next().unwrap_or("").to_string(), words.next().unwrap_or("").to_string());
    let sep = if body.is_empty() { "" } else { " " };
    log.lock().expect("log").push(format!("{method} {target}{sep}{body}"));
    let mine = match (method.as_str(), target.as_str()) {
        ("GET", "/api") => Some(answer("200 OK", r#"{"kind":"APIVersions","versions":["v1"]}"#)),
        ("POST", "/api/v1/namespaces") => Some(answer("201 Created", &body)),
        ("DELETE", t) if t.starts_with("/api/v1/namespaces/") && t.matches('/').count() == 4 => {
            Some(answer("200 OK", r#"{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"x"}}"#))
        }
        _ => None,
    };
    if let Some(a) = mine {
        let _ = client.write_all(&a);
        return;
    }
    let run_ns =
        target.split('/').nth(4).filter(|n| n.starts_with("rvlab-")).unwrap_or("default").to_string();
    let body = body.replace(&run_ns, "default");
    let head = head.replacen(&run_ns, "default", 1).replacen(
        &format!("Content-Length: {length}"),
        &format!("Content-Length: {}", body.len()),
        1,
    );
    let forward = format!("{head}{body}");
    let mut up = TcpStream::connect(backend).expect("backend");
    up.write_all(forward.as_bytes()).expect("forward");
    let _ = std::io::copy(&mut up, &mut client);
}
