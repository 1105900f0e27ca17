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

/// A `ludus serve` of this test's own on a free loopback port, stopped when
/// dropped.
pub struct Server {
    child: std::process::Child,
    pub base: String,
}

impl Server {
    /// Starts the server with extra arguments and waits for its address.
    pub fn start(extra: &[&str]) -> Server {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start ludus serve");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the address");
        let start = line.find("http://").unwrap_or_else(|| panic!("no address in {line:?}"));
        let base = line[start..].split_whitespace().next().unwrap().trim_end_matches('/').to_string();
        Server { child, base }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Sends SIGINT (Ctrl-C) and waits up to `most` for the exit; its
    /// status, or `None` if it is still running.
    #[allow(dead_code)]
    pub fn interrupt(&mut self, most: std::time::Duration) -> Option<std::process::ExitStatus> {
        let sent = Command::new("kill").args(["-INT", &self.child.id().to_string()]).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -INT");
        let until = std::time::Instant::now() + most;
        while std::time::Instant::now() < until {
            if let Some(status) = self.child.try_wait().expect("the server's status") {
                return Some(status);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
