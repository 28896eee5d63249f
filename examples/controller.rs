//! A kube-rs controller over ConfigMaps, to run against `rvlab serve` (or any cluster):
//!
//! ```sh
//! cargo run --release --bin rvlab -- serve            # writes ./rvlab.kubeconfig
//! cargo run --example controller -- --kubeconfig rvlab.kubeconfig [--streaming-lists] [--page-size N]
//! ```
//!
//! A `Controller` (kube-runtime 5.0.0) fed by a `watcher` whose events go through a `reflector`
//! store; its reconcile records each ConfigMap it saw. What it prints on stdout, one JSON object
//! per line, flushed after each (nothing else goes to stdout; logs go to stderr):
//!
//! - `{"cache":[["name","resourceVersion"],…]}` whenever the reflector's store changes (sorted by
//!   name; the first line is the empty store);
//! - `{"error":"…"}` for each error the watcher surfaces (a 410 on a re-watch, a 429 while the
//!   watch cache initialises, a failed list page…); the watcher then backs off and recovers by
//!   itself;
//! - `{"reconciled":"name","rv":"…"}` for each reconcile.
//!
//! After a relist (a 410, or a restart of the watch), kube-runtime hands the Controller the
//! relisted objects (`InitApply`) before its reflector swaps them into the store (at `InitDone`,
//! kube-runtime 5.0.0 `src/reflector/store.rs`); an object first seen in that relist is then
//! "not found in local store" and its reconcile is dropped (an error on stderr). So this
//! controller also reconciles everything once each list is in the store (`reconcile_all_on`).
//!
//! It exits 0 when its standard input reaches end of file, and 1 with a message on stderr when
//! the kubeconfig cannot be read or the server cannot be reached.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(host::main());
}

/// Nothing to run in a browser: the example is a host program.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod host {
    use std::io::Write;
    use std::path::PathBuf;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use futures::StreamExt;
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::config::{KubeConfigOptions, Kubeconfig};
    use kube::runtime::controller::{Action, Controller};
    use kube::runtime::reflector::{self, Store};
    use kube::runtime::{WatchStreamExt, watcher};
    use kube::{Api, Client, Config, ResourceExt};
    use tokio::io::AsyncBufReadExt;

    const USAGE: &str =
        "usage: controller --kubeconfig PATH [--namespace NS] [--streaming-lists] [--page-size N]";

    /// The command line.
    #[derive(Debug)]
    struct Args {
        kubeconfig: PathBuf,
        namespace: String,
        streaming_lists: bool,
        page_size: Option<u32>,
    }

    fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
        let (mut kubeconfig, mut namespace, mut streaming_lists, mut page_size) =
            (None, "default".to_string(), false, None);
        while let Some(a) = it.next() {
            let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value\n{USAGE}"));
            match a.as_str() {
                "--kubeconfig" => kubeconfig = Some(PathBuf::from(value("--kubeconfig")?)),
                "--namespace" => namespace = value("--namespace")?,
                "--streaming-lists" => streaming_lists = true,
                "--page-size" => {
                    let v = value("--page-size")?;
                    match v.parse::<u32>() {
                        Ok(n) if n > 0 => page_size = Some(n),
                        _ => return Err(format!("--page-size {v:?}: not a positive whole number\n{USAGE}")),
                    }
                }
                "-h" | "--help" => return Err(USAGE.to_string()),
                other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
            }
        }
        let kubeconfig = kubeconfig.ok_or_else(|| format!("--kubeconfig is required\n{USAGE}"))?;
        Ok(Args { kubeconfig, namespace, streaming_lists, page_size })
    }

    /// One line on stdout, flushed. A closed stdout ends nothing: the driver reads what it wants.
    fn emit(v: serde_json::Value) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{v}");
        let _ = out.flush();
    }

    /// The store as `[[name, resourceVersion], …]`, sorted by name.
    fn snapshot(store: &Store<ConfigMap>) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> =
            store.state().iter().map(|o| (o.name_any(), o.resource_version().unwrap_or_default())).collect();
        v.sort();
        v
    }

    /// What reconcile needs: nothing but the right to print.
    struct Ctx;

    #[derive(Debug)]
    enum Never {}

    impl std::fmt::Display for Never {
        fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match *self {}
        }
    }

    impl std::error::Error for Never {}

    /// Records what it saw; a real controller would act here.
    async fn reconcile(cm: Arc<ConfigMap>, _ctx: Arc<Ctx>) -> Result<Action, Never> {
        emit(
            serde_json::json!({"reconciled": cm.name_any(), "rv": cm.resource_version().unwrap_or_default()}),
        );
        Ok(Action::await_change())
    }

    fn error_policy(_cm: Arc<ConfigMap>, e: &Never, _ctx: Arc<Ctx>) -> Action {
        match *e {}
    }

    pub fn main() -> i32 {
        let args = match parse_args(std::env::args().skip(1)) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("controller: {e}");
                return 1;
            }
        };
        let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(rt) => rt,
            Err(e) => {
                eprintln!("controller: cannot start the async runtime: {e}");
                return 1;
            }
        };
        match rt.block_on(run(args)) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("controller: {e}");
                1
            }
        }
    }

    async fn client(args: &Args) -> Result<Client, String> {
        let path = args.kubeconfig.display();
        let kc = Kubeconfig::read_from(&args.kubeconfig)
            .map_err(|e| format!("cannot read kubeconfig {path}: {e}"))?;
        let config = Config::from_custom_kubeconfig(kc, &KubeConfigOptions::default())
            .await
            .map_err(|e| format!("kubeconfig {path}: {e}"))?;
        let url = config.cluster_url.to_string();
        let client =
            Client::try_from(config).map_err(|e| format!("kubeconfig {path}: cannot make a client: {e}"))?;
        // One request before any watch, so an unreachable server is an exit, not a retry loop.
        match tokio::time::timeout(Duration::from_secs(10), client.apiserver_version()).await {
            Ok(Ok(v)) => eprintln!("controller: connected to {url} ({})", v.git_version),
            Ok(Err(e)) => return Err(format!("cannot reach the server at {url}: {e}")),
            Err(_) => return Err(format!("cannot reach the server at {url}: no answer within 10s")),
        }
        Ok(client)
    }

    async fn run(args: Args) -> Result<(), String> {
        let client = client(&args).await?;
        let api: Api<ConfigMap> = Api::namespaced(client, &args.namespace);
        let mut wc = watcher::Config::default();
        if args.streaming_lists {
            wc = wc.streaming_lists();
        }
        if let Some(n) = args.page_size {
            wc = wc.page_size(n);
        }

        let (reader, writer) = reflector::store::<ConfigMap>();
        let seen = reader.clone();
        let last: Mutex<Option<Vec<(String, String)>>> = Mutex::new(None);
        // Each complete list, once the store holds it: reconcile everything then.
        let (listed, lists) = futures::channel::mpsc::unbounded::<()>();
        // The watcher (list then watch, or a streaming list), with client-go's backoff after an
        // error, feeding the reflector's store; each change of the store and each error is printed
        // before the Controller sees the object.
        let trigger = watcher(api, wc)
            .default_backoff()
            .reflect(writer)
            .inspect(move |ev| match ev {
                Ok(ev) => {
                    if matches!(ev, watcher::Event::InitDone) {
                        let _ = listed.unbounded_send(());
                    }
                    let now = snapshot(&seen);
                    let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
                    if last.as_ref() != Some(&now) {
                        emit(serde_json::json!({"cache": now}));
                        *last = Some(now);
                    }
                }
                Err(e) => {
                    eprintln!("controller: watcher error: {e:?}");
                    emit(serde_json::json!({"error": e.to_string()}));
                }
            })
            .touched_objects();
        let controller = Controller::for_stream(trigger, reader)
            .reconcile_all_on(lists)
            .run(reconcile, error_policy, Arc::new(Ctx))
            .for_each(|r| async move {
                if let Err(e) = r {
                    eprintln!("controller: {e}");
                }
            });

        let mut stdin = tokio::io::BufReader::new(tokio::io::stdin()).lines();
        let eof = async move {
            // Input lines mean nothing yet; end of file (or an unreadable stdin) ends the run.
            while let Ok(Some(_)) = stdin.next_line().await {}
        };
        tokio::select! {
            () = controller => Err("the controller stopped".to_string()),
            () = eof => Ok(()),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::parse_args;

        fn args(a: &[&str]) -> Result<super::Args, String> {
            parse_args(a.iter().map(|s| s.to_string()))
        }

        #[test]
        fn flags() {
            let a = args(&["--kubeconfig", "k", "--streaming-lists", "--page-size", "3", "--namespace", "x"])
                .unwrap();
            assert_eq!(
                (a.kubeconfig.to_str(), a.namespace.as_str(), a.streaming_lists, a.page_size),
                (Some("k"), "x", true, Some(3))
            );
            assert!(args(&[]).unwrap_err().starts_with("--kubeconfig is required"));
            assert!(
                args(&["--kubeconfig", "k", "--page-size", "0"])
                    .unwrap_err()
                    .starts_with("--page-size \"0\"")
            );
            assert!(args(&["--kubeconfig"]).unwrap_err().starts_with("--kubeconfig needs a value"));
        }
    }
}
