//! Why a move is legal: the captures (encounter, ambush, sally) that allow a
//! capture or strike, and the enemy pieces the move besieges. For people
//! (an analysis board colours destinations by them); the move generator
//! does not need to know, since several reasons make one move.

use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind, MoveList};
use super::position::Position;
use super::rules::RuleSet;

/// The reasons behind one legal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveReasons {
    /// The target is met at the end of a regular move.
    pub encounter: bool,
    /// The target stands between two attackers.
    pub ambush: bool,
    /// The target is reached along a free line.
    pub sally: bool,
    /// The enemy pieces besieged after the move, removed with it.
    pub sieged: Bitboard,
}

impl MoveReasons {
    /// The capture rules that allow the move, by name.
    pub fn names(&self) -> Vec<&'static str> {
        [(self.encounter, "encounter"), (self.ambush, "ambush"), (self.sally, "sally")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect()
    }
}

impl Position {
    /// Why `m` (a legal move here) is legal and what it besieges: each
    /// capture rule in force is asked alone whether it allows the move.
    pub fn move_reasons(&self, m: Move, rules: &RuleSet) -> MoveReasons {
        let mut why = MoveReasons::default();
        if m.kind != MoveKind::Plain {
            let only = |encounter, ambush, sally| RuleSet { encounter, ambush, sally, ..*rules };
            let allows = |r: RuleSet| {
                let mut list = MoveList::new();
                self.captures(&r, &mut list);
                list.contains(&m)
            };
            why.encounter = rules.encounter && allows(only(true, false, false));
            why.ambush = rules.ambush && allows(only(false, true, false));
            why.sally = rules.sally && allows(only(false, false, true));
        }
        let mut next = *self;
        why.sieged = next.play_in_place(m, rules);
        why
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rithmo::START;

    /// Every capture and strike has a reason, plain moves none, and the
    /// pieces a move removes are its target and those it besieges; over random
    /// games, encounters, sallies and sieges occur.
    #[test]
    fn every_capture_has_a_reason() {
        let rules = RuleSet::common();
        let mut seen = [0usize; 4];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20 {
            let mut pos: Position = START.parse().unwrap();
            for _ in 0..200 {
                let legal = pos.legal_moves(&rules);
                if legal.is_empty() {
                    break;
                }
                let me = pos.side_to_move();
                for &m in &legal {
                    let why = pos.move_reasons(m, &rules);
                    assert_eq!(!why.names().is_empty(), m.is_tactical(), "{m} in {pos}: reasons {:?}", why.names());
                    for (i, on) in
                        [why.encounter, why.ambush, why.sally, !why.sieged.is_empty()].into_iter().enumerate()
                    {
                        seen[i] += on as usize;
                    }
                    // The enemy loses the target of a capture and the besieged pieces,
                    // nothing else (a struck pyramid stays).
                    let before = pos.occupied(me.other());
                    let target = if m.kind == MoveKind::Capture { Bitboard::EMPTY.with(m.to) } else { Bitboard::EMPTY };
                    assert!((why.sieged - (before - target)).is_empty(), "{m} in {pos}");
                    let after = pos.play(m, &rules);
                    assert_eq!(after.occupied(me.other()), before - target - why.sieged, "{m} in {pos}");
                }
                let captures: Vec<Move> = legal.iter().copied().filter(|m| m.is_tactical()).collect();
                let pick = if !captures.is_empty() && next(3) == 0 {
                    captures[next(captures.len())]
                } else {
                    legal[next(legal.len())]
                };
                pos = pos.play(pick, &rules);
            }
        }
        // Ambushes are rare in random play: hand-made ones are in the
        // engine's tests.
        assert!([seen[0], seen[2], seen[3]].iter().all(|&n| n > 0), "encounters, sallies, sieges seen: {seen:?}");
    }
}
