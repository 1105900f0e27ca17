//! `ludus serve`'s pages in a real headless Chromium driven over WebDriver:
//! each page opened, moves made by clicking and dragging, the values and
//! boards shown checked against the API, screenshots saved.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`apt-get install -y
//! chromium chromium-driver`); skips with a message without them. Set
//! `LUDUS_SCREENSHOTS=DIR` to keep the screenshots there (the README's come
//! from `LUDUS_SCREENSHOTS=docs`); otherwise they go to a temporary
//! directory.

mod common;

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{Server, ludus};
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const WAIT: Duration = Duration::from_secs(90);

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Kills the driver when the test ends, however it ends.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn api(s: &Server, path: &str) -> Value {
    let mut r = ureq::get(&s.url(path)).call().unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap()
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") }
        })
        .collect()
}

fn screenshots() -> PathBuf {
    let dir = match std::env::var_os("LUDUS_SCREENSHOTS") {
        Some(d) => PathBuf::from(d),
        None => std::env::temp_dir().join(format!("ludus-screenshots-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn save(c: &Client, dir: &Path, name: &str) -> Res<()> {
    c.execute("window.scrollTo(0, 0); return 0;", vec![]).await?;
    let png = c.screenshot().await?;
    std::fs::write(dir.join(name), png)?;
    Ok(())
}

/// Waits until `f` gives something (polling), or fails with `what`.
async fn until<T, F, Fut>(what: &str, mut f: F) -> Res<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Res<Option<T>>>,
{
    let t = Instant::now();
    loop {
        if let Some(x) = f().await? {
            return Ok(x);
        }
        if t.elapsed() > WAIT {
            return Err(format!("timed out waiting for {what}").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn value_of(c: &Client, id: &str) -> Res<String> {
    Ok(c.find(Locator::Id(id)).await?.prop("value").await?.unwrap_or_default())
}

async fn text_of(c: &Client, css: &str) -> Res<String> {
    Ok(c.find(Locator::Css(css)).await?.text().await?)
}

async fn count(c: &Client, css: &str) -> Res<usize> {
    Ok(c.find_all(Locator::Css(css)).await?.len())
}

/// Waits until the input `id` holds `want`.
async fn wait_value(c: &Client, id: &str, want: &str) -> Res<()> {
    until(&format!("#{id} = {want}"), || async { Ok((value_of(c, id).await? == want).then_some(())) }).await
}

/// The value of a merels probe in the page's words.
fn value_words(v: &Value) -> String {
    match v["outcome"].as_str() {
        Some("draw") => "draw".into(),
        Some(o) => format!("{o} in {}", v["plies"]),
        None => format!("{:+.4}", v["value"].as_f64().unwrap()),
    }
}

/// Where a square of the Rithmomachia picture is on the screen, in page
/// pixels from the viewport's corner (the picture's box read in the page).
async fn square_point(c: &Client, square: &str) -> Res<(i64, i64)> {
    let (vw, vh) = (8.0 * 48.0 + 56.0, 16.0 * 48.0 + 56.0 + 40.0);
    let file = (square.as_bytes()[0] - b'a') as f64;
    let rank: f64 = square[1..].parse::<f64>()? - 1.0;
    let (fx, fy) = ((28.0 + file * 48.0 + 24.0) / vw, (28.0 + (15.0 - rank) * 48.0 + 24.0) / vh);
    // Scrolled so that the square is in the middle of the window.
    let script = "const svg = document.querySelector('#board svg'); let r = svg.getBoundingClientRect();
        window.scrollBy(0, r.top + arguments[1] * r.height - innerHeight / 2); r = svg.getBoundingClientRect();
        return [r.left + arguments[0] * r.width, r.top + arguments[1] * r.height];";
    let p = c.execute(script, vec![json!(fx), json!(fy)]).await?;
    let p: Vec<f64> = p.as_array().ok_or("no box")?.iter().map(|v| v.as_f64().unwrap_or(0.0)).collect();
    Ok((p[0] as i64, p[1] as i64))
}

async fn click_square(c: &Client, square: &str) -> Res<()> {
    let (x, y) = square_point(c, square).await?;
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo { duration: None, x, y })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    c.perform_actions(mouse).await?;
    Ok(())
}

async fn drag(c: &Client, from: &str, to: &str) -> Res<()> {
    let (x1, y1) = square_point(c, to).await?;
    let (x0, y0) = square_point(c, from).await?;
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo { duration: None, x: x0, y: y0 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(200)), x: x1, y: y1 })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    c.perform_actions(mouse).await?;
    Ok(())
}

async fn merels_page(c: &Client, s: &Server, shots: &Path) -> Res<()> {
    // Three men's morris: clicks place men; values are the API's.
    c.goto(&s.url("/merels?board=three&dice=none")).await?;
    wait_value(c, "notation", "three:......... x 3 3").await?;
    let start = api(s, "/api/merels/probe?board=three&dice=none");
    assert_eq!(count(c, "#moves tr.move").await?, start["moves"].as_array().unwrap().len());
    assert!(text_of(c, "#value-text").await?.contains(&value_words(&start)));
    c.find(Locator::Css("circle.point[data-point='b2']")).await?.click().await?;
    wait_value(c, "notation", "three:....x.... o 2 3").await?;
    assert_eq!(count(c, "circle.man[data-man='x'][data-point='b2']").await?, 1);
    let after = api(s, &format!("/api/merels/probe?dice=none&position={}", enc("three:....x.... o 2 3")));
    let shown = text_of(c, "#value-text").await?;
    assert!(shown.contains(&value_words(&after)), "{shown} vs {}", after["value"]);
    // Each listed action shows the API's value.
    for (row, m) in c.find_all(Locator::Css("#moves tr.move")).await?.iter().zip(after["moves"].as_array().unwrap()) {
        let text = row.text().await?;
        assert!(text.starts_with(m["move"].as_str().unwrap()) && text.contains(&value_words(m)), "{text} vs {m}");
    }

    // Rota: the best action from the list until the men move, then a man
    // clicked shows its destinations coloured, and a click moves it.
    c.goto(&s.url("/merels?board=rota&dice=none")).await?;
    wait_value(c, "notation", "rota:......... x 3 3").await?;
    let mut pos = "rota:......... x 3 3".to_string();
    for _ in 0..6 {
        let probe = api(s, &format!("/api/merels/probe?dice=none&position={}", enc(&pos)));
        let best = &probe["moves"][0];
        c.find(Locator::Css(&format!("#moves tr.move[data-move='{}']", best["move"].as_str().unwrap())))
            .await?
            .click()
            .await?;
        pos = best["next"].as_str().unwrap().to_string();
        wait_value(c, "notation", &pos).await?;
    }
    let probe = api(s, &format!("/api/merels/probe?dice=none&position={}", enc(&pos)));
    let m = &probe["moves"][0];
    assert_eq!(m["kind"], json!("move"), "{m}");
    let from = m["from"].as_str().unwrap();
    c.find(Locator::Css(&format!("circle.point[data-point='{from}']"))).await?.click().await?;
    let targets = probe["moves"].as_array().unwrap().iter().filter(|x| x["from"] == json!(from)).count();
    until("the destinations", || async { Ok((count(c, "circle.target").await? == targets).then_some(())) }).await?;
    save(c, shots, "merels.png").await?;
    c.find(Locator::Css(&format!("circle.point[data-point='{}']", m["to"].as_str().unwrap()))).await?.click().await?;
    wait_value(c, "notation", m["next"].as_str().unwrap()).await?;
    Ok(())
}

async fn rithmo_page(c: &Client, s: &Server, shots: &Path) -> Res<()> {
    c.goto(&s.url("/rithmo")).await?;
    c.wait().at_most(WAIT).for_element(Locator::Css("#board svg")).await?;
    let start = api(s, "/api/rithmo/position");
    wait_value(c, "fen", start["fen"].as_str().unwrap()).await?;
    assert_eq!(count(c, "#legal tr.move").await?, start["moves"].as_array().unwrap().len());
    // Click c4: its destinations; click c5: played.
    click_square(c, "c4").await?;
    let from_c4 = start["moves"].as_array().unwrap().iter().filter(|m| m["from"] == json!("c4")).count();
    until("c4's destinations", || async { Ok((count(c, ".dest").await? == from_c4).then_some(())) }).await?;
    click_square(c, "c5").await?;
    let one = api(s, "/api/rithmo/position?moves=c4-c5");
    wait_value(c, "fen", one["fen"].as_str().unwrap()).await?;
    assert!(text_of(c, "#played").await?.contains("1. c4-c5"));
    assert!(text_of(c, "#status-text").await?.contains("Odd to move"));
    // Drag Odd's first plain move.
    let m = one["moves"].as_array().unwrap().iter().find(|m| m["kind"] == json!("plain")).unwrap();
    let (from, to) = (m["from"].as_str().unwrap(), m["to"].as_str().unwrap());
    drag(c, from, to).await?;
    let played = format!("c4-c5,{}", m["move"].as_str().unwrap());
    let two = api(s, &format!("/api/rithmo/position?moves={played}"));
    wait_value(c, "fen", two["fen"].as_str().unwrap()).await?;
    // The engine plays Even in 300 ms.
    c.find(Locator::Id("movetime")).await?.clear().await?;
    c.find(Locator::Id("movetime")).await?.send_keys("300").await?;
    c.find(Locator::Css("#engine option[value='Even']")).await?.click().await?;
    let reply = until("the engine's move", || async {
        let t = text_of(c, "#played").await?;
        Ok(t.split_whitespace().collect::<Vec<_>>().windows(2).find(|w| w[0] == "3.").map(|w| w[1].to_string()))
    })
    .await?;
    assert!(two["moves"].as_array().unwrap().iter().any(|m| m["move"] == json!(reply)), "{reply} is legal");
    c.find(Locator::Css("#engine option[value='']")).await?.click().await?;
    // A middlegame: a piece with a capture shows it coloured by its kind.
    let fen = "s49,s121,4,s225,1/s28,s66,t36,t30,t56,t64,s120,1/t16,c9,1,c25,c49,c81,t90,1/2,c3,c5,1,c9,1,s361/4,c7,t100,2/8/3,t12,4/7,p[s49.t36.t25.c16]/8/8/3,C4,4/T81,7/1,C8,1,C6,C16,1,C4,C2/1,T72,C64,C36,2,T6,T9/S153,P[S36.S25.T16.T9.C4.C1],T49,T42,T20,T25,S45,S15/S289,S169,1,S81,3,S25 e s64 - 9 23";
    c.goto(&s.url(&format!("/rithmo?fen={}", enc(fen)))).await?;
    let mid = api(s, &format!("/api/rithmo/position?fen={}", enc(fen)));
    wait_value(c, "fen", mid["fen"].as_str().unwrap()).await?;
    let cap = mid["moves"].as_array().unwrap().iter().find(|m| m["kind"] != json!("plain")).expect("a capture");
    click_square(c, cap["from"].as_str().unwrap()).await?;
    let kind =
        if cap["kind"] == json!("strike") { "strike".to_string() } else { cap["by"][0].as_str().unwrap().to_string() };
    let css = format!(".dest[data-square='{}'][data-kind*='{kind}']", cap["to"].as_str().unwrap());
    until("the capture's highlight", || async { Ok((count(c, &css).await? == 1).then_some(())) }).await?;
    // The engine's analysis, streamed beside it.
    c.find(Locator::Id("movetime")).await?.clear().await?;
    c.find(Locator::Id("movetime")).await?.send_keys("2000").await?;
    c.find(Locator::Id("analyse")).await?.click().await?;
    until("analysis lines", || async { Ok((count(c, "#analysis tr.line").await? >= 2).then_some(())) }).await?;
    let pv = text_of(c, "#analysis tr.line td.pv").await?;
    let first = pv.split_whitespace().next().unwrap_or_default().to_string();
    assert!(mid["moves"].as_array().unwrap().iter().any(|m| m["move"] == json!(first)), "{first} is legal");
    click_square(c, cap["from"].as_str().unwrap()).await?;
    click_square(c, cap["from"].as_str().unwrap()).await?;
    until("the capture's highlight", || async { Ok((count(c, &css).await? == 1).then_some(())) }).await?;
    save(c, shots, "rithmo.png").await?;
    Ok(())
}

async fn match_page(c: &Client, s: &Server, shots: &Path, record: &Path) -> Res<()> {
    c.goto(&s.url("/match")).await?;
    c.find(Locator::Id("file")).await?.send_keys(record.to_str().unwrap()).await?;
    let lines: Vec<String> = std::fs::read_to_string(record)?.lines().map(str::to_string).collect();
    until("the games", || async { Ok((count(c, "#games tr.game").await? == lines.len()).then_some(())) }).await?;
    let frames = {
        let mut r =
            ureq::post(&s.url("/api/match/replay")).header("Content-Type", "application/json").send(&lines[0])?;
        serde_json::from_str::<Value>(&r.body_mut().read_to_string()?)?["frames"].clone()
    };
    until("ply 0", || async { Ok(text_of(c, "#ply").await?.starts_with("ply 0 of").then_some(())) }).await?;
    for _ in 0..3 {
        c.find(Locator::Id("next")).await?.click().await?;
    }
    until("ply 3", || async { Ok(text_of(c, "#ply").await?.starts_with("ply 3 of").then_some(())) }).await?;
    let shown = text_of(c, "#frame-position").await?;
    assert_eq!(shown, frames[3]["position"].as_str().unwrap());
    let men = shown
        .split(' ')
        .next()
        .unwrap()
        .split(':')
        .nth(1)
        .unwrap()
        .chars()
        .filter(|&ch| ch == 'x' || ch == 'o')
        .count();
    assert_eq!(count(c, "#board circle.man").await?, men);
    c.find(Locator::Id("prev")).await?.click().await?;
    until("ply 2", || async { Ok(text_of(c, "#ply").await?.starts_with("ply 2 of").then_some(())) }).await?;
    assert_eq!(text_of(c, "#frame-position").await?, frames[2]["position"].as_str().unwrap());
    save(c, shots, "match.png").await?;
    Ok(())
}

#[test]
fn pages_in_a_real_browser() {
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        eprintln!(
            "skipped: the browser test needs {CHROMIUM} and {CHROMEDRIVER} (apt-get install -y chromium chromium-driver)"
        );
        return;
    }
    let server = Server::start(&["--db", common::temp("browser", "db").to_str().unwrap()]);
    let record = common::temp("browser", "rota.jsonl");
    let o = ludus(&[
        "arena",
        "--game",
        "rota",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "3",
        "--record",
        record.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let _driver = Driver(
        Command::new(CHROMEDRIVER)
            .args([format!("--port={port}"), "--allowed-ips=127.0.0.1".into()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let t = Instant::now();
    eprintln!("the server and the arena's record ready; chromedriver starting");
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(t.elapsed() < Duration::from_secs(30), "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = common::temp("browser", "profile");
    let shots = screenshots();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let result: Res<()> = rt.block_on(async {
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1280,1000",
                    format!("--user-data-dir={}", profile.display()),
                ],
            }),
        );
        let c = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await?;
        eprintln!("the browser session open after {:.1} s", t.elapsed().as_secs_f64());
        let outcome = async {
            // How long each part took, for a slow run (`--nocapture`).
            let t = Instant::now();
            merels_page(&c, &server, &shots).await?;
            eprintln!("the merels page after {:.1} s", t.elapsed().as_secs_f64());
            rithmo_page(&c, &server, &shots).await?;
            eprintln!("the rithmomachia page after {:.1} s", t.elapsed().as_secs_f64());
            match_page(&c, &server, &shots, &record).await
        }
        .await;
        if outcome.is_err() {
            let _ = save(&c, &shots, "failure.png").await;
        }
        let _ = c.close().await;
        outcome
    });
    eprintln!("screenshots in {}", shots.display());
    if let Err(e) = result {
        panic!("{e}");
    }
}
