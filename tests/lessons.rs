//! The lessons in `lessons/`: they parse, they are complete in English and Chinese, and replaying
//! each lesson's setup and reference solutions reaches every goal of every step.

use rvlab::lessons::{self, Lesson, check_step};
use rvlab::script::Session;
use rvlab::script::expect::Subject;
use serde_json::Value;

/// Runs lines in a session, returning their outputs.
fn run(session: &mut Session, line_no: &mut usize, lines: &[String]) -> Vec<Value> {
    lines
        .iter()
        .filter_map(|l| {
            *line_no += 1;
            session.run_line(*line_no, l)
        })
        .collect()
}

fn failures(lesson: &Lesson, step: usize, outputs: &[Value]) -> Vec<String> {
    check_step(&lesson.steps[step], outputs)
        .into_iter()
        .filter_map(|(i, r)| {
            r.err().map(|f| {
                format!(
                    "lesson {} step {} check {} (`{}`): {}",
                    lesson.slug,
                    step + 1,
                    i + 1,
                    lesson.steps[step].checks[i].assertion(),
                    f
                )
            })
        })
        .collect()
}

#[test]
fn every_lesson_parses() {
    for (name, text) in lessons::sources() {
        if let Err(e) = lessons::parse(text) {
            panic!("lessons/{name}: {e}");
        }
    }
    assert_eq!(lessons::all().len(), lessons::sources().len());
    assert!(lessons::all().len() >= 13);
}

#[test]
fn every_lesson_file_is_embedded_and_slugs_are_unique() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/lessons");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".rv"))
        .collect();
    on_disk.sort();
    let embedded: Vec<String> = lessons::sources().iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(on_disk, embedded, "lessons/*.rv and the list in src/lessons.rs differ");
    let mut slugs: Vec<String> = lessons::all().into_iter().map(|l| l.slug).collect();
    let n = slugs.len();
    slugs.sort();
    slugs.dedup();
    assert_eq!(slugs.len(), n, "duplicate lesson slugs");
}

#[test]
fn every_lesson_has_three_to_eight_steps() {
    for l in lessons::all() {
        assert!((3..=8).contains(&l.steps.len()), "lesson {} has {} steps", l.slug, l.steps.len());
    }
}

#[test]
fn both_languages_are_complete() {
    let mut missing = Vec::new();
    for l in lessons::all() {
        for m in l.missing_translations() {
            missing.push(format!("{}: {m}", l.slug));
        }
        // Chinese text should be Chinese, English text should not be.
        let zh_has_han = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        if !zh_has_han(&l.title.zh) {
            missing.push(format!("{}: title.zh is not Chinese", l.slug));
        }
        for (i, s) in l.steps.iter().enumerate() {
            for (what, t) in [("say", &s.say), ("goal", &s.goal), ("after", &s.after)] {
                if !t.zh.is_empty() && !zh_has_han(&t.zh) {
                    missing.push(format!("{}: step {} {what}.zh is not Chinese", l.slug, i + 1));
                }
                if zh_has_han(&t.en) {
                    missing.push(format!("{}: step {} {what}.en contains Chinese", l.slug, i + 1));
                }
            }
        }
    }
    assert!(missing.is_empty(), "missing or misplaced translations:\n{}", missing.join("\n"));
}

#[test]
fn reference_solutions_reach_every_goal() {
    let mut problems = Vec::new();
    for l in lessons::all() {
        let mut s = Session::new();
        let mut n = 0;
        for o in run(&mut s, &mut n, &l.setup) {
            if let Some(e) = o.get("error") {
                problems.push(format!("lesson {} setup: {e}", l.slug));
            }
        }
        for i in 0..l.steps.len() {
            let outs = run(&mut s, &mut n, &l.steps[i].solution);
            // An `error` output is a problem unless the step is about it (`check error …`).
            let wants_error = l.steps[i].checks.iter().any(|c| c.subject == Subject::Error);
            for o in &outs {
                if let (Some(e), false) = (o.get("error"), wants_error) {
                    problems.push(format!("lesson {} step {}: {e}", l.slug, i + 1));
                }
            }
            problems.extend(failures(&l, i, &outs));
            // The pins hold too, when run right after the solution (as `rvlab test` does).
            let pins = run(&mut s, &mut n, &l.steps[i].pins);
            assert!(pins.iter().all(|p| p.get("expect").is_some()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn lesson_files_pass_as_scripts() {
    for (name, text) in lessons::sources() {
        let mut s = Session::new();
        let outs = s.run_script(text);
        let t = s.tally();
        let failed: Vec<String> = outs
            .iter()
            .filter(|o| o.get("ok") == Some(&Value::Bool(false)))
            .map(|o| format!("line {}: expected {}, seen {}", o["line"], o["expected"], o["seen"]))
            .collect();
        assert_eq!(t.parse_errors, 0, "lessons/{name}: parse errors");
        assert!(failed.is_empty(), "lessons/{name}:\n{}", failed.join("\n"));
        assert!(t.expect_passed > 0, "lessons/{name}: no expect pins");
    }
}

#[test]
fn a_wrong_solution_fails_with_a_useful_message() {
    let l = lessons::find("where-rv-comes-from").expect("lesson 1");
    let mut s = Session::new();
    let mut n = 0;
    run(&mut s, &mut n, &l.setup);
    // Step 1 asks for a ConfigMap named a; create one named b instead.
    let outs = run(
        &mut s,
        &mut n,
        &[r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}"#.to_string()],
    );
    let res = check_step(&l.steps[0], &outs);
    let errs: Vec<String> = res.iter().filter_map(|(_, r)| r.as_ref().err().map(|f| f.to_string())).collect();
    assert_eq!(
        errs,
        vec![r#"expected body.metadata.name == "a", seen body.metadata.name == "b""#.to_string()]
    );
    assert!(!lessons::step_done(&l.steps[0], &outs));

    // Nothing done yet.
    let res = check_step(&l.steps[0], &[]);
    assert!(res.iter().all(|(_, r)| r.as_ref().is_err_and(|f| f.seen == "nothing yet")));

    // Now do it right, after the wrong attempt: any output of the step may satisfy the goal.
    let mut outs2 = outs.clone();
    outs2.extend(run(
        &mut s,
        &mut n,
        &[r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}"#.to_string()],
    ));
    let res = check_step(&l.steps[0], &outs2);
    // a got revision 3 here (b took 2), so the resourceVersion check still explains what differs.
    let errs: Vec<String> = res.iter().filter_map(|(_, r)| r.as_ref().err().map(|f| f.to_string())).collect();
    assert_eq!(
        errs,
        vec![
            r#"expected body.metadata.resourceVersion == "2", seen body.metadata.resourceVersion == "3""#
                .to_string()
        ]
    );
}

#[test]
fn checks_of_a_group_must_hold_for_one_output() {
    let l = lessons::parse(
        "#: lesson t\n#: title.en T\n#: title.zh 测试\n#: step\n#: say.en s\n#: say.zh 说\n#: goal.en g\n#: goal.zh 目标\n\
         #: check code 201\n#: check+ body.metadata.name == \"b\"\n#: check code 200\n\
         POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"a\"}}\n",
    )
    .unwrap();
    let step = &l.steps[0];
    assert_eq!(step.check_groups, vec![1, 1, 2]);
    let mut s = Session::new();
    let mut n = 0;
    let outs = run(
        &mut s,
        &mut n,
        &[
            r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}"#.to_string(),
            "GET /api/v1/namespaces/default/configmaps/b".to_string(),
        ],
    );
    // code 201 (from a) and name b never occur in one output; code 200 never occurs (b is 404).
    let res = check_step(step, &outs);
    assert_eq!(res.len(), 3);
    assert!(res[0].1.is_ok(), "{:?}", res[0]);
    assert_eq!(res[1].1.as_ref().unwrap_err().seen, r#"body.metadata.name == "a""#);
    assert_eq!(res[2].1.as_ref().unwrap_err().to_string(), "expected code 200, seen code 404");
}

#[test]
fn parse_errors_name_the_line() {
    let e = lessons::parse("#: lesson t\n#: title.en T\n#: step\n#: sai.en x\n").unwrap_err();
    assert!(e.starts_with("line 4: unknown `#: sai.en`"), "{e}");
    let e = lessons::parse("#: lesson t\n#: title.en T\n#: step\n#: check+ code 200\n").unwrap_err();
    assert!(e.contains("line 4"), "{e}");
    let e = lessons::parse(
        "#: lesson t\n#: title.en T\n#: step\n#: goal.en g\n#: check code 2 00 x\nGET /api/v1/pods\n",
    )
    .unwrap_err();
    assert!(e.starts_with("line 5: check:"), "{e}");
    let e =
        lessons::parse("#: lesson t\n#: title.en T\n#: step\n#: goal.en g\n#: check code 200\nFETCH /x\n")
            .unwrap_err();
    assert!(e.starts_with("line 6:"), "{e}");
    let e =
        lessons::parse("#: lesson t\n#: title.en T\n#: step\n#: goal.en g\nGET /api/v1/pods\n").unwrap_err();
    assert!(e.contains("no `#: check`"), "{e}");
    // Text joins: lines with a space, an empty line makes a paragraph.
    let l = lessons::parse(
        "#: lesson t\n#: title.en T\n#: step\n#: say.en one\n#: say.en two\n#: say.en\n#: say.en three\n#: goal.en g\n#: check code 200\nGET /api/v1/pods\n",
    )
    .unwrap();
    assert_eq!(l.steps[0].say.en, "one two\n\nthree");
    assert_eq!(l.steps[0].say.get("zh"), "one two\n\nthree");
}

/// The lesson files the documentation site ships next to its pages (`site/src/**/*.rv`, embedded
/// with `lesson-src=`): they parse, are complete in both languages, their reference solutions
/// reach every goal, and their `expect` pins pass, like the lessons in `lessons/`.
#[test]
fn the_books_own_lesson_files_are_checked_like_the_lessons() {
    fn rv_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).expect("site/src is readable").flatten() {
            let p = e.path();
            // `site/src/data/` holds recorded sessions (`./dev.sh recovery`), not lessons.
            if p.is_dir() && !p.ends_with("site/src/data") {
                rv_files(&p, out);
            } else if p.is_file() && p.extension().is_some_and(|x| x == "rv") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    rv_files(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/site/src")), &mut files);
    assert!(!files.is_empty(), "the book's chapter for documentation writers embeds a lesson file");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.display();
        let l = lessons::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(l.missing_translations().is_empty(), "{name}: {:?}", l.missing_translations());
        let mut s = Session::new();
        let mut n = 0;
        run(&mut s, &mut n, &l.setup);
        for i in 0..l.steps.len() {
            let outs = run(&mut s, &mut n, &l.steps[i].solution);
            let f = failures(&l, i, &outs);
            assert!(f.is_empty(), "{name}: {}", f.join("\n"));
            run(&mut s, &mut n, &l.steps[i].pins);
        }
        let mut s = Session::new();
        let outs = s.run_script(&text);
        let failed: Vec<&Value> = outs.iter().filter(|o| o.get("ok") == Some(&Value::Bool(false))).collect();
        assert_eq!(s.tally().parse_errors, 0, "{name}: parse errors");
        assert!(failed.is_empty(), "{name}: {failed:?}");
        assert!(s.tally().expect_passed > 0, "{name}: no expect pins");
    }
}

/// Lesson 1, step 5 ("read `a` from etcd again and find its version"): the etcd panel's Read
/// etcd (every key under /registry/) reads `a` at its current version and passes the step, as
/// does the single-key read; a read before the update does not, and says so in the learner's
/// words in both languages (no checker expressions).
#[test]
fn lesson_one_step_five_accepts_the_etcd_panels_read() {
    use rvlab::lessons::{check_step, still_missing};
    use rvlab::script::why::Lang;
    let l = rvlab::lessons::find("where-rv-comes-from").expect("lesson 1");
    let step = &l.steps[4];
    assert!(step.goal.get("en").contains("find its `version`"), "{}", step.goal.get("en"));
    let mut s = Session::new();
    for st in &l.steps[..4] {
        s.run_script(&st.solution.join("\n"));
    }
    // What the etcd panel's Read etcd runs (`ui::lines::etcd_read_all`).
    let panel = s.run_script(&format!("etcd get {} --prefix", rvlab::apiserver::resource::KEY_PREFIX));
    assert!(rvlab::lessons::step_done(step, &panel), "{panel:?}");
    let single = s.run_script("etcd get /registry/configmaps/default/a");
    assert!(rvlab::lessons::step_done(step, &single));
    // Reading `a` as it was at revision 2 is not what the step asks.
    let old = s.run_script("etcd get /registry/configmaps/default/a --rev=3");
    let res = check_step(step, &old);
    let failed: Vec<_> = res.iter().filter_map(|(i, r)| r.as_ref().err().map(|f| (*i, f))).collect();
    assert!(!failed.is_empty());
    for (i, f) in failed {
        let en = still_missing(&step.checks[i], f, Lang::En);
        let zh = still_missing(&step.checks[i], f, Lang::Zh);
        assert!(en.starts_with("The keys etcd returned") || en.contains("in the answer"), "{en}");
        assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{zh}");
        for t in [&en, &zh] {
            assert!(!t.contains("==") && !t.contains('@'), "{t}");
        }
    }
}
