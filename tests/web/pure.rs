//! Pure helpers of the UI (no DOM): tokens, statuses, revisions, watches, request lines.

use super::*;

#[wasm_bindgen_test]
fn continue_token_decodes_as_the_spec_example() {
    let v =
        lines::decode_continue("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0").unwrap();
    assert_eq!(v, json!({"v": "meta.k8s.io/v1", "rv": 4, "start": "a\u{0}"}));
    assert_eq!(
        lines::describe_token("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0"),
        r#"rv 4, start "a\u0000""#
    );
    // The viewer's decoder is the apiserver's: on any token it says what the server says.
    for tok in ["ab!c", "bm90IGpzb24", "eyJ2IjoieCJ9", "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NH0", "YQ="] {
        let out = rvlab::script::Session::new()
            .run_line(1, &format!("GET /api/v1/namespaces/default/configmaps?limit=1&continue={tok}"))
            .unwrap();
        assert_eq!(out["code"], 400, "{out}");
        assert_eq!(
            lines::decode_continue(tok).unwrap_err(),
            out["body"]["message"].as_str().unwrap(),
            "{tok}"
        );
    }
    assert_eq!(
        lines::decode_continue("ab!c").unwrap_err(),
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 2"
    );
}

#[wasm_bindgen_test]
fn status_lines_and_errors() {
    use rvlab::script::reply::{ApiReply, EtcdReply, Reply};
    let gone = json!({"kind": "Status", "apiVersion": "v1", "metadata": {},
        "status": "Failure", "message": "too old", "reason": "Expired", "code": 410});
    let gone = ApiReply::of(410, Some(&gone), None, None);
    assert_eq!(lines::status_line(&gone), "410 Gone — Expired");
    assert!(lines::is_error(&Reply::Api(gone), false));
    let ok = json!({"kind": "PodList", "metadata": {"resourceVersion": "7"}, "items": []});
    let ok = ApiReply::of(200, Some(&ok), None, None);
    assert_eq!(lines::status_line(&ok), "200 OK");
    assert!(!lines::is_error(&Reply::Api(ok.clone()), false));
    assert!(lines::is_error(&Reply::Api(ok), true), "a line that did not run");
    let compacted = EtcdReply::refused(
        rvlab::apiserver::decision::EtcdOp::Range,
        "mvcc: required revision has been compacted".into(),
    );
    assert!(lines::is_error(&Reply::Etcd(compacted), false));
}

/// Each line of `lines` run in a fresh session, as the sandbox keeps it.
fn entries_of(lines: &[&str]) -> Vec<rvlab::ui::state::Entry> {
    let mut s = rvlab::script::Session::with_explain(true);
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| rvlab::ui::state::Entry::new(*l, s.run_line_outcome(i + 1, l)))
        .collect()
}

#[wasm_bindgen_test]
fn revisions_tokens_and_latest_object_are_read_from_the_typed_answers() {
    let pod = r#"{"metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"i"}]}}"#;
    let es = entries_of(&[
        &format!("POST /api/v1/namespaces/default/pods {pod}"),
        &format!("POST /api/v1/namespaces/default/pods {}", pod.replace("\"a\"", "\"b\"")),
        "GET /api/v1/namespaces/default/pods?limit=1",
        "etcd put /x 1",
        "GET /api/v1/namespaces/default/pods?limit=1&resourceVersion=2&resourceVersionMatch=Exact",
    ]);
    let replies = || es.iter().map(|e| &*e.reply);
    assert_eq!(lines::revisions_seen(replies()), vec![4, 3, 2]);
    let tokens = lines::tokens_seen(replies());
    assert_eq!(tokens.len(), 1, "{tokens:?}");
    assert_eq!(lines::describe_token(&tokens[0]), r#"rv 3, start "a\u0000""#);
    let answers = || es.iter().filter_map(|e| Some((e.out.as_deref()?, &*e.reply)));
    let a = lines::latest_object(answers(), "Pod", "default", "a").unwrap();
    assert_eq!(a["metadata"]["resourceVersion"], "2");
    assert_eq!(a["kind"], "Pod", "items get their kind back for an update body");
    let b = lines::latest_object(answers(), "Pod", "default", "b").unwrap();
    assert_eq!(b["metadata"]["resourceVersion"], "3");
    assert!(lines::latest_object(answers(), "ConfigMap", "default", "a").is_none());
    assert_eq!(lines::next_names(replies(), "a", 1), ["a-1"]);
}

#[wasm_bindgen_test]
fn watches_are_followed_through_the_log() {
    let cm =
        |n: &str| format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{n}"}}}}"#);
    let lines = [
        cm("a"),
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0".into(),
        "events w1".into(),
        "pause w1".into(),
        cm("b"),
    ];
    let mut s = rvlab::script::Session::with_explain(true);
    let es: Vec<_> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| rvlab::ui::state::Entry::new(l.as_str(), s.run_line_outcome(i + 1, l)))
        .collect();
    // The session's one model of each watch: the line that opened it and what the script did.
    let ws = s.watches();
    assert_eq!(ws.len(), 1);
    assert_eq!((ws[0].id.as_str(), ws[0].line), ("w1", 2));
    assert_eq!(
        es[ws[0].line - 1].line.to_string(),
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0"
    );
    let opened = es[ws[0].line - 1].why.as_deref();
    assert!(opened.is_some(), "the decision that opened it");
    assert_eq!(ws[0].script.reads, [3]);
    let read = &es[2];
    let frames = lines::frames_of(read.reply.events().unwrap(), read.why.as_deref(), opened);
    assert_eq!(
        frames[0],
        lines::Frame {
            kind: rvlab::apiserver::watch::FrameType::Added,
            name: "a".into(),
            rv: "2".into(),
            detail: String::new(),
            watch_why: opened.cloned(),
            ended_why: None
        }
    );
    let sc = &ws[0].script;
    assert!(sc.paused && !sc.closed && !sc.cancelled);
    // An ERROR frame says its Status code and reason.
    let error = rvlab::script::reply::EventFacts::of(
        rvlab::apiserver::watch::FrameType::Error,
        &json!({"kind": "Status", "code": 410, "reason": "Expired"}),
    );
    assert_eq!(lines::frame_of(&error).detail, "410 Expired");
}

/// The sandbox keeps what its outputs show (revisions, continue tokens) folded as lines
/// run, with marks every 1,024 entries; after every kind of change it must equal the fold of the
/// entries up to the scrubber.
#[wasm_bindgen_test]
fn the_sandbox_keeps_what_its_outputs_show_in_step_with_the_scrubber() {
    use rvlab::ui::state::{Action, Lab as Sandbox};
    use yew::functional::Reducible;
    let line = |i: usize| match i % 300 {
        7 => "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0".to_string(),
        11 | 150 => "events w1".to_string(),
        40 => "pause w1".to_string(),
        90 => "GET /api/v1/namespaces/default/configmaps?limit=1".to_string(),
        200 => "# a comment".to_string(),
        _ => format!(
            r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"c{i}"}},"data":{{"k":"v"}}}}"#
        ),
    };
    let check = |lab: &Sandbox, what: &str| {
        let vis = &lab.entries[..lab.at];
        let want = lines::Seen::of(vis);
        assert_eq!(lab.seen(), &want, "{what}: at {} of {}", lab.at, lab.entries.len());
    };
    let mut start = Sandbox::replay((0..2000).map(line).collect(), Vec::new());
    start.persist = false;
    let lab = Rc::new(start);
    check(&lab, "replayed");
    assert!(lab.seen().revisions().count() > 1000 && lab.seen().tokens().count() > 0);
    let lab = lab.reduce(Action::Run((2000..2100).map(line).collect()));
    check(&lab, "ran");
    let mut lab = lab;
    for n in [1500, 1025, 1024, 1023, 3, 4, 2048, 2100, 0, 2100] {
        lab = lab.reduce(Action::Seek(n));
        assert_eq!(lab.at, n);
        check(&lab, "seek");
    }
    let lab = lab.reduce(Action::Undo);
    check(&lab, "undo");
    let lab = lab.reduce(Action::Redo);
    check(&lab, "redo");
    let lab = lab.reduce(Action::Seek(1030)).reduce(Action::Run(vec![line(7)])).reduce(Action::ConfirmFork);
    assert_eq!(lab.entries.len(), 1031);
    check(&lab, "fork");
    let lab = lab.reduce(Action::Seek(1024)).reduce(Action::Run(vec![line(91)])).reduce(Action::ConfirmFork);
    assert_eq!(lab.entries.len(), 1025);
    check(&lab, "fork at a mark");
    let lab = lab.reduce(Action::PlayTick(2)).reduce(Action::PlayTick(3));
    assert_eq!(lab.entries.last().map(|e| &*e.line), Some("advance 5s"));
    check(&lab, "play");
    let lab = lab.reduce(Action::Seek(1025));
    check(&lab, "seek after play");
}

#[wasm_bindgen_test]
fn request_lines_for_every_verb() {
    let mut s = RequestSpec {
        verb: Verb::Update,
        name: "a".into(),
        body: "{\n \"a\": 1\n}".into(),
        ..RequestSpec::default()
    };
    assert_eq!(lines::request_line(&s), r#"PUT /api/v1/namespaces/default/pods/a {"a":1}"#);
    s.verb = Verb::List;
    s.namespace = String::new();
    s.continue_token = "abc".into();
    assert_eq!(lines::request_line(&s), "GET /api/v1/pods?continue=abc");
    assert_eq!(lines::shell_quote("it's"), r"'it'\''s'");
    assert_eq!(lines::split_script("a\r\n\n b \n"), vec!["a", "b"]);
    let es = entries_of(&[r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"pod-4"}}"#]);
    assert_eq!(lines::next_names(es.iter().map(|e| &*e.reply), "pod", 2), vec!["pod-5", "pod-6"]);
}
