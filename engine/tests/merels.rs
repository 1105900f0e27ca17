//! Rules of the merels family on hand-made positions, symmetry counts and
//! notation.

use engine::merels::{
    Action, Blocked, Board, BoardKind, Dice, PlacementMills, Point, PointSet, Position, Rules, Side, State, Throw,
    mill::{closing_points, has_line, mills_closed_at},
    render,
};
use proptest::prelude::*;

fn set(board: &Board, names: &[&str]) -> PointSet {
    names.iter().map(|n| board.point(n).unwrap_or_else(|| panic!("no point {n}"))).collect()
}

fn state(rules: &Rules, own: &[&str], other: &[&str], own_hand: u8, other_hand: u8) -> State {
    State { own: set(rules.board, own), other: set(rules.board, other), own_hand, other_hand }
}

/// The actions in notation, sorted.
fn moves(rules: &Rules, st: &State, throw: Throw) -> Vec<String> {
    let mut v: Vec<String> = rules.actions(st, throw).iter().map(|(a, _)| a.display(rules.board).to_string()).collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn symmetry_groups_have_the_expected_orders() {
    assert_eq!(Board::get(BoardKind::Rota, false).symmetries().len(), 16);
    assert_eq!(Board::get(BoardKind::Three, false).symmetries().len(), 8);
    assert_eq!(Board::get(BoardKind::Three, true).symmetries().len(), 8);
    assert_eq!(Board::get(BoardKind::Six, false).symmetries().len(), 16);
    assert_eq!(Board::get(BoardKind::Nine, false).symmetries().len(), 16);
    for kind in BoardKind::ALL {
        let b = Board::get(kind, false);
        assert!(b.symmetries()[0].is_identity(b.len()));
        for g in b.symmetries() {
            for &l in b.lines() {
                assert!(b.lines().contains(&g.set(l)));
            }
            for p in b.points() {
                assert_eq!(g.set(b.neighbours(p)), b.neighbours(g.point(p)));
            }
        }
    }
}

#[test]
fn board_tables_match_the_spec() {
    let cases = [
        (BoardKind::Rota, 9, 4, 16),
        (BoardKind::Three, 9, 6, 12),
        (BoardKind::Six, 16, 8, 20),
        (BoardKind::Nine, 24, 16, 32),
    ];
    for (kind, points, lines, edges) in cases {
        let b = Board::get(kind, false);
        assert_eq!(b.len(), points, "{kind}");
        assert_eq!(b.lines().len(), lines, "{kind}");
        let e: u32 = b.points().map(|p| b.neighbours(p).len()).sum::<u32>() / 2;
        assert_eq!(e, edges, "{kind} edges");
    }
    let d = Board::get(BoardKind::Three, true);
    assert_eq!(d.lines().len(), 8);
    assert_eq!(d.neighbours(d.point("b2").unwrap()).len(), 8);
    // Rota: the centre reaches every rim point, a rim point its two rim
    // neighbours and the centre.
    let r = Board::get(BoardKind::Rota, false);
    assert_eq!(r.neighbours(r.point("c").unwrap()).len(), 8);
    assert_eq!(r.neighbours(r.point("n").unwrap()), set(r, &["c", "ne", "nw"]));
    // Six: the connectors.
    let s = Board::get(BoardKind::Six, false);
    assert_eq!(s.neighbours(s.point("a4").unwrap()), set(s, &["a1", "a7", "b4"]));
    assert_eq!(s.neighbours(s.point("d2").unwrap()), set(s, &["b2", "f2", "d1"]));
}

#[test]
fn rota_start_has_nine_placements_and_special_throws_are_fifteen() {
    let rules = Rules::rota();
    let st = State::start(3);
    assert_eq!(rules.actions(&st, Throw::None).len(), 9);
    assert_eq!(engine::merels::special_throw_count(), 15);
}

#[test]
fn rota_movement_and_winning_line() {
    let rules = Rules::rota();
    let st = state(&rules, &["c", "e", "sw"], &["n", "s", "nw"], 0, 0);
    assert_eq!(moves(&rules, &st, Throw::None), sorted(&["c-ne", "c-se", "c-w", "e-ne", "e-se", "sw-w"]));
    for (a, child) in rules.actions(&st, Throw::None) {
        let text = a.display(rules.board).to_string();
        // e-ne closes ne-c-sw, sw-w closes e-c-w.
        let wins = text == "e-ne" || text == "sw-w";
        assert_eq!(rules.lost(&child), wins, "{}", a.display(rules.board));
    }
}

#[test]
fn rota_placement_line_wins_or_is_forbidden() {
    let mut rules = Rules::rota();
    // x has c and n in hand one more; s completes n-c-s.
    let st = state(&rules, &["c", "n"], &["e", "w"], 1, 1);
    let all = rules.actions(&st, Throw::None);
    assert_eq!(all.len(), 5);
    let s = rules.board.point("s").unwrap();
    let (_, child) = all.iter().find(|(a, _)| matches!(a, Action::Place { to, .. } if *to == s)).unwrap();
    assert!(rules.lost(child));
    rules.placement_mills = PlacementMills::Forbidden;
    assert_eq!(moves(&rules, &st, Throw::None), sorted(&["ne", "se", "sw", "nw"]));
}

#[test]
fn blocked_player_passes_loses_or_draws() {
    // three: x in a1 b1 c1? That is a line; use an L: x a1 a2 b1 boxed in.
    let mut rules = Rules::new(BoardKind::Three, Dice::None);
    let st = state(&rules, &["a1", "a2", "b1"], &["a3", "b2", "c1"], 0, 0);
    assert!(!has_line(rules.board, st.own) && !has_line(rules.board, st.other));
    assert!(rules.actions(&st, Throw::None).is_empty());
    rules.blocked = Blocked::Pass;
    let acts = rules.actions(&st, Throw::None);
    assert_eq!(acts.len(), 1);
    assert_eq!(acts[0].0, Action::Pass);
    assert_eq!(acts[0].1, st.swapped());
}

#[test]
fn diagonals_exist_only_on_three() {
    for kind in [BoardKind::Rota, BoardKind::Six, BoardKind::Nine] {
        let e = Rules::new(kind, Dice::None).with_diagonals(true).expect_err("no diagonals off three");
        assert!(e.to_string().contains("diagonals"), "{e}");
        assert!(Rules::new(kind, Dice::None).with_diagonals(false).is_ok());
    }
    assert!(Rules::new(BoardKind::Three, Dice::None).with_diagonals(true).unwrap().board.diagonals);
}

#[test]
fn three_with_diagonals_steps_through_the_centre() {
    let rules = Rules::new(BoardKind::Three, Dice::None).with_diagonals(true).expect("three has diagonals");
    let st = state(&rules, &["b2", "a1", "c2"], &["b1", "a2", "b3"], 0, 0);
    let m = moves(&rules, &st, Throw::None);
    assert!(m.contains(&"b2-c3".to_string()) && m.contains(&"b2-a3".to_string()) && m.contains(&"b2-c1".to_string()));
    // a1 cannot step: b1 and a2 are taken, b2 is its own.
    assert!(!m.iter().any(|s| s.starts_with("a1-")));
}

#[test]
fn nine_mill_removes_any_man_or_only_those_outside_mills() {
    let mut rules = Rules::new(BoardKind::Nine, Dice::None);
    let st = state(&rules, &["a1", "g1", "d2", "f6"], &["b4", "a7", "d7", "g7"], 0, 0);
    let closing: Vec<String> = moves(&rules, &st, Throw::None).into_iter().filter(|m| m.starts_with("d2-d1")).collect();
    assert_eq!(closing, sorted(&["d2-d1xa7", "d2-d1xb4", "d2-d1xd7", "d2-d1xg7"]));
    rules.no_take_from_mills = true;
    let closing: Vec<String> = moves(&rules, &st, Throw::None).into_iter().filter(|m| m.starts_with("d2-d1")).collect();
    assert_eq!(closing, sorted(&["d2-d1xb4"]));
    // When every enemy man stands in a mill, any may go.
    let st2 = state(&rules, &["a1", "g1", "d2", "f6"], &["a7", "d7", "g7"], 0, 0);
    let closing = moves(&rules, &st2, Throw::None).into_iter().filter(|m| m.starts_with("d2-d1")).count();
    assert_eq!(closing, 3);
}

#[test]
fn double_mill_takes_two_or_one() {
    let mut rules = Rules::new(BoardKind::Nine, Dice::None);
    let st = state(&rules, &["a1", "g1", "d2", "d3"], &["b4", "a7", "e5"], 5, 6);
    let at_d1: Vec<String> = moves(&rules, &st, Throw::None).into_iter().filter(|m| m.starts_with("d1")).collect();
    assert_eq!(at_d1, sorted(&["d1xb4xa7", "d1xb4xe5", "d1xe5xa7"]));
    rules.double_mill_one = true;
    let at_d1: Vec<String> = moves(&rules, &st, Throw::None).into_iter().filter(|m| m.starts_with("d1")).collect();
    assert_eq!(at_d1, sorted(&["d1xa7", "d1xb4", "d1xe5"]));
}

#[test]
fn removal_with_restriction_is_sequential() {
    // o has a mill a7-d7-g7 and b4: with no-take-from-mills a double mill
    // first takes b4, then (all remaining in the mill) any mill man.
    let mut rules = Rules::new(BoardKind::Nine, Dice::None);
    rules.no_take_from_mills = true;
    let st = state(&rules, &["a1", "g1", "d2", "d3"], &["b4", "a7", "d7", "g7"], 5, 5);
    let at_d1: Vec<String> = moves(&rules, &st, Throw::None).into_iter().filter(|m| m.starts_with("d1")).collect();
    assert_eq!(at_d1, sorted(&["d1xb4xa7", "d1xb4xd7", "d1xb4xg7"]));
}

#[test]
fn forbidden_placement_mills_and_the_forced_exception() {
    let mut rules = Rules::new(BoardKind::Six, Dice::None);
    rules.placement_mills = PlacementMills::Forbidden;
    let st = state(&rules, &["a1", "g1"], &["b2"], 4, 5);
    let m = moves(&rules, &st, Throw::None);
    assert!(!m.iter().any(|s| s.starts_with("d1")));
    assert_eq!(m.len(), 16 - 3 - 1);
    // Every empty point closes a mill: place anyway, remove nothing. Nine:
    // x on the corners of the outer and inner squares, o filling the middle
    // square; each empty midpoint completes a side of x's.
    let rules = Rules { placement_mills: PlacementMills::Forbidden, ..Rules::new(BoardKind::Nine, Dice::None) };
    let board = rules.board;
    let st = state(
        &rules,
        &["a1", "g1", "a7", "g7", "c3", "e3", "c5", "e5"],
        &["b2", "d2", "f2", "b4", "f4", "b6", "d6", "f6"],
        1,
        1,
    );
    assert!(st.empty(board).iter().all(|p| engine::merels::mill::mills_closed_at(board, st.own.with(p), p) > 0));
    let acts = rules.actions(&st, Throw::None);
    assert_eq!(acts.len(), 8);
    assert!(acts.iter().all(|(a, c)| a.captures().is_empty() && c.other.len() == 9 && c.own.len() == 8));
}

#[test]
fn flying_with_three_men() {
    let mut rules = Rules::new(BoardKind::Nine, Dice::None);
    let st = state(&rules, &["a1", "d5", "f6"], &["b4", "c4", "e4", "g7"], 0, 0);
    let normal = rules.actions(&st, Throw::None).len();
    rules.flying = true;
    let flying = rules.actions(&st, Throw::None).len();
    assert_eq!(flying, 3 * (24 - 7));
    assert!(normal < flying);
}

#[test]
fn schaedler_special_throw_allows_a_leap_into_a_mill() {
    let rules = Rules::new(BoardKind::Nine, Dice::Schaedler);
    let st = state(&rules, &["a1", "g1", "b6"], &["b4", "c4", "e4", "g7"], 0, 0);
    assert!(rules.throws(&st));
    let normal = moves(&rules, &st, Throw::Normal);
    let special = moves(&rules, &st, Throw::Special);
    assert!(!normal.iter().any(|m| m.contains('^')));
    let leaps: Vec<&String> = special.iter().filter(|m| m.contains('^')).collect();
    assert_eq!(leaps.len(), 4, "{leaps:?}");
    assert!(leaps.iter().all(|m| m.starts_with("b6^d1x")));
    // No throw in placement.
    assert!(!rules.throws(&state(&rules, &["a1"], &["b2"], 8, 8)));
}

#[test]
fn schaedler_player_without_move_for_his_throw_is_blocked() {
    let rules = Rules::new(BoardKind::Nine, Dice::Schaedler);
    // x: a1 d1 boxed by o, g4 boxed; special throw could leap a man into a mill? No:
    // no two x men share a line with an empty third point except via a1-d1-g1 (g1 is o).
    let st = state(&rules, &["a1", "d1", "d3"], &["g1", "a4", "d2", "c3", "e3"], 0, 0);
    assert!(rules.actions(&st, Throw::Normal).is_empty());
    assert!(rules.actions(&st, Throw::Special).is_empty());
}

#[test]
fn murray_special_throw_places_a_whole_line() {
    let rules = Rules::new(BoardKind::Nine, Dice::Murray);
    let st = state(&rules, &["a4"], &["d2"], 8, 8);
    let special = rules.actions(&st, Throw::Special);
    let lines: Vec<_> = special.iter().filter(|(a, _)| matches!(a, Action::PlaceLine { .. })).collect();
    // Lines of three empty points: 16 lines minus those through a4 or d2.
    let board = rules.board;
    let empty_lines = board.lines().iter().filter(|l| l.is_subset(st.empty(board))).count();
    assert_eq!(lines.len(), empty_lines);
    for (a, child) in lines {
        // One enemy man (the only one) removed, three men placed.
        assert_eq!(a.captures().len(), 1);
        assert_eq!(child.other.len(), 4);
        assert_eq!(child.other_hand, 5);
    }
    // a7+d7+g7 with a4 and (a1 placed) would close a1-a4-a7 too: two removals.
    let st = state(&rules, &["a4", "a1"], &["d2", "b4"], 7, 7);
    let (a, _) = rules
        .actions(&st, Throw::Special)
        .into_iter()
        .find(|(a, _)| matches!(a, Action::PlaceLine { line, .. } if *line == set(board, &["a7", "d7", "g7"])))
        .unwrap();
    assert_eq!(a.captures().len(), 2);
    assert!(rules.actions(&st, Throw::Normal).iter().all(|(a, _)| matches!(a, Action::Place { .. })));
}

#[test]
fn bell_special_throw_breaks_into_an_enemy_mill() {
    let rules = Rules::new(BoardKind::Nine, Dice::Bell);
    let st = state(&rules, &["b2"], &["a7", "d7", "g7", "c3"], 7, 5);
    let special = rules.actions(&st, Throw::Special);
    // Each placement takes one of the three mill men (not c3).
    assert!(
        special
            .iter()
            .all(|(a, _)| a.captures().len() == 1 && !a.captures().contains(rules.board.point("c3").unwrap()))
    );
    assert_eq!(special.len(), 3 * (24 - 5));
    // Without an enemy mill, the special throw adds nothing.
    let st = state(&rules, &["b2"], &["a7", "d7", "c3"], 7, 6);
    assert_eq!(rules.actions(&st, Throw::Special), rules.actions(&st, Throw::Normal));
}

#[test]
fn lost_positions() {
    let rules = Rules::new(BoardKind::Six, Dice::None);
    assert!(rules.lost(&state(&rules, &["a1", "d1"], &["b2", "d2", "f2"], 0, 0)));
    assert!(!rules.lost(&state(&rules, &["a1", "d1"], &["b2", "d2", "f2"], 1, 0)));
    let rota = Rules::rota();
    assert!(rota.lost(&state(&rota, &["e", "w", "ne"], &["n", "c", "s"], 0, 0)));
}

#[test]
fn position_notation_errors_name_the_problem() {
    let cases = [
        ("rota:......... x 3", "expected 4 fields"),
        ("rota......... x 3 3", "lacks the ':'"),
        ("hex:......... x 3 3", "unknown board 'hex'"),
        ("rota:........ x 3 3", "has 9 points"),
        ("rota:....z.... x 3 3", "'z' at point se"),
        ("rota:......... y 3 3", "side to move 'y'"),
        ("rota:......... x 4 3", "hand of x '4'"),
        ("rota:......... x 3 -1", "hand of o '-1'"),
    ];
    for (s, want) in cases {
        let e = s.parse::<Position>().unwrap_err().to_string();
        assert!(e.contains(want), "{s}: {e}");
    }
    let rules = Rules::rota();
    let impossible = [
        ("rota:xx..x.... x 1 3", "more than"),
        ("rota:xx.x..... x 0 0", "has fewer than 3"),
        ("rota:xxo..xo.o x 0 0", "already has a line"),
        ("rota:x........ x 2 3", "one man a turn"),
        ("rota:..x.x.... o 1 3", "one man a turn"),
    ];
    for (s, want) in impossible {
        let p: Position = s.parse().unwrap();
        let e = rules.check(&p).unwrap_err().to_string();
        assert!(e.contains(want), "{s}: {e}");
    }
    // Murray's special throw places three men at once: the counts may
    // differ by more, but not by what no turns give.
    let murray = Rules::new(BoardKind::Six, Dice::Murray);
    for (s, possible) in [
        ("six:xxx............. o 3 6", true),
        ("six:xxxo............ x 3 5", true),
        ("six:xxxxxoo......... o 1 4", true),
        ("six:xxxxx........... o 1 6", false),
        ("six:x............... x 5 6", false),
        ("six:xxxx............ o 2 6", false),
        ("six:xx.............. o 4 6", false),
    ] {
        let p: Position = s.parse().unwrap();
        let r = murray.check(&p);
        assert_eq!(r.is_ok(), possible, "{s}: {r:?}");
        if let Err(e) = r {
            assert!(e.to_string().contains("three on a special throw"), "{s}: {e}");
        }
    }
}

#[test]
fn action_notation_parses_and_rejects_unknown_points() {
    let nine = Board::get(BoardKind::Nine, false);
    for s in ["d1", "a1-a4", "a1-a4xd7", "b6^d1xg7", "a7+d7+g7xb4xc4", "pass", "d1xb4xa7"] {
        let a = Action::parse(s, nine).unwrap();
        assert_eq!(a.display(nine).to_string(), s);
    }
    use engine::merels::ParseActionError as E;
    let e = Action::parse("a1-z9", nine).unwrap_err();
    assert_eq!(e, E::UnknownPoint { text: "a1-z9".into(), name: "z9".into(), board: BoardKind::Nine });
    assert!(e.to_string().contains("'z9'") && e.to_string().contains("not a point"), "{e}");
    assert_eq!(Action::parse("a1+a4+b4", nine), Err(E::NotALine { text: "a1+a4+b4".into(), board: BoardKind::Nine }));
    assert_eq!(Action::parse("d1x", nine), Err(E::NoRemoval { text: "d1x".into() }));
    assert_eq!(Action::parse("d1xa1xa1", nine), Err(E::RemovedTwice { text: "d1xa1xa1".into(), point: "a1".into() }));
    assert_eq!(Action::parse("xa1", nine), Err(E::NoPoint { text: "xa1".into() }));
}

#[test]
fn position_errors_are_typed() {
    use engine::merels::ParsePositionError as E;
    let cases = [
        ("three:......... x 3", E::Fields { text: "three:......... x 3".into(), found: 3 }),
        ("three......... x 3 3", E::NoBoard { field: "three.........".into() }),
        ("three:........ x 3 3", E::Points { board: BoardKind::Three, points: "........".into(), found: 8 }),
        (
            "three:....q.... x 3 3",
            E::Character { board: BoardKind::Three, points: "....q....".into(), at: 4, found: 'q' },
        ),
        ("three:......... z 3 3", E::Side("z".into())),
        ("three:......... x 4 3", E::Hand { side: Side::X, text: "4".into(), board: BoardKind::Three }),
        ("three:......... x 3 -1", E::Hand { side: Side::O, text: "-1".into(), board: BoardKind::Three }),
    ];
    for (text, want) in cases {
        assert_eq!(text.parse::<Position>(), Err(want), "{text}");
    }
    let e = "ten:......... x 3 3".parse::<Position>().unwrap_err();
    assert!(matches!(&e, E::Board(u) if u.given == "ten"), "{e}");
    assert!(e.to_string().starts_with("invalid position: unknown board 'ten'"), "{e}");
}

#[test]
fn rendering_shows_every_man() {
    for (s, diag) in [
        ("rota:xo.x.ox.o x 0 0", false),
        ("three:x.o.x.o.. o 1 1", true),
        ("six:x..o...x.....o.. x 4 4", false),
        ("nine:x.x.x.....o..........ooo x 0 0", false),
    ] {
        let p: Position = s.parse().unwrap();
        let board = Board::get(p.kind, diag);
        let text = render(&p, board);
        assert_eq!(text.matches('X').count() as u32, p.men[0].len(), "{text}");
        assert_eq!(text.matches('O').count() as u32, p.men[1].len(), "{text}");
        // Every mark of a point is a point: the picture has as many as the
        // board (the line below it, the side to move and hands, has none).
        let picture = text.trim_end().rsplit_once('\n').unwrap().0;
        let marks = picture.chars().filter(|c| matches!(c, 'X' | 'O' | '.')).count();
        assert_eq!(marks, board.points().count(), "{text}");
    }
}

#[test]
fn the_wheel_labels_its_compass_points_beside_them() {
    let p: Position = "rota:.x...o... x 2 2".parse().unwrap();
    let text = render(&p, Board::get(BoardKind::Rota, false));
    let lines: Vec<&str> = text.lines().collect();
    let column = |line: &str, c: char| line.find(c).unwrap_or_else(|| panic!("no {c} in {line:?}:\n{text}"));
    // n stands over the north point (X), s under the south point (O).
    assert_eq!(lines[0].trim(), "n", "{text}");
    assert_eq!(column(lines[0], 'n'), column(lines[1], 'X'), "{text}");
    let south = lines.iter().position(|l| l.contains('O')).unwrap();
    assert_eq!(lines[south + 1].trim(), "s", "{text}");
    assert_eq!(column(lines[south + 1], 's'), column(lines[south], 'O'), "{text}");
}

proptest! {
    #[test]
    fn position_notation_round_trips(kind in 0usize..4, bits in any::<u64>(), side in any::<bool>(), hx in 0u8..10, ho in 0u8..10) {
        let kind = BoardKind::ALL[kind];
        let board = Board::get(kind, false);
        let mut men = [PointSet::EMPTY; 2];
        for p in board.points() {
            match bits >> (2 * p.0) & 3 {
                1 => men[0] = men[0].with(p),
                2 => men[1] = men[1].with(p),
                _ => {}
            }
        }
        let hand = [hx.min(kind.men()), ho.min(kind.men())];
        let pos = Position { kind, men, hand, to_move: if side { Side::X } else { Side::O } };
        let text = pos.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), pos);
        prop_assert_eq!(Position::from_state(kind, pos.to_move, pos.state()), pos);
    }

    #[test]
    fn every_position_of_play_is_possible(seed in any::<u64>()) {
        // Random playouts on every board and reading, either side starting,
        // with flying and passing: `check` accepts every position reached.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        for kind in BoardKind::ALL {
            for dice in Dice::ALL {
                let rules = Rules {
                    flying: rng.random_bool(0.5),
                    blocked: [Blocked::Lose, Blocked::Pass, Blocked::Draw][rng.random_range(0..3)],
                    ..Rules::new(kind, dice)
                };
                let mut st = State::start(rules.men());
                let mut side = if rng.random_bool(0.5) { Side::X } else { Side::O };
                for _ in 0..60 {
                    let pos = Position::from_state(kind, side, st);
                    prop_assert!(rules.check(&pos).is_ok(), "{} under {:?}: {}", pos, dice, rules.check(&pos).unwrap_err());
                    if rules.lost(&st) { break; }
                    let throw = if rules.throws(&st) { if rng.random_bool(0.3) { Throw::Special } else { Throw::Normal } } else { Throw::None };
                    let acts = rules.actions(&st, throw);
                    if acts.is_empty() { break; }
                    st = acts[rng.random_range(0..acts.len())].1;
                    side = side.other();
                }
            }
        }
    }

    #[test]
    fn every_action_round_trips_through_notation(seed in any::<u64>()) {
        // Random playouts on every board and reading; each action's text
        // parses back to the same action.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        for kind in BoardKind::ALL {
            for dice in Dice::ALL {
                let rules = Rules::new(kind, dice);
                let mut st = State::start(rules.men());
                for _ in 0..40 {
                    if rules.lost(&st) { break; }
                    let throw = if rules.throws(&st) { if rng.random_bool(0.3) { Throw::Special } else { Throw::Normal } } else { Throw::None };
                    let acts = rules.actions(&st, throw);
                    if acts.is_empty() { break; }
                    for (a, _) in &acts {
                        let text = a.display(rules.board).to_string();
                        prop_assert_eq!(Action::parse(&text, rules.board).unwrap(), *a);
                    }
                    // Men are conserved: on board + in hand + captured.
                    let (a, next) = acts[rng.random_range(0..acts.len())];
                    prop_assert_eq!(next.other_total() , st.own_total());
                    prop_assert_eq!(next.own_total() + a.captures().len(), st.other_total());
                    st = next;
                }
            }
        }
    }
}

#[test]
fn point_sets_iterate_in_order() {
    let s: PointSet = [Point(5), Point(1), Point(9)].into_iter().collect();
    assert_eq!(s.iter().collect::<Vec<_>>(), vec![Point(1), Point(5), Point(9)]);
    assert_eq!(s.len(), 3);
}

proptest! {
    /// The points where one more man closes a mill, against trying each
    /// empty point in turn, for random men of both sides on every board.
    #[test]
    fn closing_points_are_where_one_more_man_fills_a_line(own in any::<u32>(), other in any::<u32>()) {
        for kind in BoardKind::ALL {
            for diagonals in [false, true] {
                let board = Board::get(kind, diagonals);
                let all = PointSet::first_n(board.len());
                let own = PointSet(own) & all;
                let other = PointSet(other) & (all - own);
                let empty = all - own - other;
                let by_hand: PointSet = empty.iter().filter(|&p| mills_closed_at(board, own.with(p), p) > 0).collect();
                prop_assert_eq!(closing_points(board, own, empty), by_hand);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Where `chance_ahead` says no throw can matter any more, every throw
    /// allows the same actions, in that position and in every one play
    /// reaches from it (random playouts on every board under the readings
    /// with dice in the placement, and special chances of 1 to 71 in 72).
    #[test]
    fn without_chance_ahead_every_throw_allows_the_same(seed in any::<u64>()) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        for kind in BoardKind::ALL {
            for dice in [Dice::Murray, Dice::Bell] {
                let rules = Rules::new(kind, dice).try_with_special_72(rng.random_range(1..72)).unwrap();
                let mut st = State::start(rules.men());
                let mut ahead = true;
                for _ in 0..60 {
                    if rules.lost(&st) { break; }
                    let now = rules.chance_ahead(&st);
                    // Once gone, chance does not come back.
                    prop_assert!(ahead || !now);
                    ahead = now;
                    let outcomes = rules.throw_outcomes(&st);
                    let mut sets: Vec<Vec<State>> = outcomes
                        .iter()
                        .map(|&(t, _)| {
                            let mut v: Vec<State> = rules.actions(&st, t).into_iter().map(|a| a.1).collect();
                            v.sort();
                            v
                        })
                        .collect();
                    if !ahead {
                        sets.dedup();
                        prop_assert_eq!(sets.len(), 1, "{:?}: the throws differ", st);
                    }
                    let throw = outcomes[rng.random_range(0..outcomes.len())].0;
                    let acts = rules.actions(&st, throw);
                    if acts.is_empty() { break; }
                    st = acts[rng.random_range(0..acts.len())].1;
                }
            }
        }
    }

    /// Where `for_each_special_extra` says a special throw allows a normal
    /// throw's actions and more, the special throw's actions are exactly the
    /// normal throw's and those (random playouts on every board under every
    /// reading with dice, flying and passing included); where it says not,
    /// it names none.
    #[test]
    fn a_special_throw_extends_a_normal_one_where_it_says_so(seed in any::<u64>()) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut extended, mut more) = (0, 0);
        for kind in BoardKind::ALL {
            for dice in [Dice::Schaedler, Dice::Murray, Dice::Bell] {
                let rules = Rules {
                    flying: rng.random_bool(0.5),
                    blocked: [Blocked::Lose, Blocked::Pass, Blocked::Draw][rng.random_range(0..3)],
                    ..Rules::new(kind, dice)
                };
                let mut st = State::start(rules.men());
                for _ in 0..60 {
                    if rules.lost(&st) { break; }
                    if rules.throws(&st) {
                        let normal = rules.actions(&st, Throw::Normal);
                        let mut extra = Vec::new();
                        let extends = rules.for_each_special_extra(&st, |a, s| extra.push((a, s)));
                        if extends {
                            let passes = normal.iter().any(|(a, _)| *a == Action::Pass);
                            if !passes {
                                extended += 1;
                                more += extra.len();
                                let mut want: Vec<(Action, State)> = normal.iter().copied().chain(extra).collect();
                                let mut got = rules.actions(&st, Throw::Special);
                                want.sort_by_key(|x| format!("{x:?}"));
                                got.sort_by_key(|x| format!("{x:?}"));
                                prop_assert_eq!(got, want, "{:?} under {:?}", st, dice);
                            }
                        } else {
                            prop_assert!(extra.is_empty(), "{:?}: actions named where a special throw does not extend", st);
                        }
                    }
                    let throw = if rules.throws(&st) { if rng.random_bool(0.3) { Throw::Special } else { Throw::Normal } } else { Throw::None };
                    let acts = rules.actions(&st, throw);
                    if acts.is_empty() { break; }
                    st = acts[rng.random_range(0..acts.len())].1;
                }
            }
        }
        // Not vacuous: special throws extended normal ones, with more actions.
        prop_assert!(extended > 0 && more > 0, "extended {} times, {} more actions", extended, more);
    }

    /// The moves that take nothing against the rules' whole generator, on
    /// random positions of the movement phase of every board, dice and rule
    /// variant: the same children as the actions after either throw that
    /// capture nothing and leave the other side not lost, each once.
    #[test]
    fn quiet_moves_are_the_actions_that_take_nothing(seed in any::<u64>()) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        for kind in BoardKind::ALL {
            for dice in [Dice::None, Dice::Schaedler] {
                for (flying, blocked, no_take) in [
                    (false, Blocked::Lose, false),
                    (true, Blocked::Lose, true),
                    (false, Blocked::Pass, false),
                    (true, Blocked::Pass, true),
                ] {
                    let rules = Rules { flying, blocked, no_take_from_mills: no_take, ..Rules::new(kind, dice) };
                    let board = rules.board;
                    let mut points: Vec<Point> = board.points().collect();
                    for i in (1..points.len()).rev() {
                        points.swap(i, rng.random_range(0..=i));
                    }
                    let men = kind.men() as usize;
                    let (a, b) = (rng.random_range(3..=men), rng.random_range(3..=men));
                    // A full board now and then, where a side that cannot fly
                    // is blocked (and passes, where blocked players pass).
                    let b = if rng.random_bool(0.3) { points.len() - a } else { b.min(points.len() - a - 1) };
                    let own: PointSet = points[..a].iter().copied().collect();
                    let other: PointSet = points[a..a + b].iter().copied().collect();
                    let st = State { own, other, own_hand: 0, other_hand: 0 };
                    if !rules.valid(&st) || rules.lost(&st) {
                        continue;
                    }
                    let mut quiet = Vec::new();
                    rules.for_each_quiet_move(&st, |c| quiet.push(c));
                    let mut sorted = quiet.clone();
                    sorted.sort_unstable_by_key(|c| (c.own, c.other));
                    sorted.dedup();
                    prop_assert_eq!(sorted.len(), quiet.len(), "{:?}: a quiet move twice", st);
                    for throw in [Throw::Normal, Throw::Special] {
                        let mut by_actions: Vec<State> = rules
                            .actions(&st, throw)
                            .into_iter()
                            .filter(|(a, c)| a.captures().is_empty() && !rules.lost(c))
                            .map(|(_, c)| c)
                            .collect();
                        by_actions.sort_unstable_by_key(|c| (c.own, c.other));
                        by_actions.dedup();
                        prop_assert_eq!(&by_actions, &sorted, "{:?} {:?} {:?}", kind, throw, st);
                    }
                }
            }
        }
    }

    /// The backward generator against the forward one, on random positions
    /// of the movement phase of every board and rule variant: every state a
    /// non-capturing step or flight (or pass) leads to lists the state it came from
    /// among its predecessors, and every predecessor listed has such a move
    /// to the state.
    #[test]
    fn predecessors_and_successors_agree(seed in any::<u64>()) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        for kind in BoardKind::ALL {
            for (flying, blocked) in [(false, Blocked::Lose), (true, Blocked::Lose), (false, Blocked::Pass)] {
                let rules = Rules { flying, blocked, ..Rules::new(kind, Dice::Schaedler) };
                let board = rules.board;
                // A random movement position: up to the board's men on each side.
                let mut points: Vec<Point> = board.points().collect();
                for i in (1..points.len()).rev() {
                    points.swap(i, rng.random_range(0..=i));
                }
                let (a, b) = (rng.random_range(3..=kind.men() as usize), rng.random_range(3..=kind.men() as usize));
                let own: PointSet = points[..a].iter().copied().collect();
                let other: PointSet = points[a..(a + b).min(points.len() - 1)].iter().copied().collect();
                let st = State { own, other, own_hand: 0, other_hand: 0 };
                // Non-capturing moves (or passes) leading out of st.
                let moves_to = |q: &State, target: &State| {
                    let mut found = false;
                    for throw in [Throw::Normal, Throw::Special] {
                        rules.for_each_action(q, throw, |act, child| {
                            found |= act.captures().is_empty() && !matches!(act, Action::Leap { .. }) && child == *target;
                        });
                    }
                    found
                };
                if rules.valid(&st) && !rules.lost(&st) {
                    for throw in [Throw::Normal, Throw::Special] {
                        for (act, child) in rules.actions(&st, throw) {
                            if !act.captures().is_empty() || matches!(act, Action::Leap { .. }) || !rules.valid(&child) {
                                continue;
                            }
                            let mut preds = Vec::new();
                            rules.for_each_predecessor(&child, |q| preds.push(q));
                            prop_assert!(preds.contains(&st), "{:?}: {:?} -> {:?} not found back", kind, act, child);
                        }
                    }
                }
                let mut preds = Vec::new();
                rules.for_each_predecessor(&st, |q| preds.push(q));
                for q in preds {
                    prop_assert!(rules.valid(&q) && !rules.lost(&q));
                    prop_assert!(moves_to(&q, &st), "{:?}: {:?} has no move to {:?}", kind, q, st);
                }
            }
        }
    }
}

/// The successors of a position from the rules as written, a point at a
/// time (no dice but Schädler's leap): the slow twin of
/// [`Rules::for_each_action`]. Sorted child states.
fn successors_by_hand(r: &Rules, st: &State, throw: Throw) -> Vec<State> {
    let board = r.board;
    let points: Vec<Point> = board.points().collect();
    let lines: Vec<Vec<Point>> = board.lines().iter().map(|l| l.iter().collect()).collect();
    let full = |men: &[Point], line: &[Point]| line.iter().all(|p| men.contains(p));
    // Lines through `p` that `men` fill.
    let closed_at = |men: &[Point], p: Point| lines.iter().filter(|l| l.contains(&p) && full(men, l)).count();
    let in_mill = |men: &[Point], p: Point| lines.iter().any(|l| l.contains(&p) && full(men, l));
    let own: Vec<Point> = st.own.iter().collect();
    let other: Vec<Point> = st.other.iter().collect();
    let empty: Vec<Point> = points.iter().copied().filter(|p| !own.contains(p) && !other.contains(p)).collect();
    // Every set of men `k` removals may take from `enemy`, one at a time.
    fn removals(enemy: Vec<Point>, k: usize, rule: &dyn Fn(&[Point]) -> Vec<Point>, out: &mut Vec<Vec<Point>>) {
        if k == 0 || enemy.is_empty() {
            out.push(Vec::new());
            return;
        }
        for p in rule(&enemy) {
            let rest: Vec<Point> = enemy.iter().copied().filter(|&q| q != p).collect();
            let mut sub = Vec::new();
            removals(rest, k - 1, rule, &mut sub);
            for mut s in sub {
                s.push(p);
                s.sort();
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    let takeable = |enemy: &[Point]| -> Vec<Point> {
        let outside: Vec<Point> = enemy.iter().copied().filter(|&p| !in_mill(enemy, p)).collect();
        if r.no_take_from_mills && !outside.is_empty() { outside } else { enemy.to_vec() }
    };
    let mut out = Vec::new();
    let placing = st.own_hand > 0;
    let mut finish = |new_own: Vec<Point>, closed: usize| {
        let set = |v: &[Point]| v.iter().copied().collect::<PointSet>();
        let hand = if placing { st.own_hand - 1 } else { 0 };
        if closed > 0 && board.line_wins() {
            out.push(State { own: st.other, other: set(&new_own), own_hand: st.other_hand, other_hand: hand });
            return;
        }
        let k = if r.double_mill_one { closed.min(1) } else { closed };
        let mut sets = Vec::new();
        removals(other.clone(), k, &takeable, &mut sets);
        for taken in sets {
            let left: Vec<Point> = other.iter().copied().filter(|p| !taken.contains(p)).collect();
            out.push(State { own: set(&left), other: set(&new_own), own_hand: st.other_hand, other_hand: hand });
        }
    };
    if placing {
        let with = |p: Point| -> Vec<Point> { own.iter().copied().chain([p]).collect() };
        let open: Vec<Point> = empty.iter().copied().filter(|&p| closed_at(&with(p), p) == 0).collect();
        let forbidden = r.placement_mills == PlacementMills::Forbidden;
        for &p in &empty {
            if forbidden && !open.is_empty() && !open.contains(&p) {
                continue;
            }
            let closed = if forbidden { 0 } else { closed_at(&with(p), p) };
            finish(with(p), closed);
        }
    } else {
        let flying = r.flying && own.len() == 3;
        for &from in &own {
            for &to in &empty {
                let new_own: Vec<Point> = own.iter().copied().filter(|&q| q != from).chain([to]).collect();
                let closed = closed_at(&new_own, to);
                let step = flying || board.neighbours(from).contains(to);
                let leap = throw == Throw::Special && r.dice == Dice::Schaedler && closed > 0;
                if step || leap {
                    finish(new_own, closed);
                }
            }
        }
    }
    if out.is_empty() && r.blocked == Blocked::Pass {
        out.push(st.swapped());
    }
    out.sort_by_key(|s| (s.own.0, s.other.0, s.own_hand, s.other_hand));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// The move generator against its slow twin, on random positions of
    /// every board (placing and moving) under every rule variant without
    /// dice in placement, after every throw.
    #[test]
    fn successors_equal_the_rules_as_written(seed in any::<u64>()) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        for kind in BoardKind::ALL {
            let dice = if rng.random::<bool>() { Dice::None } else { Dice::Schaedler };
            let mut r = Rules::new(kind, dice);
            r.flying = rng.random();
            r.no_take_from_mills = rng.random();
            r.double_mill_one = rng.random();
            r.placement_mills = if rng.random() { PlacementMills::Count } else { PlacementMills::Forbidden };
            r.blocked = [Blocked::Lose, Blocked::Pass, Blocked::Draw][rng.random_range(0..3)];
            let board = r.board;
            let men = kind.men();
            let (w, b) = (rng.random_range(0..=men), rng.random_range(0..=men));
            let mut pts: Vec<Point> = board.points().collect();
            for i in (1..pts.len()).rev() {
                pts.swap(i, rng.random_range(0..=i));
            }
            let w = (w as usize).min(pts.len());
            let b = (b as usize).min(pts.len() - w);
            let own: PointSet = pts[..w].iter().copied().collect();
            let other: PointSet = pts[w..w + b].iter().copied().collect();
            let (own_hand, other_hand) = if rng.random() {
                (rng.random_range(1..=men - (w as u8).min(men - 1)), rng.random_range(0..=men - (b as u8).min(men)))
            } else {
                (0, 0)
            };
            let st = State { own, other, own_hand, other_hand };
            if r.lost(&st) {
                continue;
            }
            for (throw, _) in r.throw_outcomes(&st).into_iter().chain([(Throw::None, 0)]) {
                if throw == Throw::None && st.own_hand == 0 && dice == Dice::Schaedler {
                    continue;
                }
                let mut fast: Vec<State> = r.actions(&st, throw).into_iter().map(|(_, c)| c).collect();
                fast.sort_by_key(|s| (s.own.0, s.other.0, s.own_hand, s.other_hand));
                prop_assert_eq!(&fast, &successors_by_hand(&r, &st, throw), "{:?} {:?} {:?}", kind, throw, st);
            }
        }
    }
}
