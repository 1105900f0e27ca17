//! The Game interface of each game and the players over it: chance turns,
//! results, notation, and each player's choice where the right one is known.

use engine::arena::{self, Config};
use engine::game::{Game, Outcome, Turn};
use engine::merels::{Action, Blocked, BoardKind, Dice, Merels, Move, Play, Position, Rules, Throw};
use engine::players::alphabeta::AlphaBetaAgent;
use engine::players::{Limit, Spec, generic_bot};
use engine::rithmo::{self, Rithmomachia, RuleSet};

/// One choice, then chance: `Safe` draws; `Gamble` wins with probability
/// `p` and loses otherwise.
struct Gamble {
    p: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Safe,
    Gamble,
    Heads,
    Tails,
}

#[derive(Clone, Debug, PartialEq)]
enum Coin {
    Choose,
    Flip,
    Over(Outcome),
}

impl Game for Gamble {
    type State = Coin;
    type Action = Step;

    fn name(&self) -> &'static str {
        "gamble"
    }
    fn start(&self) -> Coin {
        Coin::Choose
    }
    fn turn(&self, st: &Coin) -> Turn {
        if *st == Coin::Flip { Turn::Chance } else { Turn::Player(0) }
    }
    fn actions(&self, st: &Coin) -> Vec<Step> {
        if *st == Coin::Choose { vec![Step::Safe, Step::Gamble] } else { Vec::new() }
    }
    fn chances(&self, _st: &Coin) -> Vec<(Step, f64)> {
        vec![(Step::Heads, self.p), (Step::Tails, 1.0 - self.p)]
    }
    fn apply(&self, _st: &Coin, a: Step) -> Coin {
        match a {
            Step::Safe => Coin::Over(Outcome::Draw),
            Step::Gamble => Coin::Flip,
            Step::Heads => Coin::Over(Outcome::Win(0)),
            Step::Tails => Coin::Over(Outcome::Win(1)),
        }
    }
    fn result(&self, st: &Coin) -> Option<Outcome> {
        match st {
            Coin::Over(o) => Some(*o),
            _ => None,
        }
    }
    fn heuristic(&self, _st: &Coin, _player: usize) -> f64 {
        0.0
    }
    fn gain(&self, _st: &Coin, a: Step) -> f64 {
        if a == Step::Gamble { 1.0 } else { 0.0 }
    }
    fn action_text(&self, _st: &Coin, a: Step) -> String {
        format!("{a:?}")
    }
}

fn spec(s: &str) -> Spec {
    s.parse().unwrap()
}

fn choose<G: Game + 'static>(game: &G, st: &G::State, s: &str, seed: u64) -> G::Action {
    generic_bot::<G>(&spec(s)).unwrap().agent(seed).choose(game, st)
}

#[test]
fn expectimax_weighs_chance_outcomes() {
    for (p, want) in [(0.7, Step::Gamble), (0.3, Step::Safe)] {
        let game = Gamble { p };
        let mut ab = AlphaBetaAgent::new(Limit { depth: Some(3), movetime: None }, 1);
        let (a, v) = ab.search(&game, &Coin::Choose);
        assert_eq!(a, want, "p = {p}");
        assert!((v - (2.0 * p - 1.0_f64).max(0.0) * (1.0 - 2e-3)).abs() < 0.01, "p = {p}: value {v}");
        for seed in 0..5 {
            assert_eq!(choose(&game, &Coin::Choose, "mcts:playouts=400", seed), want, "mcts, p = {p}");
        }
    }
    // Greedy knows only gains.
    assert_eq!(choose(&Gamble { p: 0.1 }, &Coin::Choose, "greedy", 0), Step::Gamble);
}

fn play_at(pos: &str) -> Play {
    let p: Position = pos.parse().unwrap();
    Play { side: p.to_move, state: p.state(), throw: None }
}

#[test]
fn merels_turns_chances_and_notation() {
    let g = Merels::new(Rules::rota());
    let st = g.start();
    assert_eq!((g.turn(&st), g.actions(&st).len(), g.name()), (Turn::Player(0), 9, "rota"));

    // Murray throws in placement: chance first, then the throw's actions.
    let g = Merels::new(Rules::new(BoardKind::Three, Dice::Murray));
    let st = g.start();
    assert_eq!(g.turn(&st), Turn::Chance);
    assert!(g.actions(&st).is_empty());
    let ch = g.chances(&st);
    assert_eq!(ch.iter().map(|c| c.1).sum::<f64>(), 1.0);
    assert_eq!(ch[0], (Move::Throw(Throw::Special), 5.0 / 72.0));
    let after = g.apply(&st, Move::Throw(Throw::Special));
    assert_eq!(g.turn(&after), Turn::Player(0));
    let acts = g.actions(&after);
    assert_eq!(acts.len(), g.rules.actions(&after.state, Throw::Special).len());
    let line = acts.iter().find(|m| matches!(m, Move::Act(Action::PlaceLine { .. }, _))).unwrap();
    assert!(g.action_text(&after, *line).starts_with("special:"), "{}", g.action_text(&after, *line));
    // The line wins at once.
    let next = g.apply(&after, *line);
    assert_eq!(g.result(&next), Some(Outcome::Win(0)));
    assert_eq!(next.side.index(), 1);
}

#[test]
fn merels_results_blocked_and_lost() {
    // o to move on the three board, hemmed in at a1, b1, a2 by x on c1, b2, a3.
    let blocked = "three:ooxox.x.. o 0 0";
    let rules = Rules::new(BoardKind::Three, Dice::None);
    let p = play_at(blocked);
    let lose = Merels::new(rules);
    let mut pass = rules;
    pass.blocked = Blocked::Pass;
    let mut draw = rules;
    draw.blocked = Blocked::Draw;
    assert!(lose.actions(&p).is_empty());
    assert_eq!(lose.result(&p), Some(Outcome::Win(0)));
    assert_eq!(Merels::new(draw).result(&p), Some(Outcome::Draw));
    let pm = Merels::new(pass);
    assert_eq!(pm.result(&p), None);
    assert!(matches!(pm.actions(&p)[..], [Move::Act(Action::Pass, _)]));
    // Fewer than three men: lost before any throw.
    let six = Rules::new(BoardKind::Six, Dice::Schaedler);
    let p = play_at("six:xx.x.....o..o... o 0 0");
    assert_eq!(Merels::new(six).result(&p), Some(Outcome::Win(0)));
}

#[test]
fn players_take_a_win_in_one() {
    // x to move closes ne-c-sw by s-sw.
    let rules = Rules::rota();
    let g = Merels::new(rules);
    let p = play_at("rota:xoxo.x..o x 0 0");
    for s in ["greedy", "alphabeta:depth=1", "alphabeta:depth=4", "alphabeta:movetime=50", "mcts:playouts=300"] {
        for seed in 0..3 {
            let m = choose(&g, &p, s, seed);
            assert_eq!(g.result(&g.apply(&p, m)), Some(Outcome::Win(0)), "{s} played {}", g.action_text(&p, m));
        }
    }
}

#[test]
fn greedy_takes_the_biggest_capture() {
    // Six men's morris, x closes a1-d1-g1 by d2-d1 and removes a man.
    let rules = Rules::new(BoardKind::Six, Dice::None);
    let g = Merels::new(rules);
    let p = play_at("six:x.x.x.....o.oo.. x 0 0");
    let m = choose(&g, &p, "greedy", 3);
    assert_eq!(g.gain(&p, m), 1.0, "{}", g.action_text(&p, m));
}

#[test]
fn rithmo_turns_repetition_and_gains() {
    let g = Rithmomachia::new(RuleSet::common(), rithmo::Position::start());
    let mut st = g.start();
    assert_eq!((g.turn(&st), g.actions(&st).len(), g.result(&st)), (Turn::Player(0), 12, None));
    // Back and forth: the start position for the third time draws.
    for _ in 0..2 {
        for m in ["c4-c5", "c13-c12", "c5-c4", "c12-c13"] {
            let mv: rithmo::Move = m.parse().unwrap();
            assert!(g.actions(&st).contains(&mv), "{m}");
            st = g.apply(&st, mv);
        }
    }
    assert_eq!(st.occurrences(), 3);
    assert_eq!(g.result(&st), Some(Outcome::Draw));
    assert!(g.actions(&st).is_empty());
    // The engine's game agrees.
    let mut h = rithmo::Game::new(rithmo::Position::start(), RuleSet::common());
    for m in ["c4-c5", "c13-c12", "c5-c4", "c12-c13", "c4-c5", "c13-c12", "c5-c4", "c12-c13"] {
        h.play(m.parse().unwrap()).unwrap();
    }
    assert_eq!(h.status(), rithmo::Status::Drawn(rithmo::Reason::Repetition));
    // A capture's gain is the men it takes.
    let pos: rithmo::Position =
        "8/8/8/8/8/8/2,c9,5/2,C9,5/8/8/8/8/8/8/8/8 e - - 0 1".parse().unwrap_or_else(|e| panic!("{e}"));
    let g = Rithmomachia::new(RuleSet::common(), pos);
    let st = g.start();
    let cap: rithmo::Move = "c9xc10".parse().unwrap();
    assert!(g.actions(&st).contains(&cap));
    assert_eq!(g.gain(&st, cap), 1.0);
    assert_eq!(choose(&g, &st, "greedy", 0), cap);
    // Odd is left without a piece, so without a move.
    assert_eq!(g.result(&g.apply(&st, cap)), Some(Outcome::Win(0)));
}

#[test]
fn matches_are_the_same_on_any_number_of_threads() {
    let g = Merels::new(Rules::new(BoardKind::Three, Dice::Bell));
    let a = generic_bot::<Merels>(&spec("mcts:playouts=30")).unwrap();
    let b = generic_bot::<Merels>(&spec("alphabeta:depth=2")).unwrap();
    let run = |threads| {
        let cfg = Config { games: 10, seed: 5, max_plies: 100, threads };
        arena::run(&g, a.as_ref(), b.as_ref(), &cfg, &|| {}).unwrap()
    };
    assert_eq!(run(1), run(2));
}

/// `perfect` is no generic bot: it needs a solved game, and says so.
#[test]
fn perfect_is_refused_by_the_generic_bots() {
    let e = generic_bot::<Merels>(&Spec::Perfect).err().expect("refused");
    assert_eq!(e, engine::players::NeedsSolver);
    assert!(e.to_string().contains("solved game"), "{e}");
}
