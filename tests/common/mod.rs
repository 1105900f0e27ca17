//! What the end-to-end tests share: running the `ludus` binary and reading
//! its output.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the `ludus` binary built for these tests with `args`.
pub fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus")).args(args).output().expect("run ludus")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A path named `name` in a directory of this test process's own.
pub fn temp(tag: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-{tag}-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
