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

    /// Every capture and strike has a reason, plain moves none, and the men
    /// a move takes are its target and the pieces it besieges.
    #[test]
    fn every_capture_has_a_reason() {
        let rules = RuleSet::common();
        let mut pos: Position = START.parse().unwrap();
        let mut seen = [0usize; 3];
        // A fixed line of play: always the first capture if any, else a
        // move picked by the ply number.
        for ply in 0..400 {
            let legal = pos.legal_moves(&rules);
            if legal.is_empty() {
                break;
            }
            for &m in &legal {
                let why = pos.move_reasons(m, &rules);
                let n = why.names().len();
                assert_eq!(n > 0, m.is_tactical(), "{m} in {pos}: reasons {:?}", why.names());
                for (i, on) in [why.encounter, why.ambush, why.sally].into_iter().enumerate() {
                    seen[i] += on as usize;
                }
                let after = pos.play(m, &rules);
                let taken = after.captured_by(pos.side_to_move()).count() - pos.captured_by(pos.side_to_move()).count();
                let direct = matches!(m.kind, MoveKind::Capture | MoveKind::Strike) as u32;
                assert_eq!(taken, direct + why.sieged.count(), "{m} in {pos}");
            }
            let pick = legal.iter().copied().find(|m| m.is_tactical()).unwrap_or(legal[(ply * 7919) % legal.len()]);
            pos = pos.play(pick, &rules);
        }
        assert!(seen.iter().all(|&n| n > 0), "each capture rule seen: {seen:?}");
    }
}
