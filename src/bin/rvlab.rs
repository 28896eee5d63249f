//! `rvlab`: runs playground scripts in the terminal.
//!
//! * `rvlab run [--explain] FILE|-` prints one JSON object per executed line (JSON Lines); a
//!   script over `script::batch`'s limits runs nothing and prints one error object (exit 2).
//! * `rvlab run --against KUBECONFIG FILE|-` runs the script's API lines against a real cluster
//!   and the simulation and prints both with their differences (see `rvlab::against`).
//! * `rvlab test FILE|DIR...` runs scripts with their `expect` lines and ends with
//!   `N passed, N failed`.
//! * `rvlab serve [...] [SCRIPT...]` serves the simulated cluster as a Kubernetes HTTP API on
//!   loopback (see `rvlab::serve`).
fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(cli::main());
}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use std::io::{Read, Write};
    use std::path::{Path, PathBuf};

    use rvlab::script::{Session, batch};

    const USAGE: &str = "usage:
  rvlab run [--explain] FILE|-     run a script, print one JSON object per line (at most
                                   50000 lines and 8192 KB: a bigger script prints one error)
  rvlab run --against KUBECONFIG [--keep-namespaces] [--explain] FILE|-
                                   run the script's API lines against the cluster the
                                   kubeconfig names and against the simulation; print both
                                   and what differs (exit 0 same, 1 different, 2 trouble)
  rvlab test FILE|DIR...           run scripts and check their expect lines
  rvlab serve [--listen ADDR:PORT] [--http | --page-listen ADDR:PORT] [--tls-cert-dir DIR]
              [--kubeconfig PATH] [--speed N] [--record FILE]
              [--dist DIR] [--stdin] [--watch-delay DURATION] [SCRIPT...]
                                   a Kubernetes API on loopback for kubectl and client libraries:
                                   HTTPS with a CA made at start (kept in --tls-cert-dir), the
                                   playground over plain HTTP on --page-listen (next port);
                                   --http serves both over plain HTTP on --listen;
                                   --watch-delay (or the line `network watch-delay 2s`) holds each
                                   watch request that long before the apiserver sees it
  rvlab --version";

    pub fn main() -> i32 {
        let args: Vec<String> = std::env::args().skip(1).collect();
        match args.first().map(String::as_str) {
            Some("--version") | Some("-V") => {
                println!("rvlab {}", rvlab::VERSION);
                0
            }
            Some("run") => run(&args[1..]),
            Some("test") => test(&args[1..]),
            Some("serve") => serve(&args[1..]),
            Some("help") | Some("--help") | Some("-h") => {
                println!("{USAGE}");
                0
            }
            _ => {
                eprintln!("{USAGE}");
                2
            }
        }
    }

    fn serve(args: &[String]) -> i32 {
        let cfg = match rvlab::serve::ServeConfig::parse(args) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("rvlab serve: {e}\n{USAGE}");
                return 2;
            }
        };
        match rvlab::serve::run(cfg) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("{e}");
                1
            }
        }
    }

    fn read_input(path: &str) -> Result<String, String> {
        if path == "-" {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).map_err(|e| format!("rvlab: reading stdin: {e}"))?;
            Ok(s)
        } else {
            std::fs::read_to_string(path).map_err(|e| format!("rvlab: {path}: {e}"))
        }
    }

    fn run(args: &[String]) -> i32 {
        let mut explain = false;
        let mut file = None;
        let mut against = None;
        let mut keep_namespaces = false;
        let mut args = args.iter();
        while let Some(a) = args.next() {
            match a.as_str() {
                "--explain" => explain = true,
                "--keep-namespaces" => keep_namespaces = true,
                "--against" => match args.next() {
                    Some(k) => against = Some(PathBuf::from(k)),
                    None => {
                        eprintln!("rvlab run: --against needs a kubeconfig\n{USAGE}");
                        return 2;
                    }
                },
                _ if file.is_none() => file = Some(a.clone()),
                _ => {
                    eprintln!("{USAGE}");
                    return 2;
                }
            }
        }
        let Some(file) = file else {
            eprintln!("{USAGE}");
            return 2;
        };
        let text = match read_input(&file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        };
        if keep_namespaces && against.is_none() {
            eprintln!("rvlab run: --keep-namespaces goes with --against\n{USAGE}");
            return 2;
        }
        if let Some(kubeconfig) = against {
            let opts = rvlab::against::Options { kubeconfig, explain, keep_namespaces };
            return rvlab::against::run(
                &opts,
                &text,
                &mut std::io::stdout().lock(),
                &mut std::io::stderr().lock(),
            );
        }
        let mut session = Session::with_explain(explain);
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        match batch::run_text(&mut session, 1, &text, |v| writeln!(out, "{v}")) {
            batch::Ended::Stopped(_) => 1,
            batch::Ended::Refused(_) => 2,
            batch::Ended::Ran { .. } if session.tally().parse_errors > 0 => 2,
            batch::Ended::Ran { .. } => 0,
        }
    }

    fn collect(path: &Path, into: &mut Vec<PathBuf>) {
        if path.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
                .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            entries.sort();
            for e in entries {
                if e.is_dir() || e.extension().is_some_and(|x| x == "rv") {
                    collect(&e, into);
                }
            }
        } else {
            into.push(path.to_path_buf());
        }
    }

    fn test(args: &[String]) -> i32 {
        if args.is_empty() {
            eprintln!("{USAGE}");
            return 2;
        }
        let mut files = Vec::new();
        for a in args {
            collect(Path::new(a), &mut files);
        }
        let (mut passed, mut failed) = (0usize, 0usize);
        for f in &files {
            let name = f.display().to_string();
            let text = match std::fs::read_to_string(f) {
                Ok(t) => t,
                Err(e) => {
                    println!("{name}: cannot read: {e}");
                    failed += 1;
                    continue;
                }
            };
            let mut session = Session::new();
            for (i, line) in text.lines().enumerate() {
                let Some(out) = session.run_line(i + 1, line) else { continue };
                if out.get("ok") == Some(&serde_json::Value::Bool(false)) {
                    println!(
                        "{name}:{}: FAILED {}\n    expected: {}\n    seen:     {}",
                        i + 1,
                        out["expect"].as_str().unwrap_or(""),
                        out["expected"].as_str().unwrap_or(""),
                        out["seen"].as_str().unwrap_or("")
                    );
                } else if let Some(err) = out.get("error").and_then(|e| e.as_str())
                    && rvlab::script::parse::parse_line(line.trim()).is_err()
                {
                    println!("{name}:{}: cannot parse: {err}", i + 1);
                    failed += 1;
                }
            }
            let t = session.tally();
            passed += t.expect_passed;
            failed += t.expect_failed;
            println!("{name}: {} passed, {} failed", t.expect_passed, t.expect_failed + t.parse_errors);
        }
        println!("{passed} passed, {failed} failed");
        if failed > 0 { 1 } else { 0 }
    }
}
