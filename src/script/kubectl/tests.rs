//! The requests each `kubectl` line becomes, and what kubectl refuses itself.
use serde_json::json;

use super::*;
use crate::script::lex::{ParseError, Words};

fn parse_any(line: &str) -> Result<KubectlCommand, ParseError> {
    parse(&mut Words::new(line.strip_prefix("kubectl ").unwrap_or(line)))
}

fn plan(line: &str) -> Plan {
    Plan::new(parse_any(line).unwrap())
}

/// The request lines kubectl 1.32.4 sent (`-v=8`), for each form.
#[test]
fn get_pages_then_watches_from_the_list_rv() {
    let mut p = plan("kubectl get cm --chunk-size=1 -w");
    assert_eq!(p.next(None).unwrap().line(), "GET /api/v1/namespaces/default/configmaps?limit=1");
    let page1 = json!({"kind": "ConfigMapList", "metadata": {"resourceVersion": "3", "continue": "abc="}});
    assert_eq!(
        p.next(Some(Answer { code: 200, body: &page1 })).unwrap().line(),
        "GET /api/v1/namespaces/default/configmaps?continue=abc%3D&limit=1"
    );
    let page2 = json!({"kind": "ConfigMapList", "metadata": {"resourceVersion": "3"}});
    let w = p.next(Some(Answer { code: 200, body: &page2 })).unwrap();
    assert_eq!(w.line(), "GET /api/v1/namespaces/default/configmaps?resourceVersion=3&watch=true");
    assert!(w.is_watch());
    assert!(p.next(Some(Answer { code: 200, body: &json!({}) })).is_none());

    let mut p = plan("kubectl get pods -n kube-system");
    assert_eq!(p.next(None).unwrap().line(), "GET /api/v1/namespaces/kube-system/pods?limit=500");
    assert!(p.next(Some(Answer { code: 200, body: &json!({"kind": "PodList", "metadata": {}}) })).is_none());

    let mut p = plan("kubectl get configmap a -w --output-watch-events");
    assert_eq!(p.next(None).unwrap().line(), "GET /api/v1/namespaces/default/configmaps/a");
    let obj = json!({"kind": "ConfigMap", "metadata": {"name": "a", "resourceVersion": "2"}});
    assert_eq!(
        p.next(Some(Answer { code: 200, body: &obj })).unwrap().line(),
        "GET /api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Da&resourceVersion=0&watch=true"
    );
    let mut p = plan("kubectl get configmap a -w");
    p.next(None);
    assert!(p.next(Some(Answer { code: 404, body: &json!({"kind": "Status"}) })).is_none(), "stops on error");
}

#[test]
fn create_delete_patch_send_what_kubectl_sends() {
    let mut p = plan("kubectl create configmap a --from-literal=k=v --from-literal=a=1");
    let r = p.next(None).unwrap();
    assert_eq!(
        r.line(),
        "POST /api/v1/namespaces/default/configmaps?fieldManager=kubectl-create&fieldValidation=Strict \
         {\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\",\"creationTimestamp\":null},\"data\":{\"a\":\"1\",\"k\":\"v\"}}"
    );
    let mut p = plan("kubectl delete cm a");
    assert_eq!(
        p.next(None).unwrap().line(),
        "DELETE /api/v1/namespaces/default/configmaps/a {\"propagationPolicy\":\"Background\"}"
    );
    assert_eq!(
        p.next(Some(Answer { code: 200, body: &json!({}) })).unwrap().line(),
        "GET /api/v1/namespaces/default/configmaps/a"
    );
    let mut p = plan("kubectl delete cm a");
    p.next(None);
    assert!(p.next(Some(Answer { code: 404, body: &json!({}) })).is_none());
    let mut p = plan("kubectl patch cm a -p {\"data\":{\"x\":\"1\"}}");
    assert_eq!(p.next(None).unwrap().line(), "GET /api/v1/namespaces/default/configmaps/a");
    let r = p.next(Some(Answer { code: 200, body: &json!({}) })).unwrap();
    assert_eq!(r.patch_type, Some(PatchType::Strategic));
    assert_eq!(
        r.line(),
        "PATCH /api/v1/namespaces/default/configmaps/a?fieldManager=kubectl-patch type=strategic {\"data\":{\"x\":\"1\"}}"
    );
    let mut p = plan("kubectl patch cm a --type=json -p '[{\"op\":\"remove\",\"path\":\"/data/x\"}]'");
    p.next(None);
    let r = p.next(Some(Answer { code: 200, body: &json!({}) })).unwrap();
    assert_eq!(r.patch_type, Some(PatchType::Json));
}

/// `-A`, `-l`, `--field-selector` and `-o` as kubectl 1.32 turns them into requests
/// (`get.go` `Run`: the builder's `LabelSelectorParam`/`FieldSelectorParam`/`AllNamespaces`;
/// `transformRequests` for the Table `Accept`; the query encoded by `url.Values.Encode`,
/// keys sorted).
#[test]
fn get_flags_change_the_requests_as_kubectl_does() {
    let list = json!({"kind": "ConfigMapList", "metadata": {"resourceVersion": "7"}});
    let mut p = plan("kubectl get cm -A -l app=web,tier!=db --field-selector metadata.name!=x -w");
    let r = p.next(None).unwrap();
    assert_eq!(
        r.line(),
        "GET /api/v1/configmaps?fieldSelector=metadata.name%21%3Dx&labelSelector=app%3Dweb%2Ctier%21%3Ddb&limit=500"
    );
    assert_eq!(r.accept, Some(TABLE_ACCEPT));
    let w = p.next(Some(Answer { code: 200, body: &list })).unwrap();
    assert_eq!(
        w.line(),
        "GET /api/v1/configmaps?fieldSelector=metadata.name%21%3Dx&labelSelector=app%3Dweb%2Ctier%21%3Ddb&resourceVersion=7&watch=true"
    );
    assert_eq!(w.accept, Some(TABLE_ACCEPT));
    // A 410 ERROR event (or any end of the watch) ends kubectl: nothing more is sent.
    assert!(p.next(Some(Answer { code: 200, body: &json!({"type": "ERROR"}) })).is_none());

    // -A wins over -n; --selector= and --all-namespaces are the long forms.
    let mut p = plan("kubectl get pods -n x --all-namespaces --selector=a=b --chunk-size=0 -o json");
    let r = p.next(None).unwrap();
    assert_eq!(r.line(), "GET /api/v1/pods?labelSelector=a%3Db");
    assert_eq!(r.accept, None, "-o json: no Table");
    for (o, table) in [("json", false), ("yaml", false), ("name", false), ("wide", true)] {
        let r = plan(&format!("kubectl get cm a -o {o}")).next(None).unwrap();
        assert_eq!(r.line(), "GET /api/v1/namespaces/default/configmaps/a");
        assert_eq!(r.accept.is_some(), table, "-o {o}");
    }
    let r = plan("kubectl get cm a").next(None).unwrap();
    assert_eq!(r.accept, Some(TABLE_ACCEPT));
}

/// `kubectl get --raw <path>`: one GET of the path as given (`rawhttp.RawGet`), no paging.
#[test]
fn get_raw_is_one_get_of_the_path() {
    let mut p = plan("kubectl get --raw /api/v1/namespaces/default/configmaps?limit=1&watch=false");
    let r = p.next(None).unwrap();
    assert_eq!(r.line(), "GET /api/v1/namespaces/default/configmaps?limit=1&watch=false");
    assert_eq!(r.accept, None);
    let page = json!({"metadata": {"continue": "abc"}});
    assert!(p.next(Some(Answer { code: 200, body: &page })).is_none());
    let r = plan("kubectl get --raw=/api").next(None).unwrap();
    assert_eq!(r.line(), "GET /api");
}

/// `kubectl apply --server-side -f -`: one PATCH of type apply with
/// `fieldManager=kubectl&fieldValidation=Strict&force=false` (`apply.go` `applyOneObject`),
/// the object with its namespace set and its keys sorted (Unstructured's JSON).
#[test]
fn apply_server_side_patches_with_kubectls_options() {
    let mut p = plan(
        "kubectl apply --server-side -f - {\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\"},\"data\":{\"z\":\"1\",\"b\":\"2\"}}",
    );
    let r = p.next(None).unwrap();
    assert_eq!(r.patch_type, Some(PatchType::Apply));
    assert_eq!(
        r.line(),
        "PATCH /api/v1/namespaces/default/configmaps/a?fieldManager=kubectl&fieldValidation=Strict&force=false type=apply \
         {\"apiVersion\":\"v1\",\"data\":{\"b\":\"2\",\"z\":\"1\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"default\"}}"
    );
    assert!(p.next(Some(Answer { code: 200, body: &json!({}) })).is_none());
    let r = plan("kubectl apply -n x --server-side -f - '{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\"}}'")
        .next(None)
        .unwrap();
    assert!(r.line().starts_with("PATCH /api/v1/namespaces/x/pods/p?fieldManager=kubectl&"));
    let r = plan("kubectl apply --server-side -f - {\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\",\"namespace\":\"y\"}}")
        .next(None)
        .unwrap();
    assert!(r.line().starts_with("PATCH /api/v1/namespaces/y/pods/p?"));
}

/// What kubectl refuses itself, with its own words.
#[test]
fn kubectl_refusals_use_kubectls_text() {
    let e = |l: &str| parse_any(l).unwrap_err().to_string();
    assert!(e("get cm a -A").contains("error: a resource cannot be retrieved by name across all namespaces"));
    assert!(e("get cm a -l x=y").contains("error: name cannot be provided when a selector is specified"));
    assert!(e("get --raw /api -w").contains("--raw may not be specified with other flags"));
    assert!(e("get --raw /api -o json").contains("error: --raw and --output are mutually exclusive"));
    assert!(e("get --raw /api cm").contains("error: arguments may not be passed when --raw is specified"));
    assert!(e("get cm a -A -l x=y").contains("name cannot be provided when a selector is specified"));
    assert!(e("get --raw api").contains("--raw must be a valid URL path"));
    assert!(e("get cm -o table").contains("-o must be one of json, yaml, name or wide"));
    assert!(e("get cm -l").contains("-l needs a value"));
    assert!(e("apply -f - {}").contains("--server-side"));
    assert!(e("apply --server-side -f - {\"kind\":\"Secret\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"s\"}}").contains(
        "no matches for kind \"Secret\" in version \"v1\""
    ));
    assert!(e("apply --server-side -n a -f - {\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\",\"namespace\":\"b\"}}")
        .contains("the namespace from the provided object \"b\" does not match the namespace \"a\""));
}

#[test]
fn parse_errors_say_what_is_expected() {
    let e = |l: &str| parse_any(l).unwrap_err().to_string();
    assert!(e("get secrets").contains("unknown resource \"secrets\""));
    assert!(e("get cm --chunk-size=-1").contains("--chunk-size takes a number"));
    assert!(e("create secret a").contains("can only create a configmap"));
    assert!(e("delete cm").contains("missing name"));
    assert!(e("patch cm a --type=apply -p {}").contains("--type must be one of"));
    assert!(e("patch cm a -p {").contains("not valid JSON"));
    assert!(e("get cm a/b").contains("cannot be used in a URL path"));
    assert!(e("frobnicate").contains("unknown command"));
}

#[test]
fn display_reads_back() {
    for l in [
        "get configmaps",
        "get pods a -n ns --chunk-size=0 -w --output-watch-events",
        "create configmap a -n x --from-literal=k=v \"--from-literal=a=b c\"",
        "delete pods p -n ns",
        "patch configmaps a --type=json -p [{\"op\":\"remove\",\"path\":\"/data/x\"}]",
        "patch configmaps a -p {\"data\":{\"k\":\"v\"}}",
        "get pods -A -l a=b --field-selector spec.nodeName=n -o wide -w",
        "get configmaps a -n x -o name",
        "get --raw /api/v1/pods?limit=1",
        "apply --server-side -n x -f - {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}",
    ] {
        let c = parse_any(l).unwrap();
        let shown = c.to_string();
        let again = parse_any(&shown).unwrap();
        assert_eq!(c, again, "{l} → {shown}");
    }
}
