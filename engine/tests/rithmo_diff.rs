//! The bitboard move generator against the naive reference implementation
//! (`rithmo_reference`, written independently from the spec): on thousands
//! of positions reached by random play that captures often, the same moves,
//! the same resulting positions (captured men included), the same game ends;
//! perft of both to depth 3 on a set of such positions.

mod common;
mod rithmo_reference;

use engine::rithmo::{Game, Position, Reason, RuleSet, Side, Status, Victory, perft};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rithmo_reference::{RefGame, RefPos, RefSide, RefStatus, RefVictory};

fn same_status(mine: Status, theirs: RefStatus) -> bool {
    let side = |s: Side| if s == Side::Even { RefSide::Even } else { RefSide::Odd };
    match (mine, theirs) {
        (Status::Ongoing, RefStatus::Ongoing) => true,
        (Status::Won(a, _), RefStatus::Won(b)) => side(a) == b,
        (Status::Drawn(_), RefStatus::Drawn) => true,
        _ => false,
    }
}

fn moves_of(pos: &Position, rules: &RuleSet) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves(rules).iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Plays random games that prefer captures, comparing at every step.
fn random_games(rules: RuleSet, victory: RefVictory, games: usize, seed: u64) -> Vec<String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut seen = Vec::new();
    let mut positions = 0;
    let (mut strikes, mut sieges) = (0, 0);
    for g in 0..games {
        let mut mine = Game::new(Position::start(), rules);
        let mut start = RefPos::start();
        start.set_victory(victory);
        let mut theirs = RefGame::new(start);
        for ply in 0..400 {
            let pos = *mine.position();
            let rp = theirs.current().clone();
            assert_eq!(pos.to_string(), rp.rfen(), "game {g} ply {ply}: positions differ");
            assert_eq!(pos.hash(), pos.hash_from_scratch(), "game {g} ply {ply}: incremental hash");
            let status = mine.status();
            assert!(
                same_status(status, theirs.status()),
                "game {g} ply {ply} {pos}: {status:?} vs {:?}",
                theirs.status()
            );
            let ours = moves_of(&pos, &rules);
            let refs = rp.moves();
            assert_eq!(ours, refs, "game {g} ply {ply}: moves of {pos}");
            positions += 1;
            if status != Status::Ongoing {
                break;
            }
            // Every move's result, for a sample of positions; the played one always.
            let check_all = ply % 7 == 0;
            let legal = pos.legal_moves(&rules);
            for m in legal.iter().filter(|_| check_all) {
                let a = pos.play(*m, &rules);
                let b = rp.play(&m.to_string()).expect("reference accepts the move");
                assert_eq!(a.to_string(), b.rfen(), "game {g} ply {ply}: after {m} from {pos}");
            }
            let m = common::biased_move(&legal, 0.7, &mut rng);
            if m.kind == engine::rithmo::MoveKind::Strike {
                strikes += 1;
            }
            let sieged = pos.play(m, &rules).captured_by(pos.side_to_move()).count()
                - pos.captured_by(pos.side_to_move()).count()
                > if m.kind == engine::rithmo::MoveKind::Plain { 0 } else { 1 };
            if sieged {
                sieges += 1;
            }
            mine.play(m).expect("legal");
            theirs.play(&m.to_string()).expect("reference legal");
            let after = mine.position();
            let mut taken: Vec<String> = theirs.current().last_captured();
            let by = after.captured_by(pos.side_to_move());
            let before = pos.captured_by(pos.side_to_move()).count() as usize;
            let ours_taken: Vec<String> =
                by.men()[before..].iter().map(|x| x.token(pos.side_to_move().other())).collect();
            taken.sort();
            let mut ours_sorted = ours_taken.clone();
            ours_sorted.sort();
            assert_eq!(ours_sorted, taken, "game {g} ply {ply}: men captured by {m}");
            if ply % 25 == 0 {
                seen.push(after.to_string());
            }
        }
    }
    assert!(positions > 20 * games, "only {positions} positions compared");
    if games >= 50 {
        // The random play reaches every kind of capture.
        assert!(strikes > 0 && sieges > 0, "strikes {strikes}, sieges {sieges}");
    }
    seen
}

#[test]
fn random_games_agree_with_the_reference() {
    random_games(RuleSet::common(), RefVictory::Body(15), 60, 1);
}

#[test]
fn random_games_agree_under_other_victories() {
    for (v, r) in [
        (Victory::Goods(160), RefVictory::Goods(160)),
        (Victory::Lawsuit(100, 4), RefVictory::Lawsuit(100, 4)),
        (Victory::Honor(64, 3), RefVictory::Honor(64, 3)),
        (Victory::HonorLawsuit(64, 3, 4), RefVictory::HonorLawsuit(64, 3, 4)),
        (Victory::Body(5), RefVictory::Body(5)),
    ] {
        random_games(RuleSet::common().with_victory(v), r, 8, 2);
    }
}

#[test]
fn perft_agrees_to_depth_three_on_random_positions() {
    let rules = RuleSet::common();
    let positions = random_games(rules, RefVictory::Body(15), 6, 9);
    assert!(positions.len() >= 20);
    for rfen in positions.iter().take(30) {
        let pos: Position = rfen.parse().unwrap();
        let rp = RefPos::parse(rfen).unwrap();
        for d in 1..=3 {
            assert_eq!(perft(&pos, &rules, d), rp.perft(d), "perft({d}) of {rfen}");
        }
    }
}

#[test]
fn repetition_draws_in_both() {
    // Two circles shuffling: the third occurrence draws.
    let rfen = "8/8/8/8/8/8/8/c3,7/8/8/8/8/8/8/C5,7/8 e - - 0 1";
    let rules = RuleSet::common();
    let mut mine = Game::new(rfen.parse().unwrap(), rules);
    let mut theirs = RefGame::new(RefPos::parse(rfen).unwrap());
    for m in ["a2-b2", "a9-b9", "b2-a2", "b9-a9", "a2-b2", "a9-b9", "b2-a2", "b9-a9"] {
        assert!(same_status(mine.status(), theirs.status()));
        if mine.status() != Status::Ongoing {
            break;
        }
        mine.play(m.parse().unwrap()).unwrap();
        theirs.play(m).unwrap();
    }
    assert_eq!(mine.status(), Status::Drawn(Reason::Repetition));
    assert_eq!(theirs.status(), RefStatus::Drawn);
}
