//! Tests of the naive Rithmomachia reference itself.

mod rithmo_reference;

use rithmo_reference::*;

#[test]
fn perft_quick() {
    let p = RefPos::start();
    for d in 1..=5 {
        let t = std::time::Instant::now();
        eprintln!("perft {d} = {} in {:?}", p.perft(d), t.elapsed());
    }
}
