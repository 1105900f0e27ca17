//! The Rota report: who has the first-move advantage, in exact numbers.

use engine::merels::{BoardKind, Position, Rules, Side, State, Throw};
use serde::Serialize;

use crate::merels::markov::{ChainResult, Policy, leader_chances};
use crate::merels::value::{UNUSED, unpack};
use crate::merels::{Eval, Observer, Solution, Value, Values};

/// One first placement of the leader and its value for him.
#[derive(Clone, Debug, Serialize)]
pub struct FirstMove {
    pub point: String,
    /// 1, 0 or -1 for the leader.
    pub value: f64,
    /// `win`, `draw` or `loss`.
    pub outcome: &'static str,
    pub plies: Option<u16>,
}

/// A value as a number for the side it is for: 1, 0 or -1.
fn number(v: Value) -> f64 {
    match v {
        Value::Win(_) => 1.0,
        Value::Draw => 0.0,
        _ => -1.0,
    }
}

/// Counts of positions by their value for the side to move.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Counts {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Of the losses, those where the game is already over.
    pub terminal: u64,
}

impl Counts {
    pub fn total(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// One policy pairing's outcome for the leader.
#[derive(Clone, Debug, Serialize)]
pub struct Chances {
    pub leader_wins: f64,
    pub leader_loses: f64,
    pub endless: f64,
    pub chain_states: usize,
    pub residual: f64,
    /// The most `leader_wins` and `leader_loses` can be off.
    pub error: f64,
}

impl From<ChainResult> for Chances {
    fn from(c: ChainResult) -> Chances {
        Chances {
            leader_wins: c.leader_wins,
            leader_loses: c.leader_loses,
            endless: c.endless,
            chain_states: c.states,
            residual: c.residual,
            error: c.error,
        }
    }
}

/// Everything `ludus rota solve` reports.
#[derive(Clone, Debug, Serialize)]
pub struct RotaReport {
    pub rules: String,
    /// The start position's value for the leader: 1, 0 or -1.
    pub value: f64,
    /// The same in words: `win`, `draw` or `loss`.
    pub outcome: &'static str,
    pub plies: Option<u16>,
    pub first_moves: Vec<FirstMove>,
    /// Positions up to symmetry (one per class of the wheel's 16 symmetries).
    pub classes: Counts,
    /// All positions, each symmetric image counted.
    pub positions: Counts,
    pub longest_win: u16,
    pub longest_win_position: Option<String>,
    pub random_vs_random: f64,
    pub perfect_vs_random: f64,
    pub random_vs_perfect: f64,
    pub chances: ChancesTable,
    pub sure_path_to_victory: bool,
    pub verdict: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ChancesTable {
    pub random_vs_random: Chances,
    pub perfect_vs_random: Chances,
    pub random_vs_perfect: Chances,
}

/// Solves Rota under `rules` and assembles the report.
pub fn report(rules: Rules, obs: &dyn Observer) -> RotaReport {
    assert_eq!(rules.board.kind, BoardKind::Rota);
    let sol = Solution::solve(rules, obs);
    report_from(&sol)
}

/// The report from a solved game (any board of three men; Rota in practice).
pub fn report_from(sol: &Solution) -> RotaReport {
    let rules = sol.rules;
    let board = rules.board;
    let start = State::start(rules.men());
    let value = sol.dtm(&start).expect("start solved");
    let first_moves = sol
        .rate_actions(&start)
        .into_iter()
        .filter_map(|(_, a, e)| match e {
            Eval::Dtm(v) => Some(FirstMove {
                point: a.display(board).to_string(),
                value: number(v),
                outcome: v.word(),
                plies: v.plies(),
            }),
            _ => None,
        })
        .collect::<Vec<_>>();

    let (classes, positions, longest, longest_at) = census(sol);
    let rr = leader_chances(sol, Policy::Random, Policy::Random);
    let pr = leader_chances(sol, Policy::Perfect, Policy::Random);
    let rp = leader_chances(sol, Policy::Random, Policy::Perfect);
    let sure = matches!(value, Value::Win(_));
    let verdict = verdict(value, &pr, &rp, &rr);
    RotaReport {
        rules: rules.label(),
        value: number(value),
        outcome: value.word(),
        plies: value.plies(),
        first_moves,
        classes,
        positions,
        longest_win: longest,
        longest_win_position: longest_at,
        random_vs_random: rr.leader_wins,
        perfect_vs_random: pr.leader_wins,
        random_vs_perfect: rp.leader_wins,
        chances: ChancesTable {
            random_vs_random: rr.into(),
            perfect_vs_random: pr.into(),
            random_vs_perfect: rp.into(),
        },
        sure_path_to_victory: sure,
        verdict,
    }
}

/// Counts positions by value, both per symmetry class and in all, and finds
/// the longest forced win.
fn census(sol: &Solution) -> (Counts, Counts, u16, Option<String>) {
    let board = sol.rules.board;
    let mut classes = Counts::default();
    let mut all = Counts::default();
    let mut longest = 0u16;
    let mut longest_at = None;
    let mut sectors: Vec<_> = sol.tables().collect();
    sectors.sort_by_key(|(s, _)| **s);
    for (_, table) in sectors {
        let Values::Dtm(packed) = &table.values else { continue };
        for (i, &p) in packed.iter().enumerate() {
            if p == UNUSED {
                continue;
            }
            let st = table.indexer.state(i as u64);
            // The class's size: symmetries divided by those fixing the position.
            let fixed =
                board.symmetries().iter().filter(|g| g.set(st.own) == st.own && g.set(st.other) == st.other).count();
            let orbit = (board.symmetries().len() / fixed) as u64;
            let v = unpack(p);
            let terminal = sol.rules.lost(&st) || sol.rules.actions(&st, Throw::None).is_empty();
            for (c, n) in [(&mut classes, 1), (&mut all, orbit)] {
                match v {
                    Value::Win(_) => c.wins += n,
                    Value::Draw => c.draws += n,
                    Value::Loss(_) => {
                        c.losses += n;
                        if terminal {
                            c.terminal += n;
                        }
                    }
                }
            }
            if let Value::Win(w) = v
                && w > longest
            {
                longest = w;
                // Shown with x to move when x has placed no more men than o.
                let side = if st.own_hand >= st.other_hand { Side::X } else { Side::O };
                longest_at = Some(Position::from_state(board.kind, side, st).to_string());
            }
        }
    }
    (classes, all, longest, longest_at)
}

fn pct(p: f64) -> String {
    format!("{:.2}%", 100.0 * p)
}

fn verdict(value: Value, pr: &ChainResult, rp: &ChainResult, rr: &ChainResult) -> String {
    let claim = "The seed's claim, that with the lead you have \"a sure path to victory\",";
    match value {
        Value::Win(p) => format!("{claim} holds: the leader forces a win in {p} plies."),
        Value::Draw => format!(
            "{claim} does not hold: with perfect play on both sides Rota is a draw. The lead is worth \
             something only against imperfect play: between random players the leader wins {} of games, \
             a perfect leader beats a random follower in {}, and a random leader beats a perfect follower \
             in only {}.",
            pct(rr.leader_wins),
            pct(pr.leader_wins),
            pct(rp.leader_wins)
        ),
        Value::Loss(p) => {
            format!("{claim} is wrong the other way: the follower forces a win in {p} plies.")
        }
    }
}
