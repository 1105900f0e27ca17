//! The report of `ludus merels solve`: the start position's value with the
//! chances under the computed optimal strategy, every first move, and every
//! sector's counts, size and speed.

use engine::merels::{Position, Side, State, Throw};
use serde::Serialize;

use super::markov::{ChainResult, Policy, layered_chances, leader_chances};
use super::observer::Observer;
use super::plan;
use super::sector::Sector;
use super::solution::{Solution, SolveError};
use super::table::{Eval, Kind};
use super::value::{Value, reduced};

/// A value in every form a script may want.
#[derive(Clone, Debug, Serialize)]
pub struct ValueReport {
    /// P(win) − P(loss) for the side to move, in [−1, 1].
    pub value: f64,
    /// The exact fraction, when there is one (`"5/72"`).
    pub exact: Option<String>,
    /// Win, draw or loss, without chance.
    pub outcome: Option<&'static str>,
    /// Plies to the end, without chance.
    pub plies: Option<u16>,
    /// Proven bounds of the value, under chance in movement.
    pub lower: f64,
    pub upper: f64,
    /// The most the value can be off: zero when exact.
    pub error_bound: f64,
}

impl ValueReport {
    pub fn from_eval(e: Eval, den: i128) -> ValueReport {
        match e {
            Eval::Dtm(v) => {
                let x = v.sign() as f64;
                ValueReport {
                    value: x,
                    exact: Some(format!("{}", v.sign())),
                    outcome: Some(v.word()),
                    plies: v.plies(),
                    lower: x,
                    upper: x,
                    error_bound: 0.0,
                }
            }
            Eval::Exact(n) => {
                let (a, b) = reduced(n, den);
                let x = n as f64 / den as f64;
                ValueReport {
                    value: x,
                    exact: Some(if b == 1 { format!("{a}") } else { format!("{a}/{b}") }),
                    outcome: None,
                    plies: None,
                    lower: x,
                    upper: x,
                    error_bound: 0.0,
                }
            }
            // `+ 0.0` turns a negated zero into zero (`-0.000000` would
            // read as a value below zero).
            Eval::Chance(iv) => ValueReport {
                value: iv.v + 0.0,
                exact: None,
                outcome: None,
                plies: None,
                lower: iv.lo + 0.0,
                upper: iv.hi + 0.0,
                error_bound: iv.error(),
            },
        }
    }
}

/// The start position.
#[derive(Clone, Debug, Serialize)]
pub struct StartReport {
    pub position: String,
    #[serde(flatten)]
    pub value: ValueReport,
    /// Chances of the first player when both play as `perfect` does
    /// (`perfect::best_children`: ties between equally good actions broken
    /// uniformly at random, under chance the side ahead keeping to those of
    /// least progress rank): from the value without chance, else from the
    /// exact Markov chain, which needs every table in memory (`None` when
    /// they are not).
    pub p_win: Option<f64>,
    pub p_draw: Option<f64>,
    pub p_loss: Option<f64>,
    /// The most `p_win` and `p_loss` can be off (`p_draw` twice that): 0
    /// up to rounding when the chain's bounds closed.
    pub p_error: Option<f64>,
    /// Why the chances are missing, when they could not be computed (the
    /// layers of `markov::layered_chances` over `--memory`).
    pub p_missing: Option<String>,
}

/// One first move of the first player.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReport {
    /// The throw before it (`special`, `normal`), if dice are thrown.
    pub throw: Option<&'static str>,
    #[serde(rename = "move")]
    pub action: String,
    #[serde(flatten)]
    pub value: ValueReport,
}

/// One sector.
#[derive(Clone, Debug, Serialize)]
pub struct SectorReport {
    pub sector: String,
    /// `w-wf-b-bf`: men on board and in hand, side to move first.
    pub key: String,
    pub method: &'static str,
    pub loaded: bool,
    pub indices: u64,
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub mean_value: f64,
    pub longest_win: Option<u16>,
    pub longest_loss: Option<u16>,
    pub bytes_on_disk: Option<u64>,
    /// The sector's share of its group's solving time (a group's time is
    /// split evenly among its sectors: a sector and its mirror are solved
    /// together).
    pub seconds: f64,
    pub positions_per_second: f64,
    /// Under chance: strategy-iteration rounds (improvement passes).
    pub sweeps: Option<u64>,
    pub widest_interval: Option<f64>,
    /// Under chance: positions whose proven interval is wider than 1e-6.
    pub open_positions: Option<u64>,
}

/// Sizes of the whole game, solved or not, and what finishing would take.
/// Totals and the solved part count the same things: sector groups, and
/// indices (the work of a solve: every position has one, and some indices
/// name no position); positions are known only once solved.
#[derive(Clone, Debug, Serialize)]
pub struct Projection {
    pub groups_total: usize,
    pub groups_solved: usize,
    pub indices_total: u64,
    pub indices_solved: u64,
    /// The positions in the sectors solved (the report's `positions`).
    pub positions_solved: u64,
    /// At the speed measured so far.
    pub seconds_remaining: Option<f64>,
    pub bytes_total_estimate: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct MerelsReport {
    pub rules: String,
    pub board: String,
    pub dice: String,
    pub complete: bool,
    pub start: Option<StartReport>,
    pub first_moves: Vec<MoveReport>,
    pub sectors: Vec<SectorReport>,
    pub positions: u64,
    pub bytes_on_disk: u64,
    /// Wall time of this run.
    pub seconds: f64,
    /// Time spent solving every sector group listed, when it was solved
    /// (this run or an earlier one).
    pub solving_seconds: f64,
    pub positions_per_second: f64,
    pub projection: Projection,
}

fn throw_name(t: Throw) -> Option<&'static str> {
    match t {
        Throw::None => None,
        Throw::Normal => Some("normal"),
        Throw::Special => Some("special"),
    }
}

fn method(sol: &Solution, s: Sector) -> &'static str {
    let rules = &sol.rules;
    let group = sol.order().iter().find(|g| g.contains(&s));
    let cyclic = plan::cyclic(rules, group.map_or(std::slice::from_ref(&s), |g| g));
    match (cyclic, Kind::of(rules, s)) {
        (true, Kind::Chance) => "strategy iteration",
        (true, _) => "retrograde",
        (false, Kind::Dtm) => "forward",
        (false, Kind::Exact) => "exact",
        (false, Kind::Chance) => "forward (chance)",
    }
}

/// Whether every stored sector's table is in memory, whole (the chain of
/// perfect play from the start reads any of them, and their progress ranks).
pub fn all_tables_in_memory(sol: &Solution) -> bool {
    sol.order().iter().flatten().all(|&s| !s.is_stored() || sol.table(s).is_some_and(|t| !t.ranks_left))
}

/// The chances of perfect play a layer at a time ([`layered_chances`])
/// within `limit` bytes beside the tables, for [`report_with`]; where the
/// layers need more, none, and why (the report then takes them from the
/// whole chain if every table is in memory, else goes without).
pub fn layered_or_why(
    sol: &mut Solution,
    limit: u64,
    obs: &dyn Observer,
) -> Result<(Option<ChainResult>, Option<String>), SolveError> {
    match layered_chances(sol, limit, obs) {
        Err(e @ SolveError::ChancesMemory { .. }) => {
            let instead = if all_tables_in_memory(sol) {
                "the chances come from the whole chain of play instead"
            } else {
                "the report gives no P(win), P(draw), P(loss)"
            };
            Ok((None, Some(format!("{e}; {instead}"))))
        }
        other => other.map(|c| (c, None)),
    }
}

/// Assembles the report; `seconds` is the wall time of the whole run.
pub fn report(sol: &Solution, seconds: f64) -> MerelsReport {
    report_with(sol, seconds, None, None)
}

/// [`report`] with the chances of perfect play from the start computed
/// already (`markov::layered_chances`, where the tables are not all in
/// memory), or `missing`: why they could not be (given as the start's
/// `p_missing` where it has no chances).
pub fn report_with(
    sol: &Solution,
    seconds: f64,
    chances: Option<ChainResult>,
    missing: Option<String>,
) -> MerelsReport {
    let rules = &sol.rules;
    let den = sol.den;
    let start_state = State::start(rules.men());
    let start_pos = Position::from_state(rules.board.kind, Side::X, start_state);
    let all_in_memory = all_tables_in_memory(sol);
    let start = sol.eval(&start_state).map(|e| {
        let chances = match e {
            // Optimal play keeps a game without chance to its value.
            Eval::Dtm(v) => Some(match v {
                Value::Win(_) => (1.0, 0.0, 0.0, 0.0),
                Value::Draw => (0.0, 1.0, 0.0, 0.0),
                Value::Loss(_) => (0.0, 0.0, 1.0, 0.0),
            }),
            _ if chances.is_some() || all_in_memory => {
                let c = chances.unwrap_or_else(|| leader_chances(sol, Policy::Perfect, Policy::Perfect));
                Some((c.leader_wins, c.endless, c.leader_loses, c.error))
            }
            _ => None,
        };
        StartReport {
            position: start_pos.to_string(),
            value: ValueReport::from_eval(e, den),
            p_win: chances.map(|c| c.0),
            p_draw: chances.map(|c| c.1),
            p_loss: chances.map(|c| c.2),
            p_error: chances.map(|c| c.3),
            p_missing: if chances.is_none() { missing.clone() } else { None },
        }
    });
    let first_moves = if start.is_some() {
        sol.rate_actions(&start_state)
            .into_iter()
            .map(|(t, a, e)| MoveReport {
                throw: throw_name(t),
                action: a.display(rules.board).to_string(),
                value: ValueReport::from_eval(e, den),
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut sectors = Vec::new();
    let mut total_positions = 0;
    let mut total_bytes = 0;
    let mut solve_seconds = 0.0;
    for rec in &sol.records {
        for &s in &rec.sectors {
            let Some(sum) = sol.summary(s) else { continue };
            let (c, meta) = (sum.census, sum.meta);
            let kind = Kind::of(&sol.rules, s);
            let bytes = sol.database().and_then(|db| db.file_size(s));
            total_positions += c.positions;
            total_bytes += bytes.unwrap_or(0);
            solve_seconds += meta.seconds;
            let chance = kind == Kind::Chance;
            sectors.push(SectorReport {
                sector: s.to_string(),
                key: s.key(),
                method: method(sol, s),
                loaded: rec.loaded,
                indices: sum.indices,
                positions: c.positions,
                wins: c.wins,
                draws: c.draws,
                losses: c.losses,
                mean_value: c.mean,
                longest_win: (kind == Kind::Dtm).then_some(c.longest_win),
                longest_loss: (kind == Kind::Dtm).then_some(c.longest_loss),
                bytes_on_disk: bytes,
                seconds: meta.seconds,
                positions_per_second: if meta.seconds > 0.0 { c.positions as f64 / meta.seconds } else { 0.0 },
                sweeps: chance.then_some(meta.sweeps).filter(|&s| s > 0),
                widest_interval: chance.then_some(c.widest),
                open_positions: chance.then_some(c.open),
            });
        }
    }
    let projection = project(sol, total_positions, solve_seconds, total_bytes);
    MerelsReport {
        rules: rules.label(),
        board: rules.board.label(),
        dice: rules.dice.to_string(),
        complete: sol.complete(),
        start,
        first_moves,
        sectors,
        positions: total_positions,
        bytes_on_disk: total_bytes,
        seconds,
        solving_seconds: solve_seconds,
        positions_per_second: if solve_seconds > 0.0 { total_positions as f64 / solve_seconds } else { 0.0 },
        projection,
    }
}

/// Sizes of every sector of the game from the indexing alone (indices, a
/// slight overcount of positions), and the time the rest would take.
fn project(sol: &Solution, solved: u64, seconds: f64, bytes: u64) -> Projection {
    // Indices, not positions, measure both the work done and the work left.
    let all: u64 = sol.order().iter().map(|g| sol.indices(g)).sum();
    let solved_indices: u64 = sol.records.iter().map(|r| sol.indices(&r.sectors)).sum();
    let rate = if seconds > 0.0 { solved_indices as f64 / seconds } else { 0.0 };
    let remaining = all.saturating_sub(solved_indices);
    // The files written so far tell the bytes per index (compressed, well
    // under one without chance); with none yet, one byte each.
    let bytes_per_index = if solved_indices > 0 && bytes > 0 { bytes as f64 / solved_indices as f64 } else { 1.0 };
    Projection {
        groups_total: sol.order().len(),
        groups_solved: sol.records.len(),
        indices_total: all,
        indices_solved: solved_indices,
        positions_solved: solved,
        seconds_remaining: (rate > 0.0).then(|| remaining as f64 / rate),
        bytes_total_estimate: (all as f64 * bytes_per_index) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merels::value::Interval;

    #[test]
    fn a_value_of_zero_is_reported_without_a_sign() {
        let zero = Interval { v: -0.0, lo: -0.0, hi: 1e-9 };
        let r = ValueReport::from_eval(Eval::Chance(zero), 1);
        assert!(r.value.is_sign_positive() && r.lower.is_sign_positive(), "{r:?}");
        assert_eq!(format!("{:+.6}", r.value), "+0.000000");
    }
}
