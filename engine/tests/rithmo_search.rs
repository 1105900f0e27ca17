//! The Rithmomachia engine: forced victories at their distance, alpha-beta
//! equal to plain minimax, legal moves only in self-play.

mod common;

use engine::rithmo::{Game, Limits, Options, Position, RuleSet, Searcher, Status, WIN, evaluate};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn search(pos: &Position, depth: u32) -> engine::rithmo::Info {
    let mut s = Searcher::new(RuleSet::common(), 4);
    s.search(pos, &[pos.hash()], Limits { depth: Some(depth), ..Limits::default() }, |_| {})
}

#[test]
fn a_capture_completing_the_victory_is_a_win_in_one() {
    // Even has taken 14 men; c4xc5 is the fifteenth.
    let text = "7,s49/8/8/8/8/8/8/8/8/8/8/2,c8,5/2,C8,5/8/8/8 e c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1 - 0 30";
    let r = search(&text.parse().unwrap(), 4);
    assert_eq!(r.score, WIN - 1);
    assert_eq!(r.pv[0].to_string(), "c4xc5");
}

#[test]
fn a_siege_of_several_men_completing_the_victory_is_a_win_in_one() {
    // Even has taken 13 men. Two Odd circles in the corner h16/h15 are shut
    // in by g16, g15 (Even) and h14 (Even); they touch Even already, so any
    // Even move besieges both: fifteen.
    let text = "6,S5,c3/6,S7,c5/7,S9/8/8/8/8/8/8/8/8/8/8/8/8/C1,7 e c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1 - 0 30";
    let pos: Position = text.parse().unwrap();
    let r = search(&pos, 3);
    assert_eq!(r.score, WIN - 1, "{:?}", r.pv);
    let after = pos.play(r.pv[0], &RuleSet::common());
    assert_eq!(after.captured_by(engine::rithmo::Side::Even).count(), 15);
}

#[test]
fn a_lost_position_is_a_loss_in_two() {
    // Odd's last circle in the corner must step next to an Even circle of
    // the same value, which takes it: Even's fifteenth man.
    let text = "c1,1,C1,5/8/C1,7/8/8/8/8/8/8/8/8/8/8/8/8/7,S3 o c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1.c1 - 0 30";
    let r = search(&text.parse().unwrap(), 4);
    assert_eq!(r.score, -(WIN - 2), "{:?}", r.pv);
}

/// Plain negamax to a fixed depth with the engine's evaluation and ends.
fn minimax(pos: &Position, rules: &RuleSet, depth: u32, ply: i32) -> i32 {
    if ply > 0 {
        if pos.victory_reached(rules) {
            return -(WIN - ply);
        }
        if pos.clock >= rules.quiet_plies_draw {
            return 0;
        }
    }
    let moves = pos.legal_moves(rules);
    if moves.is_empty() {
        return -(WIN - ply);
    }
    if depth == 0 {
        return evaluate(pos, rules);
    }
    moves.iter().map(|&m| -minimax(&pos.play(m, rules), rules, depth - 1, ply + 1)).max().unwrap()
}

#[test]
fn alpha_beta_equals_plain_minimax() {
    let rules = RuleSet::common();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut compared = 0;
    for game in 0..12 {
        let mut pos = Position::start();
        for ply in 0..80 {
            let moves = pos.legal_moves(&rules);
            if moves.is_empty() {
                break;
            }
            if ply % 12 == 11 || (game % 3 == 0 && ply == 20) {
                // Depth 4 reaches transpositions (the table's cutoffs), where
                // the position is small enough for plain minimax.
                let deepest = if moves.len() <= 16 { 4 } else { 3 };
                for depth in 1..=deepest {
                    let mut s = Searcher::new(rules, 2);
                    s.options = Options { quiescence: false, null_move: false, reductions: false, table: true };
                    let r = s.search(&pos, &[pos.hash()], Limits { depth: Some(depth), ..Limits::default() }, |_| {});
                    assert_eq!(r.score, minimax(&pos, &rules, depth, 0), "depth {depth} at {pos}");
                    compared += 1;
                }
            }
            let m = common::biased_move(&moves, 0.6, &mut rng);
            pos = pos.play(m, &rules);
        }
    }
    assert!(compared >= 30, "{compared}");
}

#[test]
fn self_play_makes_only_legal_moves() {
    let rules = RuleSet::common();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    for _ in 0..6 {
        let mut game = Game::new(Position::start(), rules);
        let mut engine = Searcher::new(rules, 4);
        // A few random opening moves for variety.
        for _ in 0..rng.random_range(0..6) {
            let moves = game.position().legal_moves(&rules);
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        for _ in 0..120 {
            if game.status() != Status::Ongoing {
                break;
            }
            let pos = *game.position();
            let r = engine.search(&pos, &game.hashes(), Limits { depth: Some(3), ..Limits::default() }, |_| {});
            let m = r.pv[0];
            assert!(pos.is_legal(m, &rules), "{m} in {pos}");
            game.play(m).unwrap();
        }
    }
}
