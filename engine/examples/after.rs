use engine::rithmo::*;
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = RuleSet::common();
    let mut p: Position = if args[0] == "start" { Position::start() } else { args[0].parse().unwrap() };
    for m in &args[1..] {
        p = p.play(m.parse().unwrap(), &rules);
    }
    println!("{p}");
}
