//! Brute-force twins shared by the solver's tests: every state of a small
//! board enumerated explicitly, without symmetry or indexing.
#![allow(dead_code)]

use std::collections::HashMap;

use engine::merels::{Blocked, BoardKind, Dice, PointSet, Rules, State, Throw, mill::has_line};
use solver::merels::Value;

/// The boards small enough for brute force, without dice: Rota, three men's
/// morris, and three men's morris with diagonals.
pub fn small_boards() -> Vec<Rules> {
    let three = Rules::new(BoardKind::Three, Dice::None);
    vec![Rules::new(BoardKind::Rota, Dice::None), three, three.with_diagonals(true).expect("diagonals on three")]
}

/// Every state reachable from any arrangement of men with full-count hands:
/// all ways to put `a` and `b` men on the board with the rest in hand.
pub fn all_states(rules: &Rules) -> Vec<State> {
    let board = rules.board;
    let n = board.len();
    let m = rules.men() as u32;
    let mut out = Vec::new();
    for own in 0u32..1 << n {
        if own.count_ones() > m {
            continue;
        }
        let rest = board.all().0 & !own;
        let mut other = rest;
        loop {
            if other.count_ones() <= m {
                for oh in 0..=(m - own.count_ones()) as u8 {
                    for th in 0..=(m - other.count_ones()) as u8 {
                        let st = State { own: PointSet(own), other: PointSet(other), own_hand: oh, other_hand: th };
                        // Placement alternates: hands differ by at most one.
                        if oh == th || oh == th + 1 {
                            out.push(st);
                        }
                    }
                }
            }
            if other == 0 {
                break;
            }
            other = (other - 1) & rest;
        }
    }
    out.retain(|st| st.own_total() >= 3 && st.other_total() >= 3 && !(board.line_wins() && has_line(board, st.own)));
    out
}

/// The other side just moved: it cannot have fewer than three men.
pub fn legal(st: &State) -> bool {
    st.other_total() >= 3
}

/// Naive fixpoint: repeatedly recompute every state's value from its
/// successors until nothing changes.
pub fn fixpoint(rules: &Rules) -> HashMap<State, Value> {
    let states: Vec<State> = all_states(rules).into_iter().filter(legal).collect();
    let mut val: HashMap<State, Option<Value>> = states.iter().map(|&s| (s, None)).collect();
    let lookup = |val: &HashMap<State, Option<Value>>, st: &State| -> Option<Value> {
        if rules.lost(st) { Some(Value::Loss(0)) } else { *val.get(st).expect("closed state set") }
    };
    loop {
        let mut changed = false;
        for st in &states {
            if rules.lost(st) {
                if val[st].is_none() {
                    val.insert(*st, Some(Value::Loss(0)));
                    changed = true;
                }
                continue;
            }
            let kids = rules.actions(st, Throw::None);
            let new = if kids.is_empty() {
                Some(if rules.blocked == Blocked::Draw { Value::Draw } else { Value::Loss(0) })
            } else {
                let vs: Vec<Option<Value>> = kids.iter().map(|(_, c)| lookup(&val, c).map(Value::back)).collect();
                // Wins need one known losing successor; losses need all.
                let best_win = vs.iter().flatten().filter(|v| matches!(v, Value::Win(_))).max().copied();
                if let Some(w) = best_win {
                    // Only final once no unknown successor could be faster.
                    Some(w)
                } else if vs.iter().all(|v| v.is_some()) {
                    vs.iter().flatten().max().copied()
                } else {
                    None
                }
            };
            if new != val[st] {
                val.insert(*st, new);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    val.into_iter().map(|(s, v)| (s, v.unwrap_or(Value::Draw))).collect()
}
pub mod exact_schaedler;
