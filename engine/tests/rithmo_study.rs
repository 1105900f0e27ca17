//! The thesis's tables as computed (`rithmo::study`), checked against the
//! move generator on boards made for each case: every sally and ambush the
//! tables list between men is a legal capture there, and every pairing of
//! values they leave out is not.

mod common;

use std::collections::BTreeMap;

use engine::rithmo::study::{self, Tally, TargetKind};
use engine::rithmo::{Move, MoveKind, Position, RuleSet, Side, Square};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// An RFEN with only these pieces (by square), `side` to move.
fn board(pieces: &[(Square, String)], side: Side) -> Position {
    let at: BTreeMap<Square, &str> = pieces.iter().map(|(s, p)| (*s, p.as_str())).collect();
    let s = if side == Side::Even { 'e' } else { 'o' };
    format!("{} {s} - - 0 1", common::rfen_board(|sq| at.get(&sq).copied())).parse().expect("a valid board")
}

/// The men (not pyramids) of a side in the start position, as tokens.
fn men(side: Side) -> Vec<(String, u32)> {
    let pos = Position::start();
    let mut v: Vec<(String, u32)> = pos
        .occupied(side)
        .iter()
        .filter(|&s| pos.pyramid_at(s).is_none())
        .map(|s| (format!("{}{}", pos.shape_of(s).letter(side), pos.value_at(s)), pos.value_at(s) as u32))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn sallies_between_men_are_exactly_the_legal_ones() {
    let rules = RuleSet::common();
    let pos = Position::start();
    for side in [Side::Even, Side::Odd] {
        let table = study::sallies(&pos, &rules, side);
        for (a_tok, a) in men(side) {
            for (t_tok, t) in men(side.other()) {
                for n in 2..=14u8 {
                    // Along the a-file from a1, n empty squares between.
                    let from = Square::new(0, 0);
                    let to = Square::new(0, n + 1);
                    let p = board(&[(from, a_tok.clone()), (to, t_tok.clone())], side);
                    // A sally: another reason (an encounter) may allow the move too.
                    let legal = study::reasons(&p, &rules, Move::new(from, to, MoveKind::Capture)).sally;
                    let listed = table.iter().any(|r| {
                        r.attacker == a && r.between == n as u32 && r.target == t_tok && r.by.contains(&a_tok)
                    });
                    assert_eq!(legal, listed, "{a_tok} × {n} against {t_tok}: legal {legal}, listed {listed}");
                    assert_eq!(legal, a * n as u32 == t);
                    if listed {
                        assert!(p.legal_moves(&rules).contains(&Move::new(from, to, MoveKind::Capture)));
                        let row = table.iter().find(|r| r.attacker == a && r.between == n as u32).unwrap();
                        assert_eq!(row.on_rank, n <= 6);
                    }
                }
            }
        }
    }
}

#[test]
fn ambushes_between_men_are_exactly_the_legal_ones() {
    let rules = RuleSet::common();
    let pos = Position::start();
    let reach = |tok: &str| match tok.chars().next().unwrap().to_ascii_uppercase() {
        'C' => 1,
        'T' => 2,
        _ => 3,
    };
    for side in [Side::Even, Side::Odd] {
        let table = study::ambushes(&pos, &rules, side);
        let mine = men(side);
        for (i, (a_tok, a)) in mine.iter().enumerate() {
            for (b_tok, b) in &mine[i..] {
                if a_tok == b_tok {
                    continue; // one man of each token: the table needs two
                }
                for (t_tok, t) in men(side.other()) {
                    // The target on d8; A from the south and B from the
                    // north, each at its own move's distance.
                    let to = Square::new(3, 7);
                    let fa = Square::new(3, 7 - reach(a_tok));
                    let fb = Square::new(3, 7 + reach(b_tok));
                    let p = board(&[(to, t_tok.clone()), (fa, a_tok.clone()), (fb, b_tok.clone())], side);
                    let m = Move::new(fa, to, MoveKind::Capture);
                    let r = study::reasons(&p, &rules, m);
                    let listed = table.iter().any(|r| {
                        r.target == t_tok && ((r.a == *a && r.b == *b) || (r.a == *b && r.b == *a)) && !r.pyramid_only
                    });
                    assert_eq!(r.ambush, listed, "{a_tok} + {b_tok} against {t_tok}");
                    assert_eq!(r.ambush, a + b == t);
                }
            }
        }
    }
}

#[test]
fn the_thesis_s_pyramid_claims() {
    let rules = RuleSet::common();
    let pos = Position::start();
    // "7 times 13 equals 91 and 25 plus 66 yields the same result."
    let sal = study::sallies(&pos, &rules, Side::Odd);
    assert!(sal.iter().any(|r| r.attacker == 7 && r.between == 13 && r.target == "P91" && !r.on_rank));
    let amb = study::ambushes(&pos, &rules, Side::Odd);
    assert!(amb.iter().any(|r| r.a == 25 && r.b == 66 && r.target == "P91" && !r.pyramid_only));
    // "190 can only be taken by siege."
    let odd = study::siege_only(&pos, &rules, Side::Odd);
    let p190 = odd.iter().find(|r| r.target == "p190").unwrap();
    assert!(p190.siege_only && p190.siege_only_without_pyramid);
    assert_eq!(p190.kind, TargetKind::Pyramid { strikes: 0 });
    let even = study::siege_only(&pos, &rules, Side::Even);
    assert!(!even.iter().find(|r| r.target == "P91").unwrap().siege_only);
}

#[test]
fn siege_only_men_fall_to_no_sally_of_any_enemy_man() {
    let rules = RuleSet::common();
    let pos = Position::start();
    for side in [Side::Even, Side::Odd] {
        let safe: Vec<String> = study::siege_only(&pos, &rules, side)
            .into_iter()
            .filter(|r| r.kind == TargetKind::Man && r.siege_only_without_pyramid)
            .map(|r| r.target)
            .collect();
        assert!(!safe.is_empty());
        for t_tok in &safe {
            for (a_tok, _) in men(side.other()) {
                for n in 0..=14u8 {
                    let (from, to) = (Square::new(0, 0), Square::new(0, n + 1));
                    let p = board(&[(from, a_tok.clone()), (to, t_tok.clone())], side.other());
                    assert!(p.legal_moves(&rules).iter().all(|m| m.kind == MoveKind::Plain), "{a_tok} takes {t_tok}");
                }
            }
        }
    }
}

#[test]
fn every_capture_of_random_games_has_a_reason_and_the_tally_adds_up() {
    let rules = RuleSet::common();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let mut seen = 0;
    for _ in 0..80 {
        let mut pos = Position::start();
        let mut tally = Tally::default();
        let mut moves = Vec::new();
        for _ in 0..300 {
            let legal = pos.legal_moves(&rules);
            if legal.is_empty() {
                break;
            }
            let m = common::biased_move(&legal, 0.7, &mut rng);
            if m.is_tactical() {
                let r = study::reasons(&pos, &rules, m);
                assert!(r.encounter || r.sally || r.ambush, "{m} in {pos} has no reason");
                seen += 1;
            }
            moves.push(m);
            pos = tally.count(&pos, &rules, m);
        }
        let men = pos.captured_by(Side::Even).count() + pos.captured_by(Side::Odd).count();
        assert_eq!(tally.men, men as u64);
        assert_eq!(Tally::of_game(&Position::start(), &rules, &moves), tally);
        assert!(tally.total() <= tally.men);
    }
    assert!(seen > 100, "{seen} captures only");
}

/// A strike takes the bottom of two or more layers: the tables list every
/// layer of the start's pyramids but the top one, which goes only with the
/// pyramid.
#[test]
fn the_top_layer_is_never_struck() {
    let rules = RuleSet::common();
    let pos = Position::start();
    for side in [Side::Even, Side::Odd] {
        let layers: Vec<String> = study::targets(&pos, &rules, side)
            .into_iter()
            .filter(|t| t.kind == TargetKind::Layer)
            .map(|t| t.label)
            .collect();
        let (pyramid, top) = if side == Side::Even { ("P91", "C1") } else { ("p190", "c16") };
        let expected = if side == Side::Even { 5 } else { 4 };
        assert_eq!(layers.len(), expected, "{side:?}: {layers:?}");
        assert!(layers.iter().all(|l| l.starts_with(pyramid)), "{layers:?}");
        assert!(!layers.contains(&format!("{pyramid}:{top}")), "{layers:?}");
    }
}
