use rvlab::client::{Informer, InformerMode};
use rvlab::cluster::Cluster;

fn create(c: &mut Cluster, name: &str) -> String {
    let (r, _) = c.request(0, "POST", "/api/v1/namespaces/default/configmaps", Some(&format!(r#"{{"metadata":{{"name":"{name}"}}}}"#)));
    assert_eq!(r.code, 201, "{}", r.body);
    r.body["metadata"]["resourceVersion"].as_str().unwrap().to_string()
}

#[test]
fn explore() {
    let mut c = Cluster::new();
    create(&mut c, "a");
    create(&mut c, "b");
    let mut inf = Informer::new("inf", "configmaps", Some("default"), InformerMode::Legacy, 0, 1, None);
    inf.poll(&mut c);
    create(&mut c, "c");
    inf.poll(&mut c);
    c.compact(4).unwrap();
    println!("{:#}", inf.show());
    let mut s = Informer::new("s", "configmaps", Some("default"), InformerMode::Streaming, 0, 1, None);
    s.poll(&mut c);
    println!("{:#}", s.show());
}
